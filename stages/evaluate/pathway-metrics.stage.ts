/**
 * Stage `pathway_metrics`: DTW-PCC, OT-PCC and LNDS-PCS (paper §3.3, Appendix B) of one step
 * score matrix; one unit per step_scores row. γ (LNDS threshold) and β (OT positional weight)
 * are the judge's calibration, which its step_scores row carries (from its judge spec: the
 * models file's or the paper's values, else its kind's fallback), so changing one judge's γ
 * recomputes that judge's rows only; a row without them gets judgeParams(judge, judge_kind).
 * λ, τ_a, τ_b are params with the defaults of stages/metrics/ot.ts. Every row records the values
 * it was computed with (gamma, beta, ot_lambda, ot_tau_a, ot_tau_b), which is where the reports
 * read them. `gamma_calibrated` is false when γ is the kind's fallback rather than a value fitted
 * to this judge. dtw_path holds the warping path as [i, j] pairs.
 * A failed step_scores row yields a failure row (the runner does that before run is called).
 */
import { rowStage, z } from '../../pipeline/stage.ts';
import { judgeParams, type JudgeKind } from '../metrics/judge-params.ts';
import { OT_DEFAULTS } from '../metrics/ot.ts';
import { scorePathway } from '../metrics/pathway-metrics.ts';
import { FAILURE_KIND_COLUMN, UNIT_COLUMNS, unitBase } from './pathway-unit.ts';

export interface PathwayMetricsParams {
  lambda: number;
  tauA: number;
  tauB: number;
}

export default rowStage<PathwayMetricsParams>({
  inputs: { step_scores: 'drives' },
  // A function of the unit and the params: its units may run on worker threads (--workers).
  pure: true,
  params: {
    lambda: z.number().gt(0).default(OT_DEFAULTS.lambda),
    // Infinity: a balanced marginal (stages/metrics/ot.ts).
    tauA: z.union([z.number().gt(0), z.literal(Infinity)]).default(OT_DEFAULTS.tauA),
    tauB: z.union([z.number().gt(0), z.literal(Infinity)]).default(OT_DEFAULTS.tauB),
  },
  columns: {
    ...UNIT_COLUMNS,
    // 'upstream' on the failure row of a step_scores failure row (the runner's).
    ...FAILURE_KIND_COLUMN,
    judge_kind: 'VARCHAR',
    m: 'INTEGER',
    n: 'INTEGER',
    dtw_pcc: 'DOUBLE',
    ot_pcc: 'DOUBLE',
    lnds_pcs: 'DOUBLE',
    dtw_path: 'INTEGER[][]',
    gamma: 'DOUBLE',
    beta: 'DOUBLE',
    gamma_calibrated: 'BOOLEAN',
    ot_lambda: 'DOUBLE',
    ot_tau_a: 'DOUBLE',
    ot_tau_b: 'DOUBLE',
  },
  run({ row }, ctx) {
    const judge = String(row.judge);
    const kind = row.judge_kind as JudgeKind | 'embedding';
    const jp =
      typeof row.gamma === 'number' && typeof row.beta === 'number'
        ? { gamma: row.gamma, beta: row.beta, calibrated: row.gamma_calibrated === true }
        : judgeParams(judge, kind === 'llm' ? 'llm' : 'similarity');
    const base = {
      ...unitBase(row, { name: judge, simulated: row.judge_simulated === true }),
      judge_kind: kind,
      m: row.m,
      n: row.n,
      gamma: jp.gamma,
      beta: jp.beta,
      gamma_calibrated: jp.calibrated,
      ot_lambda: ctx.params.lambda,
      ot_tau_a: ctx.params.tauA,
      ot_tau_b: ctx.params.tauB,
    };
    const s = scorePathway(
      // γ and β resolved once, above, so the recorded values are the ones used.
      { id: String(row.cdp_id), C: row.C, gamma: jp.gamma, beta: jp.beta },
      { lambda: ctx.params.lambda, tauA: ctx.params.tauA, tauB: ctx.params.tauB },
    );
    return { ...base, dtw_pcc: s.dtw_pcc, ot_pcc: s.ot_pcc, lnds_pcs: s.lnds_pcs, dtw_path: s.dtw_path };
  },
});
