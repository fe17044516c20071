// Predictions made elsewhere: the line reader, `cdp import predictions`, and the imported rows
// judged, scored and summarised through the real runner under their own model names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import { resolveDag } from '../../pipeline/dag/validate.ts';
import { files, type DagConfig } from '../../pipeline/dag/define.ts';
import { runDag } from '../../pipeline/exec/executor.ts';
import { workspaceFor } from '../../pipeline/exec/workspace.ts';
import { stageRows } from '../../pipeline/testing/stage-rows.ts';
import type { Row } from '../../pipeline/stage.ts';
import { buildFixture } from '../agents/testing/benchmark-cases.ts';
import { simulatedJudgeHandlers, simulatedJudgeSpecs } from '../agents/judges/simulated-judges.ts';
import { parseImportedPredictions } from './imported-predictions.ts';
import { importPredictions, importSummary } from './import-command.ts';
import { cdpRow } from './testing/stage-harness.ts';
import { simulatedJudges } from '../roster/testing/specs.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const KNOWN = new Map<string, Row>([
  ['c1', { cdp_id: 'c1', guideline_id: 'g1', language: 'en' }],
  ['c2', { cdp_id: 'c2', guideline_id: 'g2', language: 'zh' }],
]);

test('each bad line is reported with its number and the rest are read', () => {
  const lines = [
    JSON.stringify({ setting: 'single', model: 'ext', cdp_id: 'c1', steps: ['a', 'b'], outcome: 'x' }),
    '{not json',
    JSON.stringify({ setting: 'both', model: 'ext', cdp_id: 'c1' }),
    '',
    JSON.stringify({ setting: 'single', model: 'ext', cdp_id: 'c9', steps: [] }),
    JSON.stringify({
      setting: 'multi',
      model: 'ext',
      cdp_id: 'c2',
      questions: ['q?'],
      outcome: '结论',
      transcript: [
        { role: 'doctor', text: 'q?' },
        { role: 'patient', text: '是' },
      ],
    }),
    JSON.stringify({ setting: 'single', model: 'ext', cdp_id: 'c1', steps: ['again'] }),
    JSON.stringify({ setting: 'multi', model: 'ext', cdp_id: 'c1', questions: 'q?' }),
    JSON.stringify({ setting: 'multi', model: 'ext', cdp_id: 'c1', questions: [], outcome: '' }),
  ];
  const r = parseImportedPredictions('ext.jsonl', lines.join('\n'), KNOWN);
  const want: [number, RegExp][] = [
    [2, /^not JSON \(/],
    [3, /^"setting" must be "single" or "multi", got "both"$/],
    [5, /^cdp_id "c9" is not a case of this build/],
    [7, /^a second single-turn prediction of model "ext" for c1; the first one is kept$/],
    [8, /^a multi-turn line needs "questions": an array of strings$/],
  ];
  assert.deepEqual(
    r.problems.map((p) => p.line),
    want.map(([l]) => l),
  );
  r.problems.forEach((p, i) => assert.match(p.message, want[i]![1]));
  assert.deepEqual(r.accepted, [1, 6, 9]);
  assert.deepEqual(
    r.single.map((p) => [p.model, p.cdp_id, p.guideline_id, p.steps, p.parse_ok, p.simulated]),
    [['ext', 'c1', 'g1', ['a', 'b'], true, false]],
  );
  // With an outcome the dialogue concluded; without one it did not (SR counts it as no success).
  assert.deepEqual(
    r.multi.map((d) => [d.cdp_id, d.language, d.success, (d.turns as Row[]).length]),
    [
      ['c2', 'zh', true, 2],
      ['c1', 'en', false, 0],
    ],
  );
});

test("cdp import predictions copies the good lines to the store's imports/, records them there, and says what it skipped", async () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-import-'));
  try {
    const src = join(root, 'batch.jsonl');
    const store = join(root, 'data', 'store');
    writeFileSync(
      src,
      [JSON.stringify({ setting: 'single', model: 'ext', cdp_id: 'c1', steps: ['a'], outcome: 'x' }), 'oops', ''].join('\n'),
    );
    const r = await importPredictions(src, { root, warehouse: join(root, 'none.duckdb'), store }, { cases: KNOWN });
    assert.deepEqual([r.file, r.single, r.multi, r.models], ['data/store/imports/batch.jsonl', 1, 0, ['ext']]);
    assert.equal(
      readFileSync(join(store, 'imports/batch.jsonl'), 'utf8'),
      JSON.stringify({ setting: 'single', model: 'ext', cdp_id: 'c1', steps: ['a'], outcome: 'x' }) + '\n',
    );
    const record = JSON.parse(readFileSync(join(store, 'store.json'), 'utf8')) as {
      imports: { file: string; from: string; rows: number }[];
    };
    assert.deepEqual(
      record.imports.map((i) => [i.file, i.from, i.rows]),
      [['imports/batch.jsonl', src, 1]],
    );
    assert.equal(existsSync(join(root, 'data', 'imports')), false, 'nothing goes to the project-wide data/imports/ any more');
    assert.match(importSummary(r), /^skipped batch\.jsonl:2: not JSON/);
    await assert.rejects(
      importPredictions(src, { root, warehouse: join(root, 'none.duckdb'), store: root }),
      /no warehouse at .*run `cdp run` first so the cases exist/,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('imports are held to the test set: a non-test case is refused by line; the summary says how much of the test set a file covers', async () => {
  const known = new Map<string, Row>([
    ['c1', { cdp_id: 'c1', guideline_id: 'g1', language: 'en', split: 'test' }],
    ['c2', { cdp_id: 'c2', guideline_id: 'g1', language: 'en', split: 'test' }],
    ['c3', { cdp_id: 'c3', guideline_id: 'g2', language: 'en', split: 'test' }],
    ['n1', { cdp_id: 'n1', guideline_id: 'g9', language: 'en', split: 'non-test' }],
  ]);
  const line = (cdp_id: string, model = 'ext') => JSON.stringify({ setting: 'single', model, cdp_id, steps: ['a'], outcome: 'x' });
  const r = parseImportedPredictions('p.jsonl', [line('c1'), line('n1'), line('c2')].join('\n'), known);
  assert.deepEqual(
    r.problems.map((p) => [p.line, p.setting, p.model, p.cdp_id]),
    [[2, 'single', 'ext', 'n1']],
  );
  assert.match(
    r.problems[0]!.message,
    /^cdp_id "n1" is not a test case of this build \(its guideline is in the non-test split\); only test cases are ranked$/,
  );
  assert.deepEqual(r.lines.single, [1, 3]);

  const root = mkdtempSync(join(tmpdir(), 'cdp-import-held-'));
  try {
    const src = join(root, 'p.jsonl');
    writeFileSync(src, [line('c1'), line('n1'), line('c2'), line('c3', 'other')].join('\n') + '\n');
    // c2 is a test case the current build does not evaluate (--limit): counted, not refused.
    const res = await importPredictions(
      src,
      { root, warehouse: join(root, 'none.duckdb'), store: join(root, 'data', 'store') },
      { cases: known, evaluated: new Set(['c1', 'c3']) },
    );
    assert.deepEqual(
      [res.single, res.notEvaluated, res.testCases, res.covered],
      [3, 1, 2, { ext: { single: 1, multi: 0 }, other: { single: 1, multi: 0 } }],
    );
    assert.equal(
      importSummary(res),
      [
        'skipped p.jsonl:2: cdp_id "n1" is not a test case of this build (its guideline is in the non-test split); only test cases are ranked',
        '1 line(s) are for test cases the current build does not evaluate (left out by QC or --limit): not ranked',
        'ext: single-turn 1 of 2 test cases; each test case without a prediction counts as missing',
        'other: single-turn 1 of 2 test cases; each test case without a prediction counts as missing',
        'imported 3 single-turn and 0 multi-turn predictions of ext, other into data/store/imports/p.jsonl; `cdp run` judges and scores them',
        '',
      ].join('\n'),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('imported predictions are judged, scored and summarised under their model names', async () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-import-dag-'));
  try {
    const fx = buildFixture();
    const cdps = [...fx.htn, ...fx.insomnia];
    // The external model answers every case: single turn with the reference conditions (perfect
    // order), multi turn with the reference questions reversed.
    const lines = cdps.flatMap((c) => [
      { setting: 'single', model: 'vllm-batch', cdp_id: c.cdp_id, steps: c.steps.map((s) => s.condition), outcome: c.conclusion },
      {
        setting: 'multi',
        model: 'vllm-batch',
        cdp_id: c.cdp_id,
        questions: c.steps.map((s) => `Q: ${s.condition}`).reverse(),
        outcome: c.conclusion,
      },
    ]);
    mkdirSync(join(root, 'data/imports'), { recursive: true });
    writeFileSync(join(root, 'data/imports/README.md'), '# not predictions: skipped\n');
    writeFileSync(
      join(root, 'data/imports/vllm.jsonl'),
      [...lines.map((l) => JSON.stringify(l)), '{"setting": "single"}'].join('\n') + '\n',
    );
    const tables = {
      cdps: cdps.map(cdpRow),
      narratives: cdps.map((c) => ({ cdp_id: c.cdp_id, steps: [...c.steps.map((s) => `We check: ${s.condition}`), c.conclusion] })),
      predictions_single: [] as Row[],
      dialogues_multi: [] as Row[],
    };
    const f = (name: keyof typeof tables) => ({
      name,
      module: join(repo, 'stages/evaluate/testing', `${name}.fixture.ts`),
      params: { rows: tables[name] },
    });
    const m = (file: string) => join(repo, 'stages/evaluate', file);
    const judges = simulatedJudges();
    const config: DagConfig = {
      sources: { imported_predictions: files('data/imports/*.jsonl', 'data/imports/README.md') },
      stages: [
        f('predictions_single'),
        f('dialogues_multi'),
        f('cdps'),
        // Every case of the fixture is a test case of this run.
        { ...f('cdps'), name: 'test_cases' },
        f('narratives'),
        {
          name: 'predicted_pathways',
          module: m('predicted-pathways.stage.ts'),
          inputs: {
            predictions_single: 'predictions_single',
            dialogues_multi: 'dialogues_multi',
            cdps: 'cdps',
            narratives: 'narratives',
            test_cases: 'test_cases',
            imported_predictions: 'imported_predictions',
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
          params: { resamples: 500, seed: 42 },
        },
      ],
    };
    const dag = await resolveDag(config, root);
    const ws = workspaceFor(root);
    const client = createLlmClient({
      cacheDir: join(ws.store, 'llm'),
      roster: simulatedJudgeSpecs(),
      offlineHandlers: simulatedJudgeHandlers(),
      env: {},
    });
    let summary;
    try {
      summary = await runDag(dag, ws, { llm: client });
    } finally {
      await client.close();
    }
    assert.equal(summary.ok, true, JSON.stringify(summary.stages.filter((s) => s.error)));
    const rows = (stage: string) => stageRows(ws, stage);
    const pathways = rows('predicted_pathways').filter((p) => p.error == null);
    assert.equal(pathways.length, cdps.length * 2, 'one pathway per imported line');
    const bad = rows('predicted_pathways').filter((p) => p.error != null);
    assert.deepEqual(
      bad.map((p) => [p.failure_kind, p.error]),
      [['import', `imported predictions data/imports/vllm.jsonl:${lines.length + 1}: "model" must be a non-empty string`]],
      'the bad last line is a failure row naming the file and line',
    );
    assert.ok(pathways.every((p) => p.model === 'vllm-batch' && p.usable === true && p.simulated === false));
    const metrics = rows('pathway_metrics').filter((r) => r.error == null);
    assert.equal(metrics.length, cdps.length * 2 * judges.length);
    // Steps in the reference order: a perfect LNDS for every single-turn case and judge; reversed questions are not.
    assert.ok(metrics.filter((r) => r.setting === 'single').every((r) => r.lnds_pcs === 1));
    assert.ok(metrics.filter((r) => r.setting === 'multi' && Number(r.m) > 1).every((r) => Number(r.lnds_pcs) < 1));
    const ms = rows('model_summary');
    assert.deepEqual([...new Set(ms.map((r) => r.model))], ['vllm-batch']);
    const sr = ms.find((r) => r.metric === 'sr')!;
    assert.deepEqual([sr.mean, sr.n], [1, cdps.length]);
    const acc = ms.find((r) => r.setting === 'single' && r.metric === 'acc' && r.judge === 'simulated-token-f1')!;
    assert.equal(acc.mean, 1, 'the imported outcome is the reference conclusion');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
