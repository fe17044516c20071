/**
 * Failures by kind on a hand-made set (issue 20 items 4–6), through the real stages test_cases,
 * predicted_pathways (with an imported file), model_summary and the leaderboard's paired
 * differences; every value below is computed by hand. One judge `j`, the multi-turn setting,
 * six cases of two guidelines (g1: c1–c3, g2: c4–c6) and a non-test case n1.
 *
 *   case  A (doctor)                         B (doctor)                   X (imported)
 *   c1    success        dtw .2  acc ✓        success     dtw .1  acc ✓    questions, outcome  dtw .3 ✓
 *   c2    success        dtw .4  (judge ✗)    turn cap    dtw .5  acc ✗    questions, outcome  dtw .7 ✓
 *   c3    server failure (HTTP 500)           success     dtw .3  acc ✓    missing
 *   c4    unreadable turn dtw .6 acc ✓        success     dtw .2  acc ✓    missing
 *   c5    patient slip (unreadable twice)     success     dtw 0   acc ✓    missing
 *   c6    — the vignette failed: no test case for anyone (X's line for c6 is skipped) —
 *   n1    — a non-test case: X's line for it is a failure row naming the file and line —
 * (✓/✗: the outcome judge's `correct`; "judge ✗": the outcome judge failed on A's c2: unscored.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Row } from '../../pipeline/stage.ts';
import testCases from '../tasks/test-cases.stage.ts';
import predictedPathways from './predicted-pathways.stage.ts';
import modelSummary from './model-summary.stage.ts';
import { runTable } from './testing/stage-harness.ts';
import qcSummary from '../construct/qc-summary.stage.ts';
import { pairedDifference } from '../stats/paired-bootstrap.ts';
import { policyValues, valuesByCase } from '../report/policy-values.ts';
import { parsePolicyLabel } from './failure-policy.ts';
import { leaderboard, leaderboardTable } from '../report/leaderboard.ts';
import { table1 } from '../report/paper-tables.ts';
import { cellKey, summaryRows } from '../report/summary-rows.ts';
import { realJudge } from '../roster/testing/specs.ts';

const G: Record<string, string> = { c1: 'g1', c2: 'g1', c3: 'g1', c4: 'g2', c5: 'g2', c6: 'g2', n1: 'g9' };
const IDS = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
const cdps: Row[] = [
  ...IDS.map((cdp_id) => ({ cdp_id, guideline_id: G[cdp_id], language: 'en', split: 'test', length: 2, steps: [{}, {}] })),
  { cdp_id: 'n1', guideline_id: 'g9', language: 'en', split: 'non-test', length: 2, steps: [{}, {}] },
].map((c) => ({ ...c, conclusion: 'Do X.', reference_questions: ['Is A?', 'Is B?'] }));
const vignettes = [...IDS, 'n1'].map((cdp_id) =>
  cdp_id === 'c6' ? { cdp_id, error: 'writer: HTTP 503 after 5 attempts' } : { cdp_id, vignette: `The case ${cdp_id}.` },
);
const narratives = [...IDS, 'n1'].map((cdp_id) => ({ cdp_id, steps: ['A.', 'B.', 'So X.'] }));
const qc = [...IDS, 'n1'].map((cdp_id) =>
  cdp_id === 'c6'
    ? { cdp_id, error: 'no vignette to check' }
    : { cdp_id, cdp_ok: true, vignette_ok: true, narrative_ok: true, problems: [] },
);

const dialogue = (model: string, cdp_id: string, over: object = {}): Row => ({
  model,
  cdp_id,
  guideline_id: G[cdp_id],
  language: 'en',
  questions: ['Is A?'],
  outcome: 'X',
  success: true,
  success_strict: true,
  end_reason: 'conclusion',
  simulated: false,
  ...over,
});
const dialogues_multi = [
  dialogue('A', 'c1'),
  dialogue('A', 'c2'),
  dialogue('A', 'c3', { success: null, end_reason: null, failure_kind: 'server', error: 'doctor A, turn 1: HTTP 500 after 5 attempts' }),
  dialogue('A', 'c4', {
    success: false,
    success_strict: false,
    end_reason: 'invalid-turn: two questions in one turn',
    failure_kind: 'answer',
  }),
  dialogue('A', 'c5', {
    success: null,
    success_strict: null,
    patient_failed: true,
    end_reason: 'patient-failure: neither Yes nor No',
    failure_kind: 'patient',
    error: 'patient P, turn 1: answer unreadable after a re-ask: neither Yes nor No',
  }),
  dialogue('B', 'c1'),
  dialogue('B', 'c2', { success: false, success_strict: false, end_reason: 'turn-cap' }),
  dialogue('B', 'c3'),
  dialogue('B', 'c4'),
  dialogue('B', 'c5'),
];
const importLines = [
  { setting: 'multi', model: 'X', cdp_id: 'c1', questions: ['Is A?'], outcome: 'X' },
  { setting: 'multi', model: 'X', cdp_id: 'n1', questions: ['Is A?'], outcome: 'X' },
  { setting: 'multi', model: 'X', cdp_id: 'c2', questions: ['Is B?'], outcome: 'X' },
  { setting: 'multi', model: 'X', cdp_id: 'c6', questions: ['Is B?'], outcome: 'X' },
].map((l) => JSON.stringify(l));

const DTW: Record<string, Record<string, number | null>> = {
  A: { c1: 0.2, c2: 0.4, c3: null, c4: 0.6, c5: null },
  B: { c1: 0.1, c2: 0.5, c3: 0.3, c4: 0.2, c5: 0 },
  X: { c1: 0.3, c2: 0.7, c3: 1, c4: 1, c5: 1 },
};
const CORRECT: Record<string, Record<string, boolean | null>> = {
  A: { c1: true, c2: null, c3: null, c4: true, c5: null },
  B: { c1: true, c2: false, c3: true, c4: true, c5: true },
  X: { c1: true, c2: true, c3: false, c4: false, c5: false },
};
const unit = (model: string, cdp_id: string) => ({
  setting: 'multi',
  model,
  cdp_id,
  guideline_id: G[cdp_id],
  simulated: false,
  judge: 'j',
});
const pathway_metrics = Object.entries(DTW).flatMap(([model, cases]) =>
  Object.entries(cases).map(([id, v]) =>
    v === null ? { ...unit(model, id), error: 'pathway not judged' } : { ...unit(model, id), dtw_pcc: v, ot_pcc: v, lnds_pcs: 1 - v },
  ),
);
const outcome_scores = Object.entries(CORRECT).flatMap(([model, cases]) =>
  Object.entries(cases).map(([id, c]) =>
    c === null ? { ...unit(model, id), error: 'judge j: no score' } : { ...unit(model, id), correct: c },
  ),
);

/** The real stages from construction to the summary, on the hand-made rows. */
async function build(params: object) {
  const root = mkdtempSync(join(tmpdir(), 'cdp-failure-kinds-'));
  try {
    mkdirSync(join(root, 'data', 'imports'), { recursive: true });
    writeFileSync(join(root, 'data', 'imports', 'x.jsonl'), importLines.join('\n') + '\n');
    const logs: string[] = [];
    const test_cases = await runTable(testCases, { cdps, qc, qc_inspection: [], vignettes, narratives }, { limit: null }, logs);
    const qc_summary = await runTable(qcSummary, { qc, qc_inspection: [], cdps, vignettes, narratives }, {});
    const predicted_pathways = await runTable(
      predictedPathways,
      { predictions_single: [], dialogues_multi, cdps, narratives, test_cases, imported_predictions: [{ path: 'data/imports/x.jsonl' }] },
      {},
      logs,
      root,
    );
    const inputs = { pathway_metrics, outcome_scores, predicted_pathways };
    const rows = await runTable(modelSummary, inputs, { resamples: 200, ...params });
    return { test_cases, qc_summary, predicted_pathways, rows, inputs, logs };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const round = (x: unknown) => (typeof x === 'number' ? Math.round(x * 1e9) / 1e9 : x);
/** [mean, n, answer, server, patient, missing, unscored, incomplete] of a cell. */
function cellOf(rows: Row[], metric: string, model: string) {
  const r = rows.filter((x) => x.metric === metric && x.model === model);
  assert.equal(r.length, 1, `one ${metric} cell for ${model}`);
  const c = r[0]!;
  return [round(c.mean), c.n, c.answer_failures, c.server_failures, c.patient_failures, c.missing_cases, c.unscored, c.incomplete];
}

test('construction failures leave the test set, an import is held to it: the cases every kind is counted over', async () => {
  const b = await build({});
  assert.deepEqual(
    b.test_cases.map((c) => c.cdp_id),
    ['c1', 'c2', 'c3', 'c4', 'c5'],
    'c6 (no usable vignette) is no test case',
  );
  assert.ok(b.logs.some((l) => /construction failed for 1 of 6 test cases.*c6 \(no usable vignette: writer: HTTP 503/.test(l)));
  const qcm = Object.fromEntries(b.qc_summary.map((r) => [r.measure, r.value]));
  assert.equal(qcm['test cases whose construction failed (no usable vignette or narrative)'], 1);
  assert.equal(qcm['test cases excluded from the task settings'], 1);
  // X: its two test-case lines, 'missing' for the other three test cases, its c6 line skipped, its n1 line a failure row.
  const x = b.predicted_pathways.filter((p) => p.model === 'X' && p.error == null);
  assert.deepEqual(
    x.map((p) => [p.cdp_id, p.failure, p.usable]),
    [
      ['c1', null, true],
      ['c2', null, true],
      ['c3', 'missing', true],
      ['c4', 'missing', true],
      ['c5', 'missing', true],
    ],
  );
  const foreign = b.predicted_pathways.filter((p) => p.error != null);
  assert.deepEqual(
    foreign.map((p) => [p.model, p.cdp_id, p.failure_kind]),
    [['X', 'n1', 'import']],
  );
  assert.match(String(foreign[0]!.error), /^imported predictions data\/imports\/x\.jsonl:2: cdp_id "n1" is not a test case of this build/);
  assert.ok(b.logs.some((l) => /x\.jsonl: 1 line\(s\) for test cases this run does not evaluate/.test(l)));
  assert.deepEqual(
    b.predicted_pathways.filter((p) => p.model === 'A').map((p) => [p.cdp_id, p.failure]),
    [
      ['c1', null],
      ['c2', null],
      ['c3', 'server'],
      ['c4', 'answer'],
      ['c5', 'patient'],
    ],
  );
});

test("the default policy ('worst'): answer and missing score worst, server and patient leave the mean and make it incomplete", async () => {
  const { rows } = await build({});
  // A: dtw (.2 + .4 + 1) / 3 over c1, c2, c4 (the unreadable c4 scores 1 whatever it was judged); c3, c5 out.
  assert.deepEqual(cellOf(rows, 'dtw_pcc', 'A'), [0.533333333, 3, 1, 1, 1, 0, 0, true]);
  // acc: c1 1, c4 0 (an answer failure is wrong); c2 unscored (the judge failed), c3, c5 out.
  assert.deepEqual(cellOf(rows, 'acc', 'A'), [0.5, 2, 1, 1, 1, 0, 1, true]);
  // SR: c1 1, c2 1, c4 0.
  assert.deepEqual(cellOf(rows, 'sr', 'A'), [0.666666667, 3, 1, 1, 1, 0, 0, true]);
  assert.deepEqual(cellOf(rows, 'dtw_pcc', 'B'), [0.22, 5, 0, 0, 0, 0, 0, false]);
  assert.deepEqual(cellOf(rows, 'sr', 'B'), [0.8, 5, 0, 0, 0, 0, 0, false]);
  // X: (.3 + .7 + 1 + 1 + 1) / 5 — every test case, the three missing ones worst; complete.
  assert.deepEqual(cellOf(rows, 'dtw_pcc', 'X'), [0.8, 5, 0, 0, 0, 3, 0, false]);
  assert.deepEqual(cellOf(rows, 'sr', 'X'), [0.4, 5, 0, 0, 0, 3, 0, false]);
  const a = rows.find((r) => r.metric === 'dtw_pcc' && r.model === 'A')!;
  assert.deepEqual([a.cases, a.failures, a.excluded, a.policy], [5, 3, 2, 'worst'], 'n + excluded = the 5 test cases');
  assert.equal(rows.filter((r) => r.cdp_id === 'n1' || r.model === undefined).length, 0);
});

test("'exclude': answer failures and missing cases leave the mean too", async () => {
  const { rows } = await build({ failurePolicy: 'exclude' });
  assert.deepEqual(cellOf(rows, 'dtw_pcc', 'A'), [0.3, 2, 1, 1, 1, 0, 0, true]);
  assert.deepEqual(cellOf(rows, 'sr', 'A'), [1, 2, 1, 1, 1, 0, 0, true]);
  assert.deepEqual(cellOf(rows, 'dtw_pcc', 'B'), [0.22, 5, 0, 0, 0, 0, 0, false], 'no failure: the policy changes nothing');
  assert.deepEqual(cellOf(rows, 'dtw_pcc', 'X'), [0.5, 2, 0, 0, 0, 3, 0, false]);
});

test('commonCases: worst+common keeps the answer failure (scored worst), exclude+common drops it — no longer the same numbers', async () => {
  // worst: A admits c1, c2, c4; B and X all five → every cell over {c1, c2, c4}.
  const worst = (await build({ commonCases: true })).rows;
  assert.deepEqual(cellOf(worst, 'dtw_pcc', 'A').slice(0, 2), [0.533333333, 3]);
  assert.deepEqual(cellOf(worst, 'dtw_pcc', 'B').slice(0, 2), [0.266666667, 3]);
  assert.deepEqual(cellOf(worst, 'dtw_pcc', 'X').slice(0, 2), [0.666666667, 3]);
  // exclude: A and X admit only c1, c2 → every cell over {c1, c2}.
  const excl = (await build({ commonCases: true, failurePolicy: 'exclude' })).rows;
  assert.deepEqual(cellOf(excl, 'dtw_pcc', 'A').slice(0, 2), [0.3, 2]);
  assert.deepEqual(cellOf(excl, 'dtw_pcc', 'B').slice(0, 2), [0.3, 2]);
  assert.deepEqual(cellOf(excl, 'dtw_pcc', 'X').slice(0, 2), [0.5, 2]);
  assert.deepEqual(
    [worst.find((r) => r.model === 'A')!.policy, excl.find((r) => r.model === 'A')!.policy],
    ['worst+common', 'exclude+common'],
  );
});

test('paired differences are over the cases and values the means beside them use, under each policy', async () => {
  const diffOf = async (params: object, x: string, y: string) => {
    const b = await build(params);
    const label = String(b.rows[0]!.policy);
    const v = policyValues(b.inputs, parsePolicyLabel(label), 'j');
    const of = (m: string) => valuesByCase(v.cells.get(cellKey('multi', 'j', 'dtw_pcc', m)))!;
    const d = pairedDifference(of(x), of(y), { resamples: 200, guidelineOf: v.guidelineOf })!;
    return [round(d.diff), d.n, d.guidelines];
  };
  // worst: A − B over {c1, c2, c4}: (.1 − .1 + .8) / 3; B − X over all five: .22 − .8, the means' difference.
  assert.deepEqual(await diffOf({}, 'A', 'B'), [0.266666667, 3, 2]);
  assert.deepEqual(await diffOf({}, 'B', 'X'), [-0.58, 5, 2]);
  // exclude: A − B over {c1, c2}: (.1 − .1) / 2; B − X over {c1, c2}: (−.2 − .2) / 2.
  assert.deepEqual(await diffOf({ failurePolicy: 'exclude' }, 'A', 'B'), [0, 2, 1]);
  assert.deepEqual(await diffOf({ failurePolicy: 'exclude' }, 'B', 'X'), [-0.2, 2, 1]);
  // With common cases the difference is exactly the difference of the two means beside it.
  assert.deepEqual(await diffOf({ commonCases: true }, 'B', 'X'), [round(0.266666667 - 0.666666667), 3, 2]);
});

test('the board and Table 1: counts by kind, the incomplete model apart with what to retry, the import over n of N test cases', async () => {
  const { rows, inputs } = await build({});
  const summary = summaryRows(rows);
  const v = policyValues(inputs, parsePolicyLabel('worst'), 'j');
  const entries = leaderboard(summary, v, [realJudge('j')], { resamples: 200 });
  assert.deepEqual(
    entries.map((e) => [e.model, e.group, e.rank, e.next?.model ?? null]),
    [
      ['B', 'real', 1, 'X'],
      ['X', 'real', 2, null],
      ['A', 'real-incomplete', 1, null],
    ],
  );
  assert.deepEqual([round(entries[0]!.next!.pcc!.diff), entries[0]!.next!.pcc!.n], [-0.58, 5]);
  const t = leaderboardTable(entries);
  const byModel = Object.fromEntries(t.rows.map((r) => [r[2]!.split(' ')[0], r]));
  assert.equal(byModel.A![1], 'incomplete 1');
  assert.equal(byModel.A![2], 'A (incomplete: 1 server failure, 1 patient failure, 1 unscored case — retry with `cdp run --retry-failed`)');
  assert.equal(byModel.A![4], 'n=3 · answer 1 · server 1 · patient 1');
  assert.equal(byModel.A![6], 'n=2 · answer 1 · server 1 · patient 1 · unscored 1');
  assert.equal(byModel.X![2], 'X (covers 2 of 5 test cases)');
  assert.equal(byModel.X![4], 'n=5 · missing 3');
  const t1 = table1(summary, [realJudge('j')]);
  const a1 = t1.rows.find((r) => r[0]!.startsWith('A '))!;
  assert.match(a1[0]!, /^A \(incomplete: 1 server failure, 1 patient failure, 1 unscored case — retry with `cdp run --retry-failed`\)$/);
  assert.match(a1[3]!, / n=3 · answer 1 · server 1 · patient 1$/);
  assert.match(t1.caption, /Failure policy worst: answer failures .* score the worst value; server and patient failures/);
  assert.match(t1.caption, /1 model is incomplete/);
});

const NO_INPUTS = { pathway_metrics: [], outcome_scores: [], predicted_pathways: [] };

test('a bad policy param or failure value is an error that says what to use', async () => {
  await assert.rejects(
    runTable(modelSummary, NO_INPUTS, { failurePolicy: 'drop' as never }),
    /failurePolicy is "drop"; use one of 'worst', 'exclude'$/,
  );
  await assert.rejects(runTable(modelSummary, NO_INPUTS, { commonCases: 'yes' as never }), /commonCases is "yes"; use true or false/);
  const odd = { ...unit('C', 'c1'), usable: false, failure: 'failed-call' };
  await assert.rejects(
    runTable(modelSummary, { ...NO_INPUTS, predicted_pathways: [odd] }, {}),
    /row c1 \(C\) has failure "failed-call"; expected one of answer, server, patient, missing or null; rerun predicted_pathways/,
  );
});
