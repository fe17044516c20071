/**
 * Stage `pathway_metrics`: DTW-PCC, OT-PCC and LNDS-PCS (paper §3.3, Appendix B) of one step
 * score matrix; one unit per step_scores row. γ (LNDS threshold) and β (OT positional weight)
 * are the judge's (judgeParams(judge, judge_kind)); λ, τ_a, τ_b are params with the defaults of
 * stages/metrics/ot.ts. `gamma_calibrated` is false when γ is the kind's fallback rather than
 * a value the paper fitted to this judge. dtw_path holds the warping path as [i, j] pairs.
 * A failed step_scores row yields a failure row (the runner does that before run is called).
 */
import { rowStage, z } from '../../pipeline/stage.ts';
import { judgeParams, type JudgeKind } from '../metrics/judge-params.ts';
import { OT_DEFAULTS } from '../metrics/ot.ts';
import { scorePathway } from '../metrics/pathway-metrics.ts';
import { UNIT_COLUMNS, unitBase } from './pathway-unit.ts';

export interface PathwayMetricsParams {
  /** γ and β per judge (the models file's "judge" calibration); judgeParams' values otherwise. */
  calibration: Record<string, { gamma: number; beta: number; calibrated: boolean }>;
  lambda: number;
  tauA: number;
  tauB: number;
}

export default rowStage<PathwayMetricsParams>({
  inputs: { step_scores: 'drives' },
  params: {
    calibration: z
      .record(z.string(), z.object({ gamma: z.number().gt(0).max(1), beta: z.number().min(0), calibrated: z.boolean() }))
      .default({}),
    lambda: z.number().gt(0).default(OT_DEFAULTS.lambda),
    // Infinity: a balanced marginal (stages/metrics/ot.ts).
    tauA: z.union([z.number().gt(0), z.literal(Infinity)]).default(OT_DEFAULTS.tauA),
    tauB: z.union([z.number().gt(0), z.literal(Infinity)]).default(OT_DEFAULTS.tauB),
  },
  columns: {
    ...UNIT_COLUMNS,
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
  },
  run({ row }, ctx) {
    const judge = String(row.judge);
    const kind = row.judge_kind as JudgeKind;
    const jp = ctx.params.calibration[judge] ?? judgeParams(judge, kind);
    const base = {
      ...unitBase(row, judge),
      judge_kind: kind,
      m: row.m,
      n: row.n,
      gamma: jp.gamma,
      beta: jp.beta,
      gamma_calibrated: jp.calibrated,
    };
    const s = scorePathway(
      // γ and β resolved once, above, so the recorded values are the ones used.
      { id: String(row.cdp_id), C: row.C, gamma: jp.gamma, beta: jp.beta },
      { lambda: ctx.params.lambda, tauA: ctx.params.tauA, tauB: ctx.params.tauB },
    );
    return { ...base, dtw_pcc: s.dtw_pcc, ot_pcc: s.ot_pcc, lnds_pcs: s.lnds_pcs, dtw_path: s.dtw_path };
  },
});
