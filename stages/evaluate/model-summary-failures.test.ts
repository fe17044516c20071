/**
 * model_summary's failure accounting on a hand-made set (issue 11 item 3): two doctors, five
 * multi-turn cases over two guidelines, one judge, every value below computed by hand.
 *
 *        case  A (doctor)                               B (doctor)
 *        c1    success, strict    dtw .2 ot .3 lnds .8 ✓  success, strict   dtw .1 ot .2 lnds .9 ✓
 *        c2    success, lenient   dtw .4 ot .5 lnds .6 ✗  turn cap          dtw .5 ot .6 lnds .4 ✗
 *        c3    failed call        (failure rows)          success, strict   dtw .3 ot .4 lnds .7 ✓
 *        c4    unreadable turn    dtw .6 ot .7 lnds .5 ✗  success, strict   (step judge failed)   ✓
 *        c5    patient failure    (failure rows)          success, strict   dtw 0  ot .1 lnds 1  ✓
 * (✓/✗: the outcome judge's `correct`; c1–c3 are guideline g1, c4–c5 g2.)
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Row } from '../../pipeline/stage.ts';
import predictedPathways from './predicted-pathways.stage.ts';
import modelSummary from './model-summary.stage.ts';
import { runTable } from './test-support.ts';
import { percentileBootstrap } from '../stats/bootstrap.ts';

const guidelineOf = (c: string) => (c === 'c4' || c === 'c5' ? 'g2' : 'g1');
const cdps = ['c1', 'c2', 'c3', 'c4', 'c5'].map((cdp_id) => ({
  cdp_id,
  guideline_id: guidelineOf(cdp_id),
  language: 'en',
  steps: [{}, {}],
  conclusion: 'Do X.',
  reference_questions: ['Is A?', 'Is B?'],
}));
const dialogue = (model: string, cdp_id: string, over: object) => ({
  model,
  cdp_id,
  guideline_id: guidelineOf(cdp_id),
  language: 'en',
  questions: ['Is A?'],
  outcome: 'X',
  success: true,
  end_reason: 'conclusion',
  simulated: false,
  error: null,
  ...over,
});
const dialogues_multi = [
  dialogue('A', 'c1', { success_strict: true }),
  dialogue('A', 'c2', { success_strict: false }),
  dialogue('A', 'c3', { success: null, end_reason: null, error: 'doctor A, turn 1: HTTP 500 after 3 retries' }),
  dialogue('A', 'c4', { success: false, success_strict: false, end_reason: 'invalid-turn: two questions in one turn' }),
  dialogue('A', 'c5', {
    success: null,
    success_strict: null,
    patient_failed: true,
    end_reason: 'patient-failure: unreadable after a re-ask',
  }),
  dialogue('B', 'c1', { success_strict: true }),
  dialogue('B', 'c2', { success: false, success_strict: false, end_reason: 'turn-cap' }),
  dialogue('B', 'c3', {}),
  dialogue('B', 'c4', {}),
  dialogue('B', 'c5', {}),
];
const unit = (model: string, cdp_id: string) => ({
  setting: 'multi',
  model,
  cdp_id,
  guideline_id: guidelineOf(cdp_id),
  language: 'en',
  simulated: false,
  judge: 'j',
});
const metrics = (model: string, cdp_id: string, dtw_pcc: number, ot_pcc: number, lnds_pcs: number) => ({
  ...unit(model, cdp_id),
  dtw_pcc,
  ot_pcc,
  lnds_pcs,
});
// Failure rows as the runner writes them: the key columns and the reason.
const failed = (model: string, cdp_id: string, error: string) => ({ ...unit(model, cdp_id), error });
const pathway_metrics = [
  metrics('A', 'c1', 0.2, 0.3, 0.8),
  metrics('A', 'c2', 0.4, 0.5, 0.6),
  failed('A', 'c3', 'pathway not judged'),
  metrics('A', 'c4', 0.6, 0.7, 0.5),
  failed('A', 'c5', 'pathway not judged'),
  metrics('B', 'c1', 0.1, 0.2, 0.9),
  metrics('B', 'c2', 0.5, 0.6, 0.4),
  metrics('B', 'c3', 0.3, 0.4, 0.7),
  failed('B', 'c4', 'judge j: 3 of 5 runs failed'),
  metrics('B', 'c5', 0, 0.1, 1),
];
const correct = (model: string, cdp_id: string, c: boolean) => ({ ...unit(model, cdp_id), correct: c });
const outcome_scores = [
  correct('A', 'c1', true),
  correct('A', 'c2', false),
  failed('A', 'c3', 'pathway not judged'),
  correct('A', 'c4', false),
  failed('A', 'c5', 'pathway not judged'),
  correct('B', 'c1', true),
  correct('B', 'c2', false),
  correct('B', 'c3', true),
  correct('B', 'c4', true),
  correct('B', 'c5', true),
];

const NO_INPUTS = { pathway_metrics: [], outcome_scores: [], predicted_pathways: [] };

async function summary(params: object): Promise<(metric: string, model: string) => Row> {
  const predicted_pathways = await runTable(predictedPathways, { predictions_single: [], dialogues_multi, cdps, narratives: [] }, {});
  const rows = await runTable(modelSummary, { pathway_metrics, outcome_scores, predicted_pathways }, { resamples: 200, ...params });
  return (metric, model) => {
    const r = rows.filter((x) => x.metric === metric && x.model === model);
    assert.equal(r.length, 1, `one ${metric} cell for ${model}`);
    return r[0]!;
  };
}

/** [mean, n, failures, excluded, patient_failures] of a cell, the mean rounded off float noise. */
const counts = (r: Row) => [Math.round((r.mean as number) * 1e9) / 1e9, r.n, r.failures, r.excluded, r.patient_failures];

describe('model_summary: failures, n and SR over every test case', () => {
  test("'worst' (default): failed calls and unreadable answers score the worst value; the patient failure leaves every mean", async () => {
    const cell = await summary({});
    // A: dtw (.2 + .4 + 1 + 1) / 4, ot (.3 + .5 + 1 + 1) / 4, lnds (.8 + .6 + 0 + 0) / 4, acc (1 + 0 + 0 + 0) / 4.
    assert.deepEqual(counts(cell('dtw_pcc', 'A')), [0.65, 4, 2, 1, 1]);
    assert.deepEqual(counts(cell('ot_pcc', 'A')), [0.7, 4, 2, 1, 1]);
    assert.deepEqual(counts(cell('lnds_pcs', 'A')), [0.35, 4, 2, 1, 1]);
    assert.deepEqual(counts(cell('acc', 'A')), [0.25, 4, 2, 1, 1], 'the unreadable c4 is 0 whatever the judge said');
    // SR over every test case but the patient's: lenient c1, c2 of 4; strict only c1.
    assert.deepEqual(counts(cell('sr', 'A')), [0.5, 4, 2, 1, 1]);
    assert.deepEqual(counts(cell('sr_strict', 'A')), [0.25, 4, 2, 1, 1]);
    // B: the failed step judge on c4 is no failure of B's, so it is excluded, never scored worst.
    assert.deepEqual(counts(cell('dtw_pcc', 'B')), [0.225, 4, 0, 1, 0]);
    assert.deepEqual(counts(cell('lnds_pcs', 'B')), [0.75, 4, 0, 1, 0]);
    assert.deepEqual(counts(cell('acc', 'B')), [0.8, 5, 0, 0, 0]);
    assert.deepEqual(counts(cell('sr', 'B')), [0.8, 5, 0, 0, 0]);
    assert.deepEqual(counts(cell('sr_strict', 'B')), [0.8, 5, 0, 0, 0]);
    assert.equal(cell('sr', 'A').judge, null);
    assert.deepEqual([cell('dtw_pcc', 'A').policy, cell('dtw_pcc', 'A').clusters], ['worst', 2]);
    const ci = percentileBootstrap(Float64Array.of(0.2, 0.4, 1, 1), { resamples: 200, seed: 42 });
    assert.deepEqual(
      [cell('dtw_pcc', 'A').ci_low, cell('dtw_pcc', 'A').ci_high],
      [ci.ciLow, ci.ciHigh],
      'the CI is over the scored-worst values too',
    );
  });

  test("'exclude': both kinds of failure leave the mean and are counted in excluded", async () => {
    const cell = await summary({ failurePolicy: 'exclude' });
    assert.deepEqual(counts(cell('dtw_pcc', 'A')), [0.3, 2, 2, 3, 1]);
    assert.deepEqual(counts(cell('ot_pcc', 'A')), [0.4, 2, 2, 3, 1]);
    assert.deepEqual(counts(cell('lnds_pcs', 'A')), [0.7, 2, 2, 3, 1]);
    assert.deepEqual(counts(cell('acc', 'A')), [0.5, 2, 2, 3, 1]);
    assert.deepEqual(counts(cell('sr', 'A')), [1, 2, 2, 3, 1]);
    assert.deepEqual(counts(cell('sr_strict', 'A')), [0.5, 2, 2, 3, 1]);
    assert.deepEqual(counts(cell('dtw_pcc', 'B')), [0.225, 4, 0, 1, 0], 'a model without failures is not changed by the policy');
    assert.deepEqual([cell('dtw_pcc', 'A').policy, cell('dtw_pcc', 'A').clusters], ['exclude', 1], 'only g1 cases are left');
  });

  test('commonCases: every model of a (setting, judge, metric) is compared on the cases all of them completed', async () => {
    const cell = await summary({ commonCases: true });
    // A completed c1 and c2 only (c3 failed, c4 unreadable, c5 the patient's): every cell is over {c1, c2}.
    assert.deepEqual(counts(cell('dtw_pcc', 'A')), [0.3, 2, 2, 3, 1]);
    assert.deepEqual(counts(cell('dtw_pcc', 'B')), [0.3, 2, 0, 3, 0]);
    assert.deepEqual(counts(cell('acc', 'B')), [0.5, 2, 0, 3, 0]);
    assert.deepEqual(counts(cell('sr', 'A')), [1, 2, 2, 3, 1]);
    assert.deepEqual(counts(cell('sr', 'B')), [0.5, 2, 0, 3, 0]);
    assert.deepEqual(counts(cell('sr_strict', 'A')), [0.5, 2, 2, 3, 1]);
    assert.equal(cell('sr', 'B').policy, 'worst+common');
    const excluded = await summary({ commonCases: true, failurePolicy: 'exclude' });
    for (const metric of ['dtw_pcc', 'ot_pcc', 'lnds_pcs', 'acc', 'sr', 'sr_strict']) {
      for (const model of ['A', 'B']) {
        assert.deepEqual(counts(excluded(metric, model)), counts(cell(metric, model)), `${metric} ${model}: no failure is left to score`);
      }
    }
  });

  test('a cell with nothing to average keeps its row: n 0, null mean and CIs, its failures counted', async () => {
    const only = { ...unit('C', 'c1'), usable: false, failure: 'failed-call', success: true };
    const inputs = { pathway_metrics: [], predicted_pathways: [only], outcome_scores: [failed('C', 'c1', 'pathway not judged')] };
    const rows = await runTable(modelSummary, inputs, { failurePolicy: 'exclude', resamples: 200 });
    assert.deepEqual(
      rows.map((r) => [r.metric, r.mean, r.ci_low, r.cluster_ci_low, r.n, r.failures, r.excluded, r.clusters]),
      [
        ['sr', null, null, null, 0, 1, 1, 0],
        ['sr_strict', null, null, null, 0, 1, 1, 0],
        ['acc', null, null, null, 0, 1, 1, 0],
      ],
    );
  });

  test('a bad policy param or failure value is an error that says what to use', async () => {
    await assert.rejects(
      runTable(modelSummary, NO_INPUTS, { failurePolicy: 'drop' as never }),
      /failurePolicy is "drop"; use one of 'worst', 'exclude'$/,
    );
    await assert.rejects(runTable(modelSummary, NO_INPUTS, { commonCases: 'yes' as never }), /commonCases is "yes"; use true or false/);
    const odd = { ...unit('C', 'c1'), usable: false, failure: 'timeout' };
    await assert.rejects(
      runTable(modelSummary, { ...NO_INPUTS, predicted_pathways: [odd] }, {}),
      /row c1 \(C\) has failure "timeout"; expected one of failed-call, unreadable, patient or null; rerun predicted_pathways/,
    );
  });
});
