// A server that garbles every answer, then recovers, over the construction, task and judging
// stages exactly as dag.config.ts declares them: a refused answer is never a row, every failure
// row is cleared by --retry-failed (fresh attempts, not the cached garbage), and the recovered
// rows are what the recovered server said.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { startFakeOpenAIServer, type ChatBody } from '../../pipeline/llm/testing/fake-openai-server.ts';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import { llmCallsRelation } from '../../pipeline/llm/call-log.ts';
import { resolveDag } from '../../pipeline/dag/validate.ts';
import { runDag, type RunSummary } from '../../pipeline/exec/executor.ts';
import { workspaceFor } from '../../pipeline/exec/workspace.ts';
import { readLedger } from '../../pipeline/store/ledger.ts';
import { stageRows } from '../../pipeline/testing/stage-rows.ts';
import { configStages } from '../../pipeline/testing/config-stages.ts';
import type { DagConfig, Row } from '../../pipeline/dag/define.ts';
import type { ModelSpec } from '../../pipeline/llm/types.ts';
import { offlineHandlers } from '../agents/roster.ts';
import { PATIENT_NAME } from '../agents/offline-patient.ts';
import { SIMULATED_ROSTER } from '../agents/roster.ts';
import { simulatedJudge } from '../agents/judges/simulated-judges.ts';
import { answerPrompt } from '../judge/testing/prompt-judge.ts';
import dagConfig from '../../dag.config.ts';
import { realJudge, realModel, simulatedPatient } from '../roster/testing/specs.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WHO = 'who-2021-hypertension-pharmacological-treatment-retypeset';
const GARBLE = "I'm sorry, here is something unrelated: ```{not json";
const STAGES = [
  'corpus',
  'corpus_trees',
  'guidelines',
  'trees',
  'tree_nodes',
  'cdps',
  'vignettes',
  'narratives',
  'qc',
  'qc_inspection',
  'test_cases',
  'predictions_single',
  'dialogues_multi',
  'predicted_pathways',
  'step_scores',
  'outcome_scores',
];
const VIGNETTE = 'A 60-year-old patient had a systolic blood pressure of 150 mmHg. The clinical question concerns management.';
type Kind = 'tree' | 'vignette' | 'narrative' | 'qc' | 'single' | 'doctor' | 'judge';

/** Three whole sentences of the guideline, as a model would quote them. */
function quotes(prompt: string): string[] {
  const guideline = prompt.slice(prompt.indexOf('## Guideline:'), prompt.indexOf('## Example of a Leaf-Node'));
  return guideline
    .split('\n')
    .filter((l) => !l.startsWith('#') && !l.startsWith('|'))
    .flatMap((l) => l.match(/[A-Z][^.?!]{60,300}\./g) ?? [])
    .slice(0, 3);
}

function tree(prompt: string): string {
  const [a, b, c] = quotes(prompt);
  const root = {
    index: 1,
    description: 'Is the systolic blood pressure ≥140 mmHg?',
    yes: {
      index: 2,
      description: 'Does the patient have diabetes?',
      yes: { index: 3, leaf: true, conclusion: 'Start combination therapy.' },
      no: { index: 4, leaf: true, conclusion: 'Start monotherapy.' },
    },
    no: { index: 5, leaf: true, conclusion: 'Do not start pharmacological treatment.' },
  };
  const mapping = { 1: [a], 2: [b], 3: [c], 4: [c], 5: [a] };
  return JSON.stringify({ primary_clinical_focus: 'management', decision_tree: root, node_guideline_mapping: mapping });
}

function kindOf(body: ChatBody): Kind {
  const system = body.messages[0]!.role === 'system' ? body.messages[0]!.content : '';
  if (system.includes('You are a doctor.')) return 'doctor';
  const prompt = body.messages.find((m) => m.role === 'user')!.content;
  if (prompt.includes('convert it into a decision tree represented as a JSON object')) return 'tree';
  if (prompt.includes('convert this clinical decision path into a single, coherent')) return 'vignette';
  if (prompt.includes('produce a single JSON array of strings')) return 'narrative';
  if (prompt.includes('You will receive two clinical')) return 'judge';
  if (prompt.includes('reviewing a benchmark case')) return 'qc';
  return 'single';
}

const f1 = simulatedJudge('simulated-token-f1');

/** The recovered server: every prompt answered as a careful model would. */
function goodAnswer(body: ChatBody, kind: Kind): string {
  const prompt = body.messages.find((m) => m.role === 'user')?.content ?? '';
  switch (kind) {
    case 'tree':
      return tree(prompt);
    case 'vignette':
      return `Here is the clinical case vignette:\n\n${VIGNETTE}`;
    case 'narrative': {
      // The decision path lists the steps and the conclusion: one statement each.
      const json = prompt.slice(prompt.indexOf('## Input:') + 9, prompt.indexOf('## Output Format:')).trim();
      const input = JSON.parse(json) as { decision_path: unknown[] };
      return JSON.stringify(Array.from({ length: input.decision_path.length }, (_, i) => `Reasoning statement ${i + 1}.`));
    }
    case 'qc':
      return '```json\n{"consistent": true, "problems": []}\n```';
    case 'single':
      return '### Clinical Decision Process:\n1. The systolic blood pressure is 150 mmHg.\n### Clinical Decision Outcome: Start monotherapy.';
    case 'doctor':
      return body.messages.length < 3 ? 'Is the systolic blood pressure ≥140 mmHg?' : 'Final Conclusion: Start monotherapy.';
    case 'judge':
      return answerPrompt(f1, prompt);
  }
}

test('garbled answers, then recovery: --retry-failed clears every failure row and no garbled text is in any row', async () => {
  const garbled = new Set<Kind>();
  const server = await startFakeOpenAIServer({
    answer: (body) => {
      const kind = kindOf(body);
      return garbled.has(kind) ? GARBLE : goodAnswer(body, kind);
    },
  });
  const root = mkdtempSync(join(tmpdir(), 'cdp-garbled-'));
  try {
    // A corpus of one PDF and no trees: the builder model must build the tree.
    mkdirSync(join(root, 'corpus', 'guidelines', 'en'), { recursive: true });
    copyFileSync(join(repo, 'data', 'sample', 'guidelines', 'en', `${WHO}.pdf`), join(root, 'corpus', 'guidelines', 'en', `${WHO}.pdf`));
    const spec = (name: string, roles: ModelSpec['roles']): ModelSpec => ({
      name,
      roles,
      provider: 'openai-compatible',
      baseURLs: [server.url],
      apiKeyOptional: true,
      modelId: `${name}-id`,
      contextWindow: 200_000,
    });
    const patient = SIMULATED_ROSTER.filter((m) => m.name === PATIENT_NAME);
    const roster = [spec('builder', ['builder']), spec('doc', ['evaluated']), spec('judge', ['judge']), ...patient];
    const judgeParams = { judges: [realJudge('judge', { modelId: 'judge-id', contextWindow: 200_000 })] };
    const builder = realModel('builder', { modelId: 'builder-id' });
    const stages = configStages(dagConfig, STAGES, repo, {
      trees: { builder },
      cdps: { testIds: [WHO] },
      vignettes: { writer: builder },
      narratives: { writer: builder },
      qc: { inspectFraction: 1 },
      qc_inspection: { inspector: builder },
      // QC exclusion has its own tests; here every test case must reach the task stages.
      test_cases: { limit: null, excludeFlagged: false },
      predictions_single: { models: [realModel('doc', { modelId: 'doc-id' })] },
      dialogues_multi: {
        models: [realModel('doc', { modelId: 'doc-id' })],
        patient: simulatedPatient(),
        simulatedPatient: simulatedPatient(),
      },
      step_scores: judgeParams,
      outcome_scores: judgeParams,
    });
    const corpusFiles = {
      kind: 'files' as const,
      patterns: ['corpus/guidelines/**/*.{pdf,md,txt}', 'corpus/trees/*.json', 'corpus/guidelines.csv'],
    };
    const config: DagConfig = { sources: { corpus_files: corpusFiles }, stages };
    const dag = await resolveDag(config, root);
    const ws = workspaceFor(root);
    const run = async (retryFailed: boolean): Promise<RunSummary> => {
      const client = createLlmClient({
        cacheDir: join(ws.store, 'llm'),
        roster,
        offlineHandlers: offlineHandlers(),
        retry: { maxAttempts: 1 },
      });
      try {
        return await runDag(dag, ws, { llm: client, retryFailed });
      } finally {
        await client.close();
      }
    };
    const rows = (stage: string): Row[] => {
      const entry = readLedger(ws.ledger).entries[stage];
      return entry ? stageRows(ws, stage) : [];
    };
    const failures = () => Object.fromEntries(STAGES.map((s) => [s, rows(s).filter((r) => r.error != null).length]).filter(([, n]) => n));
    /**
     * No row anywhere carries any part of a garbled answer as data. While failures remain, the
     * diagnostics (`error`, a failed row's `problems`, the `reason` an unusable pathway repeats
     * the error in) may quote a fragment for the re-ask; once recovered, no field may (`everywhere`).
     */
    const assertClean = (when: string, everywhere = false) => {
      for (const s of STAGES) {
        for (const r of rows(s)) {
          const { error: _e, reason: _r, problems: _p, ...data } = r;
          if (r.error == null && !everywhere) data.problems = r.problems;
          const text = JSON.stringify(everywhere ? r : data);
          assert.ok(!text.includes("I'm sorry") && !text.includes('not json'), `${when}: a garbled answer is in a ${s} row: ${text}`);
        }
      }
    };
    const requests = () => server.counters.chat;

    // 1. Everything the builder and the judge say is garbage: trees fail, nothing is built on them.
    garbled.add('tree').add('vignette').add('narrative').add('qc').add('judge');
    assert.equal((await run(false)).ok, true);
    assert.deepEqual(failures(), { trees: 1, tree_nodes: 1 }, 'the failed tree and its upstream failure, nothing else');
    assert.equal(requests(), 3, 'the tree asked, then re-asked twice (maxAttempts 3)');
    assertClean('garbled trees');
    assert.match(String(rows('trees')[0]!.error), /no valid answer after 3 attempts/);

    // 2. The server recovers for trees only: the retry asks afresh (it is not served the
    //    cached garbage) and the next garbled layer, the vignettes, fails in its turn.
    garbled.delete('tree');
    let before = requests();
    const second = await run(true);
    assert.equal(second.stages.find((s) => s.stage === 'trees')!.llmCached, 0, 'no refused answer is served again');
    assert.equal(requests() - before > 1, true);
    const cases = rows('cdps').length;
    assert.ok(cases >= 2, `the recovered tree has 3 paths, got ${cases}`);
    assert.equal(rows('trees')[0]!.valid, true);
    const f2 = failures();
    assert.equal(f2.trees, undefined);
    assert.equal(f2.vignettes, cases, 'every garbled vignette is a failure row, none is stored');
    assert.equal(f2.narratives, cases);
    // A case without a usable vignette or narrative is no test case: nothing is shown to the
    // evaluated model, and nothing is charged to it.
    assert.equal(rows('test_cases').length, 0, 'construction failed for every case: no test case');
    assert.deepEqual([f2.predictions_single, f2.dialogues_multi], [undefined, undefined]);
    assert.deepEqual([rows('predictions_single').length, rows('dialogues_multi').length], [0, 0]);
    assert.equal(
      second.stages.find((s) => s.stage === 'test_cases')!.empty !== undefined,
      true,
      'the run says there is nothing to evaluate',
    );
    assertClean('garbled vignettes');

    // 3. Vignettes recover; narratives and judges still garble.
    garbled.delete('vignette');
    assert.equal((await run(true)).ok, true);
    const f3 = failures();
    const f3Tasks = [f3.vignettes, f3.narratives, f3.predictions_single, f3.dialogues_multi];
    assert.deepEqual(f3Tasks, [undefined, cases, undefined, undefined], JSON.stringify(f3));
    assert.equal(rows('test_cases').length, 0, 'still no usable narrative: still no test case');
    assert.equal(f3.qc_inspection, cases, 'every garbled QC verdict is a failure row');
    assertClean('garbled narratives');

    // 4. Narratives recover; the judges still garble.
    garbled.delete('narrative');
    garbled.delete('qc');
    assert.equal((await run(true)).ok, true);
    const f4 = failures();
    assert.deepEqual(f4, { step_scores: 2 * cases, outcome_scores: 2 * cases });
    assert.equal(rows('test_cases').length, cases, 'built at last: every case is a test case');
    const judged = rows('step_scores');
    assert.ok(
      judged.every((r) => /^only 0 of 5 judge runs of judge gave a complete/.test(String(r.error))),
      String(judged[0]!.error),
    );
    assertClean('garbled judges');

    // 5. The judges recover: --retry-failed clears every failure row.
    garbled.clear();
    before = requests();
    const last = await run(true);
    assert.equal(last.ok, true);
    assert.deepEqual(failures(), {});
    assert.ok(requests() > before);
    assertClean('recovered', true);

    // The recovered rows are the recovered server's answers.
    assert.ok(rows('vignettes').every((v) => v.vignette === VIGNETTE && v.format === 'preamble'));
    assert.ok(rows('narratives').every((n, _i, all) => (n.steps as string[])[0] === 'Reasoning statement 1.' && all.length === cases));
    assert.ok(rows('predictions_single').every((p) => p.outcome === 'Start monotherapy.'));
    assert.ok(rows('dialogues_multi').every((d) => d.outcome === 'Start monotherapy.'));
    assert.deepEqual(
      rows('qc_inspection').map((q) => [q.consistent, q.problems]),
      Array.from({ length: cases }, () => [true, []]),
    );
    const outcomes = rows('outcome_scores');
    assert.equal(outcomes.length, 2 * cases, 'both settings of every case');
    const steps = rows('step_scores');
    assert.equal(steps.length, 2 * cases);
    assert.ok(
      steps.every((s) => s.runs_ok === 5 && s.runs_failed === 0),
      JSON.stringify(steps.map((s) => [s.runs_ok, s.runs_failed])),
    );

    // A plain rerun is served entirely from the cache.
    before = requests();
    const again = await run(false);
    assert.ok(again.stages.every((s) => s.status === 'reused'));
    assert.equal(requests(), before);

    // The refused answers are in the log for the record, marked, with their text.
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    await con.run(`create view llm_calls as select * from ${llmCallsRelation(join(ws.store, 'llm'))!}`);
    const log = (
      await con.runAndReadAll(
        `select stage, count(*)::int as n, count(*) filter (where rejected)::int as rejected,
         count(*) filter (where rejected and text = '${GARBLE.replace(/'/g, "''")}')::int as garbled
       from llm_calls group by stage order by stage`,
      )
    ).getRowObjects();
    con.closeSync();
    const byStage = Object.fromEntries(log.map((r) => [r.stage, r]));
    for (const s of ['trees', 'vignettes', 'narratives', 'qc_inspection', 'step_scores', 'outcome_scores']) {
      const r = byStage[s]!;
      assert.ok((r.rejected as number) > 0 && r.rejected === r.garbled, `${s}: ${JSON.stringify(r)}`);
    }
    assert.equal(byStage.predictions_single!.rejected, 0);
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
});
