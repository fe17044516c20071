/**
 * Stage `model_summary`: per (setting, judge, metric, model), the mean over cases with two 95 %
 * percentile-bootstrap CIs (paper Appendix D): over cases (the paper's: 10,000 resamples,
 * seed 42) and over guidelines (cluster bootstrap: cases of one guideline share its difficulty,
 * so this CI is the honest one). Values are fractions; the report layer formats percentages.
 *
 * Metrics: dtw_pcc, ot_pcc, lnds_pcs (pathway_metrics), acc (outcome_scores: share correct) and,
 * for the multi-turn setting, sr (lenient success rate: a conclusion within the cap, readable
 * variants of the format accepted) and sr_strict (every doctor turn in the exact required format).
 * SR does not depend on a judge, so its judge is null.
 *
 * Failures (failure-policy.ts): param `failurePolicy` ('worst', default, or 'exclude') decides how
 * the model's failed calls and unreadable answers enter every mean, SR included; under 'worst' SR
 * is k / every test case of the model, as in §4.1. Patient failures are never counted against the
 * model: they leave every mean and are counted in `patient_failures`. `commonCases` (default false)
 * keeps, in each (setting, judge, metric), only the cases every model completed.
 * Beside every mean: `n` (cases in the mean), `failures` (the model's failed calls and unreadable
 * answers among the cell's cases), `excluded` (cases of the cell not in the mean, for any reason:
 * the policy, commonCases, a patient failure, a judge that failed, a case without a reference) and
 * `policy` ('worst' | 'exclude', '+common' with commonCases). A cell with n = 0 has null mean and
 * CIs. `simulated` marks offline stand-in models.
 * With a single guideline (`clusters` = 1, as in the bundled sample's test split) the cluster CI
 * is null: resampling one cluster cannot say anything about guideline-to-guideline variation.
 */
import { tableStage, z, type Row } from '../../pipeline/stage.ts';
import {
  clusterBootstrapMany,
  percentileBootstrapMany,
  type BootstrapOptions,
  type BootstrapResult,
  type ClusterBootstrapResult,
} from '../stats/bootstrap.ts';
import {
  CASE_FAILURES,
  FAILURE_POLICIES,
  applyFailurePolicy,
  checkPolicyOptions,
  policyLabel,
  type CaseFailure,
  type CellEntries,
  type FailurePolicy,
  type PolicyMetric,
} from './failure-policy.ts';

export interface ModelSummaryParams {
  resamples: number;
  seed: number;
  level: number;
  /** How failed calls and unreadable answers enter the means: scored worst (default) or left out. */
  failurePolicy: FailurePolicy;
  /** Compare models only on the cases every one of them completed (per setting, judge, metric). */
  commonCases: boolean;
}

export const SUMMARY_METRICS = ['dtw_pcc', 'ot_pcc', 'lnds_pcs', 'acc', 'sr', 'sr_strict'] as const;

export interface Cell {
  setting: string;
  judge: string | null;
  metric: string;
  model: string;
  simulated: boolean;
  values: number[];
  guidelines: string[];
  failures?: number;
  excluded?: number;
  patientFailures?: number;
  policy?: string;
}

/**
 * Cells over the same number of cases share the case-bootstrap draws and cells over the same
 * guideline sequence share the cluster draws (the *Many functions): the same numbers as cell by
 * cell, computed once per batch.
 */
export function summariseCells(cells: readonly Cell[], opts: BootstrapOptions): Row[] {
  const caseCi = new Map<Cell, BootstrapResult>();
  const clusterCi = new Map<Cell, ClusterBootstrapResult>();
  const batches = <K>(keyOf: (c: Cell) => K) => {
    const m = new Map<K, Cell[]>();
    for (const c of scored) {
      const k = keyOf(c);
      if (!m.has(k)) m.set(k, []);
      m.get(k)!.push(c);
    }
    return m.values();
  };
  const scored = cells.filter((c) => c.values.length > 0);
  for (const batch of batches((c) => c.values.length)) {
    percentileBootstrapMany(
      batch.map((c) => Float64Array.from(c.values)),
      opts,
    ).forEach((r, k) => caseCi.set(batch[k]!, r));
  }
  for (const batch of batches((c) => JSON.stringify(c.guidelines))) {
    const ids = new Map<string, number>();
    const clusters = Int32Array.from(batch[0]!.guidelines, (g) => (ids.has(g) ? ids.get(g)! : (ids.set(g, ids.size), ids.size - 1)));
    clusterBootstrapMany(
      batch.map((c) => Float64Array.from(c.values)),
      clusters,
      opts,
    ).forEach((r, k) => clusterCi.set(batch[k]!, r));
  }
  return cells.map((c) => {
    const counts = {
      failures: c.failures ?? 0,
      excluded: c.excluded ?? 0,
      patient_failures: c.patientFailures ?? 0,
      policy: c.policy ?? null,
    };
    const key = { setting: c.setting, judge: c.judge, metric: c.metric, model: c.model, simulated: c.simulated };
    // Nothing to average (every case failed under 'exclude', or no common case): the cell stays,
    // so its n = 0 and its failures are printed rather than the model silently missing.
    if (c.values.length === 0) {
      return { ...key, mean: null, ci_low: null, ci_high: null, n: 0, ...counts, cluster_ci_low: null, cluster_ci_high: null, clusters: 0 };
    }
    const cases = caseCi.get(c)!,
      byGuideline = clusterCi.get(c)!;
    return {
      ...key,
      mean: cases.mean,
      ci_low: cases.ciLow,
      ci_high: cases.ciHigh,
      n: cases.n,
      ...counts,
      // One guideline gives every resample the same mean: a zero-width interval that claims a
      // certainty one guideline cannot give, so the cluster CI is left undefined.
      cluster_ci_low: byGuideline.clusters > 1 ? byGuideline.ciLow : null,
      cluster_ci_high: byGuideline.clusters > 1 ? byGuideline.ciHigh : null,
      clusters: byGuideline.clusters,
    };
  });
}

const caseKey = (r: Row) => JSON.stringify([r.setting, r.model, r.cdp_id]);
const CASE_COLUMNS = ['setting', 'model', 'cdp_id', 'guideline_id', 'simulated'];

function failureOf(p: Row | undefined): CaseFailure | null {
  const f = p?.failure;
  if (f == null) return null;
  if (!CASE_FAILURES.includes(f as CaseFailure)) {
    const which = `predicted_pathways row ${String(p!.cdp_id)} (${String(p!.model)})`;
    throw new RangeError(
      `${which} has failure ${JSON.stringify(f)}; expected one of ${CASE_FAILURES.join(', ')} or null; rerun predicted_pathways`,
    );
  }
  return f as CaseFailure;
}

/** Every case's entry in every cell, before the failure policy. */
export function cellEntries({ pathway_metrics, outcome_scores, predicted_pathways }: Record<string, Row[]>): CellEntries[] {
  const pathways = new Map(predicted_pathways.map((p) => [caseKey(p), p]));
  const cells = new Map<string, CellEntries>();
  const add = (r: Row, judge: string | null, metric: PolicyMetric, value: number | null, failure: CaseFailure | null) => {
    const key = JSON.stringify([r.setting, judge, metric, r.model]);
    let c = cells.get(key);
    if (!c) {
      c = { setting: String(r.setting), judge, metric, model: String(r.model), simulated: r.simulated === true, entries: [] };
      cells.set(key, c);
    }
    c.entries.push({ caseId: String(r.cdp_id), guideline: String(r.guideline_id), value, failure });
  };
  for (const r of pathway_metrics) {
    const failure = failureOf(pathways.get(caseKey(r)));
    for (const metric of ['dtw_pcc', 'ot_pcc', 'lnds_pcs'] as const) {
      add(r, String(r.judge), metric, r.error == null ? (r[metric] as number) : null, failure);
    }
  }
  for (const r of outcome_scores) {
    add(r, String(r.judge), 'acc', r.error == null ? (r.correct === true ? 1 : 0) : null, failureOf(pathways.get(caseKey(r))));
  }
  for (const p of predicted_pathways) {
    if (p.setting !== 'multi') continue;
    const scored = p.usable === true;
    const strict = typeof p.success_strict === 'boolean' ? p.success_strict : p.success === true;
    add(p, null, 'sr', scored ? (p.success === true ? 1 : 0) : null, failureOf(p));
    add(p, null, 'sr_strict', scored ? (strict ? 1 : 0) : null, failureOf(p));
  }
  return [...cells.values()];
}

export default tableStage<ModelSummaryParams>({
  inputs: { pathway_metrics: 'whole', outcome_scores: 'whole', predicted_pathways: 'whole' },
  params: {
    resamples: z.int().min(2).max(1_000_000).default(10000),
    seed: z.int().default(42),
    level: z.number().gt(0).lt(1).default(0.95),
    failurePolicy: z.enum(FAILURE_POLICIES).default('worst'),
    commonCases: z.boolean().default(false),
  },
  // What a case is and what it scored; never the transcripts, step texts or matrices of these wide tables.
  reads: {
    pathway_metrics: [...CASE_COLUMNS, 'judge', 'error', 'dtw_pcc', 'ot_pcc', 'lnds_pcs'],
    outcome_scores: [...CASE_COLUMNS, 'judge', 'error', 'correct'],
    predicted_pathways: [...CASE_COLUMNS, 'failure', 'usable', 'success', 'success_strict'],
  },
  columns: {
    setting: 'VARCHAR',
    judge: 'VARCHAR',
    metric: 'VARCHAR',
    model: 'VARCHAR',
    simulated: 'BOOLEAN',
    mean: 'DOUBLE',
    ci_low: 'DOUBLE',
    ci_high: 'DOUBLE',
    n: 'INTEGER',
    failures: 'INTEGER',
    excluded: 'INTEGER',
    patient_failures: 'INTEGER',
    policy: 'VARCHAR',
    cluster_ci_low: 'DOUBLE',
    cluster_ci_high: 'DOUBLE',
    clusters: 'INTEGER',
  },
  run(inputs, ctx) {
    const options = checkPolicyOptions(ctx.params);
    const policy = policyLabel(options);
    const cells: Cell[] = applyFailurePolicy(cellEntries(inputs), options).map((c) => ({ ...c, policy }));
    const order = (c: Cell) =>
      [c.setting, c.judge ?? '', String(SUMMARY_METRICS.indexOf(c.metric as never)).padStart(2, '0'), c.model].join('\0');
    const sorted = cells.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
    return summariseCells(sorted, { resamples: ctx.params.resamples, seed: ctx.params.seed, level: ctx.params.level });
  },
});
