// From the real task stages (offline agents answering through the real client) to every
// evaluation stage, with the evaluation stages exactly as dag.config.ts declares them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import { ORACLE_NAME } from '../agents/oracle.ts';
import { offlineHandlers as agentProviders, SIMULATED_ROSTER } from '../agents/roster.ts';
import { simulatedJudgeHandlers, simulatedJudgeSpecs } from '../agents/judges/simulated-judges.ts';
import { fixtureData, taskDag, taskProject } from '../tasks/testing/task-dag.ts';
import { simulatedAgents, simulatedJudges, simulatedPatient } from '../roster/testing/specs.ts';
import { configStages } from '../../pipeline/testing/config-stages.ts';
import dagConfig from '../../dag.config.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const EVALUATION_STAGES = [
  'predicted_pathways',
  'step_scores',
  'outcome_scores',
  'pathway_metrics',
  'model_summary',
  'correlations',
  'threshold_labels',
  'threshold_analysis',
  'simulated_preferences',
  'preference_agreement',
  'true_deviations',
  'deviation_profile',
];
const PERTURBED = 'simulated-mixed-0.15-wrong-0.2';
const MODELS = [ORACLE_NAME, 'simulated-omission-0.3', PERTURBED];

test('end to end: task stages with offline agents, then every evaluation stage with the simulated judges', async () => {
  const data = fixtureData();
  const config = taskDag(data, { models: simulatedAgents(MODELS) }, { models: simulatedAgents(MODELS), patient: simulatedPatient() });
  const narratives = data.cdps.map((c) => ({
    cdp_id: c.cdp_id,
    steps: [...(c.steps as { condition: string }[]).map((s) => `The decision: ${s.condition}`), String(c.conclusion)],
  }));
  const judges = simulatedJudges();
  config.stages.push(
    { name: 'narratives', module: resolve(here, 'testing/narratives.fixture.ts'), params: { rows: narratives } },
    ...configStages(dagConfig, EVALUATION_STAGES, repo, {
      step_scores: { judges },
      outcome_scores: { judges },
    }),
  );
  // The agents' plans from the config's declaration, over the fixture's cases (the test DAG has no test_cases stage).
  const [plans] = configStages(dagConfig, ['agent_plans'], repo, { agent_plans: { models: MODELS } });
  config.stages.push({ ...plans!, inputs: { cdps: 'cdps', trees: 'trees' } });
  const project = taskProject(config);
  try {
    const client = createLlmClient({
      cacheDir: project.cacheDir,
      roster: [...SIMULATED_ROSTER, ...simulatedJudgeSpecs()],
      offlineHandlers: { ...agentProviders(), ...simulatedJudgeHandlers() },
    });
    let summary;
    try {
      summary = await project.run(client);
    } finally {
      await client.close();
    }
    assert.equal(summary.ok, true, JSON.stringify(summary.stages.filter((s) => s.error)));
    const cases = data.cdps.length;
    const pathways = project.rows('predicted_pathways');
    assert.equal(pathways.length, 2 * MODELS.length * cases);
    assert.ok(
      pathways.every((p) => p.usable === true),
      JSON.stringify(pathways.filter((p) => !p.usable).map((p) => p.reason)),
    );
    assert.equal(project.rows('step_scores').filter((r) => r.error != null).length, 0);

    // Every perturbation agent's pathway is its plan, so all of them carry ground truth.
    const profile = project.rows('deviation_profile');
    assert.deepEqual(
      profile.map((r) => [r.setting, r.model, r.cases]),
      ['multi', 'single'].flatMap((s) => [...MODELS].sort().map((m) => [s, m, cases])),
    );
    assert.ok(profile.filter((r) => r.model === ORACLE_NAME).every((r) => r.total === 0));
    assert.ok(
      profile.filter((r) => r.model !== ORACLE_NAME).every((r) => (r.total as number) > 0),
      'the agents deviate somewhere on the fixture',
    );

    const threshold = project.rows('threshold_analysis').filter((r) => r.setting === 'all' && r.model === null);
    assert.equal(threshold.length, 3 * 21);
    const labelled = threshold[0]!.n as number;
    const refSteps = (data.cdps as { steps: unknown[] }[]).reduce((s, c) => s + c.steps.length, 0);
    assert.ok(labelled > 2 * refSteps && labelled <= 2 * MODELS.length * refSteps, `${labelled} labelled steps`);

    const summaryRows = project.rows('model_summary');
    const oracleAcc = summaryRows.filter((r) => r.model === ORACLE_NAME && r.metric === 'acc');
    assert.equal(oracleAcc.length, 2 * 3);
    assert.ok(oracleAcc.every((r) => r.mean === 1 && r.n === cases));
    const lnds = (model: string) =>
      summaryRows.find((r) => r.setting === 'multi' && r.judge === 'simulated-token-f1' && r.metric === 'lnds_pcs' && r.model === model)!
        .mean as number;
    assert.equal(lnds(ORACLE_NAME), 1, 'the oracle asks the reference questions');
    assert.ok(lnds('simulated-omission-0.3') < 1);

    const prefs = project.rows('preference_agreement').filter((r) => r.group === 'overall');
    assert.equal(prefs.length, 9);
    const corr = project.rows('correlations').filter((r) => r.setting === 'all');
    assert.ok(corr.length === 18 && corr.every((r) => r.n === 2 * MODELS.length * cases));
  } finally {
    project.remove();
  }
});
