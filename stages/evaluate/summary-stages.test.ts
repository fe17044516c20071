import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { otPcc, OT_DEFAULTS } from '../metrics/ot.ts';
import { clusterBootstrap, percentileBootstrap } from '../stats/bootstrap.ts';
import pathwayMetrics from './pathway-metrics.stage.ts';
import modelSummary from './model-summary.stage.ts';
import correlations from './correlations.stage.ts';
import { runRows, runTable } from './testing/stage-harness.ts';
import { realJudge } from '../roster/testing/specs.ts';

const scoreRow = (C: number[][], over: object = {}) => ({
  setting: 'single',
  model: 'm',
  cdp_id: 'c1',
  guideline_id: 'g1',
  language: 'en',
  simulated: true,
  judge: 'simulated-token-f1',
  judge_kind: 'similarity',
  C,
  m: C.length,
  n: C[0]!.length,
  ...over,
});

describe('pathway_metrics', () => {
  test('a perfect diagonal: DTW-PCC 0 on the diagonal path, LNDS-PCS 1, OT with the similarity judge’s β = 0.1', async () => {
    const [r] = await runRows(
      pathwayMetrics,
      [
        scoreRow([
          [1, 0],
          [0, 1],
        ]),
      ],
      {},
    );
    assert.deepEqual(
      [r!.dtw_pcc, r!.lnds_pcs, r!.dtw_path, r!.gamma, r!.beta, r!.gamma_calibrated],
      [
        0,
        1,
        [
          [0, 0],
          [1, 1],
        ],
        0.2,
        0.1,
        false,
      ],
    );
    const ot = otPcc(Float64Array.of(1, 0, 0, 1), 2, 2, { ...OT_DEFAULTS, beta: 0.1 });
    assert.equal(r!.ot_pcc, ot.pcc);
    const [llm] = await runRows(
      pathwayMetrics,
      [
        scoreRow(
          [
            [1, 0],
            [0, 1],
          ],
          { judge: 'gpt-5.4-mini', judge_kind: 'llm' },
        ),
      ],
      {},
    );
    assert.equal(llm!.ot_pcc, otPcc(Float64Array.of(1, 0, 0, 1), 2, 2, { ...OT_DEFAULTS, beta: 0.2 }).pcc);
    assert.notEqual(llm!.ot_pcc, r!.ot_pcc, 'β differs by judge kind');
  });

  test('γ is the judge’s: C = [[0.5, 0.5]] is matched at γ 0.2 (similarity) but not at γ 0.7 (GPT-5.4 Mini)', async () => {
    const rows = await runRows(
      pathwayMetrics,
      [scoreRow([[0.5, 0.5]]), scoreRow([[0.5, 0.5]], { judge: 'gpt-5.4-mini', judge_kind: 'llm' })],
      {},
    );
    // DTW: the path must reach (0,1): cells (0,0),(0,1), cost 0.5 + 0.5 over K = 2.
    assert.deepEqual(
      rows.map((r) => [r.dtw_pcc, r.lnds_pcs, r.gamma, r.gamma_calibrated]),
      [
        [0.5, 1, 0.2, false],
        [0.5, 0, 0.7, true],
      ],
    );
  });

  test('an empty prediction (m empty rows) gets the worst values', async () => {
    const [r] = await runRows(pathwayMetrics, [{ ...scoreRow([[], []]), n: 0 }], {});
    assert.deepEqual([r!.dtw_pcc, r!.ot_pcc, r!.lnds_pcs, r!.dtw_path], [1, 1, 0, []]);
  });
});

describe('model_summary', () => {
  test('identical values give a zero-width CI; a chain from step scores through metrics', async () => {
    const scores = ['c1', 'c2', 'c3'].map((cdp_id, k) =>
      scoreRow(
        [
          [1, 0],
          [0, 1],
        ],
        { cdp_id, guideline_id: `g${k % 2}` },
      ),
    );
    const metrics = await runRows(pathwayMetrics, scores, {});
    const rows = await runTable(
      modelSummary,
      { pathway_metrics: [...metrics, { ...metrics[0], cdp_id: 'c9', error: 'judge failed' }], outcome_scores: [], predicted_pathways: [] },
      { resamples: 1000 },
    );
    assert.deepEqual(
      rows.map((r) => r.metric),
      ['dtw_pcc', 'ot_pcc', 'lnds_pcs'],
    );
    const dtw = rows[0]!;
    assert.deepEqual(
      [
        dtw.setting,
        dtw.judge,
        dtw.model,
        dtw.simulated,
        dtw.mean,
        dtw.ci_low,
        dtw.ci_high,
        dtw.n,
        dtw.cluster_ci_low,
        dtw.cluster_ci_high,
        dtw.clusters,
      ],
      ['single', 'simulated-token-f1', 'm', true, 0, 0, 0, 3, 0, 0, 2],
    );
    assert.equal(rows[2]!.mean, 1);
    assert.deepEqual(
      [dtw.failures, dtw.excluded, dtw.patient_failures, dtw.policy],
      [0, 1, 0, 'worst'],
      'the judge failure is excluded, not the model’s',
    );
    const one = await runTable(
      modelSummary,
      { pathway_metrics: metrics.map((r) => ({ ...r, guideline_id: 'g0' })), outcome_scores: [], predicted_pathways: [] },
      { resamples: 1000 },
    );
    assert.deepEqual(
      [one[0]!.clusters, one[0]!.cluster_ci_low, one[0]!.cluster_ci_high, one[0]!.ci_low],
      [1, null, null, 0],
      'one guideline: no cluster CI',
    );
    assert.equal(rows[2]!.ci_low, 1);
  });

  test('accuracy and success rate: means, and the CIs of the paper’s bootstrap (10,000 resamples, seed 42)', async () => {
    const unit = (cdp_id: string, guideline_id: string, over: object) => ({
      setting: 'multi',
      model: 'm',
      cdp_id,
      guideline_id,
      simulated: false,
      judge: 'j',
      ...over,
    });
    const outcome_scores = [
      unit('c1', 'g1', { correct: true }),
      unit('c2', 'g1', { correct: false }),
      unit('c3', 'g2', { correct: true }),
      unit('c4', 'g3', { correct: true }),
    ];
    const predicted_pathways = [
      unit('c1', 'g1', { usable: true, success: true }),
      unit('c2', 'g1', { usable: true, success: false }),
      unit('c3', 'g2', { usable: false, success: false }),
      unit('c4', 'g3', { usable: true, success: true }),
      { ...unit('c1', 'g1', { usable: true }), setting: 'single' },
    ];
    const rows = await runTable(modelSummary, { pathway_metrics: [], outcome_scores, predicted_pathways }, {});
    const acc = rows.find((r) => r.metric === 'acc')!,
      sr = rows.find((r) => r.metric === 'sr')!;
    assert.deepEqual([acc.mean, acc.n, acc.clusters, acc.judge], [0.75, 4, 3, 'j']);
    assert.deepEqual([sr.mean, sr.n, sr.clusters, sr.judge], [2 / 3, 3, 2, null]);
    const values = Float64Array.of(1, 0, 1, 1);
    const ci = percentileBootstrap(values, { resamples: 10000, seed: 42 });
    const cl = clusterBootstrap(values, Int32Array.of(0, 0, 1, 2), { resamples: 10000, seed: 42 });
    assert.deepEqual([acc.ci_low, acc.ci_high, acc.cluster_ci_low, acc.cluster_ci_high], [ci.ciLow, ci.ciHigh, cl.ciLow, cl.ciHigh]);
    assert.ok((acc.ci_low as number) < 0.75 && (acc.ci_high as number) === 1);
  });

  test("judge_simulated is the judge's flag its rows carry, never its name; null for SR, which has no judge", async () => {
    // Names that say the opposite of the flags: only the flags may decide.
    const judged = (judge: string, judge_simulated: boolean, over: object) =>
      ['c1', 'c2'].map((cdp_id) => ({
        setting: 'multi',
        model: 'gpt-test',
        cdp_id,
        guideline_id: 'g1',
        simulated: false,
        judge,
        judge_simulated,
        ...over,
      }));
    const metrics = { dtw_pcc: 0.5, ot_pcc: 0.5, lnds_pcs: 0.5 };
    const rows = await runTable(
      modelSummary,
      {
        pathway_metrics: [...judged('gpt-x', true, metrics), ...judged('simulated-foo', false, metrics)],
        outcome_scores: [...judged('gpt-x', true, { correct: true }), ...judged('simulated-foo', false, { correct: true })],
        predicted_pathways: ['c1', 'c2'].map((cdp_id) => ({
          setting: 'multi',
          model: 'gpt-test',
          cdp_id,
          guideline_id: 'g1',
          simulated: false,
          usable: true,
          success: true,
        })),
      },
      { resamples: 100 },
    );
    const flags = [...new Set(rows.map((r) => JSON.stringify([r.judge, r.judge_simulated])))];
    assert.deepEqual(flags, ['[null,null]', '["gpt-x",true]', '["simulated-foo",false]']);
    assert.equal(rows.filter((r) => r.judge === 'gpt-x').length, 4, 'three pathway metrics and acc');
    assert.equal(modelSummary.columns!.judge_simulated, 'BOOLEAN');
  });
});

describe('correlations', () => {
  const judges = ['j1', 'j2', 'j3'];
  const base = [0.1, 0.5, 0.3, 0.9, 0.7];
  const metricRows = base.flatMap((x, k) =>
    judges.map((judge, g) => ({
      setting: k < 3 ? 'single' : 'multi',
      model: 'm',
      cdp_id: `c${k}`,
      judge,
      // Every judge and metric an increasing function of x (LNDS a decreasing one, as it should be).
      dtw_pcc: (g + 1) * x,
      ot_pcc: x * x + g,
      lnds_pcs: 1 - x / (g + 1),
    })),
  );

  test('perfectly monotone judges and metrics: r (where linear), ρ, τ and W are 1; LNDS is inverted', async () => {
    const extra = [
      { setting: 'single', model: 'm', cdp_id: 'lonely', judge: 'j1', dtw_pcc: 0, ot_pcc: 0, lnds_pcs: 1 },
      { ...metricRows[0], cdp_id: 'c0', judge: 'j2', model: 'x', error: 'failed' },
    ];
    const rows = await runTable(correlations, { pathway_metrics: [...metricRows, ...extra] }, { judges: judges.map((j) => realJudge(j)) });
    const all = rows.filter((r) => r.setting === 'all');
    assert.equal(all.length, 18, '3 metrics + 3 judges, 3 pairs each');
    assert.deepEqual(
      all.slice(0, 3).map((r) => [r.fixed, r.pair]),
      [
        ['dtw_pcc', 'j1 vs j2'],
        ['dtw_pcc', 'j3 vs j1'],
        ['dtw_pcc', 'j2 vs j3'],
      ],
    );
    for (const r of all) {
      assert.equal(r.n, 5, 'the instance only j1 scored is left out');
      assert.ok(
        Math.abs((r.spearman_rho as number) - 1) < 1e-12 && Math.abs((r.kendall_tau as number) - 1) < 1e-12,
        `${r.fixed} ${r.pair}`,
      );
    }
    assert.ok(Math.abs((all[0]!.pearson_r as number) - 1) < 1e-12, 'dtw: linear in x across judges');
    assert.ok((all.find((r) => r.fixed === 'j1' && r.pair === 'dtw_pcc vs ot_pcc')!.pearson_r as number) < 1, 'x vs x² is not linear');
    assert.deepEqual(
      all.map((r) => r.kendall_w !== null),
      [true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false],
    );
    assert.ok(all.filter((r) => r.kendall_w !== null).every((r) => Math.abs((r.kendall_w as number) - 1) < 1e-12));
    assert.deepEqual([...new Set(rows.map((r) => r.setting))], ['all', 'single'], 'multi has only 2 instances, below the minimum of 3');
  });
});
