// The evaluation stages as a DAG through the real runner and the real LLM client, the three
// simulated similarity judges answering: fixture tables stand in for the task stages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import { resolveDag } from '../../pipeline/dag/validate.ts';
import { runDag } from '../../pipeline/exec/executor.ts';
import { workspaceFor } from '../../pipeline/exec/workspace.ts';
import { stageRows } from '../../pipeline/testing/stage-rows.ts';
import type { DagConfig } from '../../pipeline/dag/define.ts';
import { buildFixture, HTN_TREE, INSOMNIA_TREE } from '../agents/testing/benchmark-cases.ts';
import { planCase, questionsOf } from '../agents/perturbation-agent.ts';
import { profileFromName } from '../agents/perturbation-profile.ts';
import { simulatedJudgeHandlers, simulatedJudgeSpecs } from '../agents/judges/simulated-judges.ts';
import { cdpRow } from './testing/stage-harness.ts';
import { simulatedJudges } from '../roster/testing/specs.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const AGENTS = ['simulated-oracle', 'simulated-omission-1', 'simulated-mixed-0.5'];

function fixtureTables() {
  const fx = buildFixture();
  const cdps = [...fx.htn, ...fx.insomnia];
  const treeOf = (g: string) => (g === 'htn' ? HTN_TREE : INSOMNIA_TREE);
  const predictions_single: Record<string, unknown>[] = [];
  const dialogues_multi: Record<string, unknown>[] = [];
  for (const c of cdps) {
    const ids = { cdp_id: c.cdp_id, guideline_id: c.guideline_id, language: c.language };
    for (const model of AGENTS) {
      const plan = planCase(profileFromName(model), c, treeOf(c.guideline_id));
      predictions_single.push({
        model,
        ...ids,
        steps: plan.steps,
        outcome: plan.conclusion,
        parse_ok: true,
        parse_error: null,
        raw: '',
        simulated: true,
        error: null,
      });
      dialogues_multi.push({
        model,
        ...ids,
        questions: questionsOf(plan),
        outcome: plan.conclusion,
        success: true,
        end_reason: 'conclusion',
        simulated: true,
        error: null,
      });
    }
    predictions_single.push({
      model: 'real-model',
      ...ids,
      steps: [],
      outcome: '',
      parse_ok: false,
      parse_error: 'no steps',
      raw: 'rambling',
      simulated: false,
      error: null,
    });
    dialogues_multi.push({
      model: 'real-model',
      ...ids,
      questions: [],
      outcome: null,
      success: false,
      end_reason: null,
      simulated: false,
      error: 'HTTP 500 after retries',
    });
  }
  return {
    cdps: cdps.map(cdpRow),
    narratives: cdps.map((c) => ({ cdp_id: c.cdp_id, steps: [...c.steps.map((s) => `We check: ${s.condition}`), c.conclusion] })),
    trees: [
      { guideline_id: 'htn', tree_json: JSON.stringify(HTN_TREE), valid: true },
      { guideline_id: 'insomnia', tree_json: JSON.stringify(INSOMNIA_TREE), valid: true },
    ],
    predictions_single,
    dialogues_multi,
  };
}

test('evaluation DAG: simulated judges through the client, every analysis stage, a no-op rerun', async () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-evaluate-'));
  try {
    const tables = fixtureTables();
    const f = (name: string) => ({
      name,
      module: join(repo, 'stages/evaluate/testing', `${name}.fixture.ts`),
      params: { rows: tables[name as keyof typeof tables] },
    });
    const m = (file: string) => join(repo, 'stages/evaluate', file);
    const judges = simulatedJudges();
    const config: DagConfig = {
      sources: {},
      stages: [
        f('predictions_single'),
        f('dialogues_multi'),
        f('cdps'),
        // Every case of the fixture is a test case of this run.
        { ...f('cdps'), name: 'test_cases' },
        f('narratives'),
        f('trees'),
        {
          name: 'agent_plans',
          module: join(repo, 'stages/agents/agent-plans.stage.ts'),
          inputs: { cdps: 'cdps', trees: 'trees' },
          forEach: { input: 'cdps', join: { trees: 'guideline_id' }, cross: { param: 'models', as: 'model' } },
          params: { models: [...AGENTS, 'real-model'].sort() },
        },
        {
          name: 'predicted_pathways',
          module: m('predicted-pathways.stage.ts'),
          inputs: {
            predictions_single: 'predictions_single',
            dialogues_multi: 'dialogues_multi',
            cdps: 'cdps',
            narratives: 'narratives',
            test_cases: 'test_cases',
          },
        },
        {
          name: 'step_scores',
          module: m('step-scores.stage.ts'),
          inputs: { predicted_pathways: 'predicted_pathways' },
          forEach: { input: 'predicted_pathways', cross: { param: 'judges', as: 'judge' } },
          params: { judges, runs: 5 },
        },
        {
          name: 'outcome_scores',
          module: m('outcome-scores.stage.ts'),
          inputs: { predicted_pathways: 'predicted_pathways' },
          forEach: { input: 'predicted_pathways', cross: { param: 'judges', as: 'judge' } },
          params: { judges, cutoff: 4 },
        },
        { name: 'pathway_metrics', module: m('pathway-metrics.stage.ts'), inputs: { step_scores: 'step_scores' }, forEach: 'step_scores' },
        {
          name: 'model_summary',
          module: m('model-summary.stage.ts'),
          inputs: { pathway_metrics: 'pathway_metrics', outcome_scores: 'outcome_scores', predicted_pathways: 'predicted_pathways' },
          params: { resamples: 2000, seed: 42 },
        },
        { name: 'correlations', module: m('correlations.stage.ts'), inputs: { pathway_metrics: 'pathway_metrics' }, params: { judges } },
        {
          name: 'threshold_labels',
          module: m('threshold-labels.stage.ts'),
          inputs: {
            test_cases: 'test_cases',
            step_scores: 'step_scores',
            predicted_pathways: 'predicted_pathways',
            agent_plans: 'agent_plans',
          },
          forEach: { input: 'test_cases', join: { step_scores: 'cdp_id', predicted_pathways: 'cdp_id', agent_plans: 'cdp_id' } },
        },
        { name: 'threshold_analysis', module: m('threshold-analysis.stage.ts'), inputs: { threshold_labels: 'threshold_labels' } },
        {
          name: 'simulated_preferences',
          module: m('simulated-preferences.stage.ts'),
          inputs: { test_cases: 'test_cases', predicted_pathways: 'predicted_pathways', agent_plans: 'agent_plans' },
          forEach: { input: 'test_cases', join: { predicted_pathways: 'cdp_id', agent_plans: 'cdp_id' } },
        },
        {
          name: 'preference_agreement',
          module: m('preference-agreement.stage.ts'),
          inputs: { pathway_metrics: 'pathway_metrics', simulated_preferences: 'simulated_preferences' },
        },
        {
          name: 'true_deviations',
          module: m('true-deviations.stage.ts'),
          inputs: { test_cases: 'test_cases', predicted_pathways: 'predicted_pathways', agent_plans: 'agent_plans' },
          forEach: { input: 'test_cases', join: { predicted_pathways: 'cdp_id', agent_plans: 'cdp_id' } },
        },
        { name: 'deviation_profile', module: m('deviation-profile.stage.ts'), inputs: { true_deviations: 'true_deviations' } },
      ],
    };
    const dag = await resolveDag(config, root);
    const ws = workspaceFor(root);
    const run = async () => {
      const client = createLlmClient({
        cacheDir: join(ws.store, 'llm'),
        roster: simulatedJudgeSpecs(),
        offlineHandlers: simulatedJudgeHandlers(),
        env: {},
      });
      try {
        return { summary: await runDag(dag, ws, { llm: client }), calls: client.counters().calls };
      } finally {
        await client.close();
      }
    };
    const first = await run();
    assert.equal(first.summary.ok, true, JSON.stringify(first.summary.stages.filter((s) => s.error)));
    const rows = (stage: string) => stageRows(ws, stage);

    const cases = tables.cdps.length;
    const pathways = rows('predicted_pathways');
    assert.equal(pathways.length, cases * 8);
    assert.equal(pathways.filter((p) => !p.usable).length, cases, 'only the failed dialogues are unusable');

    const scores = rows('step_scores');
    assert.equal(scores.length, cases * 8 * 3);
    const failed = scores.filter((s) => s.error != null);
    assert.equal(failed.length, cases * 3);
    assert.ok(
      failed.every(
        (s) => /pathway not judged: dialogue failed: HTTP 500/.test(String(s.error)) && s.model === 'real-model' && s.setting === 'multi',
      ),
    );

    const metrics = rows('pathway_metrics').filter((r) => r.error == null);
    // The oracle's single-turn steps are the reference conditions; the narrative statements
    // contain them verbatim, so each judge's best match is on the diagonal: a perfect LNDS.
    const oracle = metrics.filter((r) => r.model === 'simulated-oracle' && r.setting === 'single');
    assert.equal(oracle.length, cases * 3);
    assert.ok(
      oracle.every((r) => r.lnds_pcs === 1),
      JSON.stringify(oracle.map((r) => r.lnds_pcs)),
    );
    const empty = metrics.filter((r) => r.model === 'real-model');
    assert.ok(
      empty.length === cases * 3 && empty.every((r) => r.dtw_pcc === 1 && r.ot_pcc === 1 && r.lnds_pcs === 0 && r.n === 0),
      'parse failures score worst',
    );

    const summary = rows('model_summary');
    const cell = (setting: string, judge: string | null, metric: string, model: string) =>
      summary.find((r) => r.setting === setting && r.judge === judge && r.metric === metric && r.model === model)!;
    assert.deepEqual(
      [cell('single', 'simulated-tfidf', 'dtw_pcc', 'real-model').mean, cell('single', 'simulated-tfidf', 'dtw_pcc', 'real-model').ci_low],
      [1, 1],
    );
    assert.equal(cell('single', 'simulated-tfidf', 'dtw_pcc', 'real-model').simulated, false);
    assert.equal(cell('multi', null, 'sr', 'simulated-oracle').mean, 1);
    assert.equal(cell('multi', null, 'sr', 'simulated-oracle').clusters, 2);
    assert.equal(
      cell('single', 'simulated-token-f1', 'acc', 'simulated-oracle').mean,
      1,
      'the oracle’s conclusion is the reference conclusion',
    );
    assert.equal(cell('single', 'simulated-token-f1', 'acc', 'real-model').mean, 0, 'an empty conclusion scores 1');

    const corr = rows('correlations').filter((r) => r.setting === 'all');
    assert.equal(corr.length, 18);
    assert.ok(
      corr.every((r) => r.n === cases * 7),
      'every usable pathway scored by all three judges',
    );

    const threshold = rows('threshold_analysis');
    assert.deepEqual([...new Set(threshold.map((r) => r.judge))].sort(), judges.map((j) => j.name).sort());
    assert.ok(threshold.every((r) => r.simulated === true && r.model !== 'real-model'));

    const prefs = rows('preference_agreement');
    assert.equal(prefs.filter((r) => r.group === 'overall').length, 9, '3 judges × 3 metrics');
    assert.ok(prefs.every((r) => r.simulated === true && (r.agreement as number) >= 0 && (r.agreement as number) <= 1));

    const profile = rows('deviation_profile');
    assert.deepEqual(
      profile.map((r) => `${r.setting}/${r.model}`),
      [
        'multi/simulated-mixed-0.5',
        'multi/simulated-omission-1',
        'multi/simulated-oracle',
        'single/simulated-mixed-0.5',
        'single/simulated-omission-1',
        'single/simulated-oracle',
      ],
    );
    assert.ok(profile.filter((r) => r.model === 'simulated-oracle').every((r) => r.total === 0 && r.cases === cases));

    const second = await run();
    assert.ok(
      second.summary.stages.every((s) => s.status === 'reused'),
      JSON.stringify(second.summary.stages.map((s) => [s.stage, s.status])),
    );
    assert.equal(second.calls, 0);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
