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
 * Failures (failure-policy.ts): each case of a cell is scored or a failure of one kind — answer,
 * server, patient, missing (predicted_pathways.failure) — or unscored (its judge failed). Param
 * `failurePolicy`: 'worst' (default) scores answer failures and missing cases as the worst value
 * (so SR counts them as failures, §4.1) and leaves server and patient failures and unscored cases
 * out of the mean, which makes the cell `incomplete` (`cdp run --retry-failed` may still score
 * them); 'exclude' leaves answer failures and missing cases out too. `commonCases` (default
 * false) keeps, in each (setting, judge, metric), only the cases in every model's mean.
 * Beside every mean: `n` (cases in the mean), `cases` (the cell's test cases: n + excluded),
 * one count per kind (`answer_failures`, `server_failures`, `patient_failures`, `missing_cases`,
 * `unscored`), `failures` (the sum of the four kinds), `excluded` (cases not in the mean, for any
 * reason), `incomplete` and `policy` ('worst' | 'exclude', '+common' with commonCases). A cell
 * with n = 0 has null mean and CIs. `simulated` marks offline stand-in models and
 * `judge_simulated` offline stand-in judges (the flag the judge's rows carry; null for SR). Every row records
 * the bootstrap it was computed with (`resamples`, `seed`, `level`), which is where the reports
 * read them.
 * With a single guideline (`clusters` = 1, as in the bundled sample's test split) the cluster CI
 * is null: resampling one cluster cannot say anything about guideline-to-guideline variation.
 */
import { tableStage, z, type Row } from '../../pipeline/stage.ts';
import {
  bootstrapSettings,
  clusterBootstrapMany,
  percentileBootstrapMany,
  type BootstrapOptions,
  type BootstrapResult,
  type ClusterBootstrapResult,
} from '../stats/bootstrap.ts';
import {
  FAILURE_POLICIES,
  applyFailurePolicy,
  checkPolicyOptions,
  policyLabel,
  type FailurePolicy,
  type KindCounts,
} from './failure-policy.ts';
import { ENTRY_READS, cellEntries } from './case-entries.ts';

export { cellEntries };

export interface ModelSummaryParams {
  resamples: number;
  seed: number;
  level: number;
  /** How answer failures and missing cases enter the means: scored worst (default) or left out. */
  failurePolicy: FailurePolicy;
  /** Compare models only on the cases in every one's mean (per setting, judge, metric). */
  commonCases: boolean;
}

export const SUMMARY_METRICS = ['dtw_pcc', 'ot_pcc', 'lnds_pcs', 'acc', 'sr', 'sr_strict'] as const;

export interface Cell {
  setting: string;
  judge: string | null;
  metric: string;
  model: string;
  simulated: boolean;
  /** The judge's roster flag (from its pathway_metrics / outcome_scores rows); null without a judge. */
  judge_simulated: boolean | null;
  values: number[];
  guidelines: string[];
  /** Every case of the cell: n + excluded. */
  cases?: number;
  kinds?: KindCounts;
  excluded?: number;
  incomplete?: boolean;
  policy?: string;
}

/**
 * Cells over the same number of cases share the case-bootstrap draws and cells over the same
 * guideline sequence share the cluster draws (the *Many functions): the same numbers as cell by
 * cell, computed once per batch.
 */
export function summariseCells(cells: readonly Cell[], opts: BootstrapOptions): Row[] {
  const settings = bootstrapSettings(opts, 'model_summary');
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
    const k = c.kinds;
    const counts = {
      cases: c.cases ?? c.values.length + (c.excluded ?? 0),
      failures: k ? k.answer + k.server + k.patient + k.missing : 0,
      answer_failures: k?.answer ?? 0,
      server_failures: k?.server ?? 0,
      patient_failures: k?.patient ?? 0,
      missing_cases: k?.missing ?? 0,
      unscored: k?.unscored ?? 0,
      excluded: c.excluded ?? 0,
      incomplete: c.incomplete ?? false,
      policy: c.policy ?? null,
      ...settings,
    };
    const key = {
      setting: c.setting,
      judge: c.judge,
      judge_simulated: c.judge_simulated,
      metric: c.metric,
      model: c.model,
      simulated: c.simulated,
    };
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

const orderKey = (c: { setting: unknown; judge: unknown; metric: unknown; model: unknown }) =>
  [c.setting, c.judge ?? '', String(SUMMARY_METRICS.indexOf(c.metric as never)).padStart(2, '0'), c.model].join('\0');

/** Cells (and their rows) by setting, judge, metric in SUMMARY_METRICS order, model. */
export function cellOrder(a: Pick<Cell, 'setting' | 'judge' | 'metric' | 'model'>, b: typeof a): number {
  const x = orderKey(a),
    y = orderKey(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Every cell is one (setting, model)'s, so a cell's rows depend only on that setting × model's
 * rows of each input; `commonCases` compares the models of a setting, so then a partition is a setting.
 */
const bySettingAndModel = (r: Row, p: ModelSummaryParams) => JSON.stringify(p.commonCases ? [r.setting] : [r.setting, r.model]);

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
  reads: ENTRY_READS,
  // A partition's rows are a function of its rows and the params (the bootstrap's plan cache only
  // saves rebuilding the same draws): partitions may run on worker threads (--workers).
  pure: true,
  partition: {
    by: { pathway_metrics: bySettingAndModel, outcome_scores: bySettingAndModel, predicted_pathways: bySettingAndModel },
    order: (a, b) => cellOrder(a as never, b as never),
  },
  columns: {
    setting: 'VARCHAR',
    judge: 'VARCHAR',
    judge_simulated: 'BOOLEAN',
    metric: 'VARCHAR',
    model: 'VARCHAR',
    simulated: 'BOOLEAN',
    mean: 'DOUBLE',
    ci_low: 'DOUBLE',
    ci_high: 'DOUBLE',
    n: 'INTEGER',
    cases: 'INTEGER',
    failures: 'INTEGER',
    answer_failures: 'INTEGER',
    server_failures: 'INTEGER',
    patient_failures: 'INTEGER',
    missing_cases: 'INTEGER',
    unscored: 'INTEGER',
    excluded: 'INTEGER',
    incomplete: 'BOOLEAN',
    policy: 'VARCHAR',
    cluster_ci_low: 'DOUBLE',
    cluster_ci_high: 'DOUBLE',
    clusters: 'INTEGER',
    resamples: 'INTEGER',
    seed: 'INTEGER',
    level: 'DOUBLE',
  },
  run(inputs, ctx) {
    const options = checkPolicyOptions(ctx.params);
    const policy = policyLabel(options);
    const cells: Cell[] = applyFailurePolicy(cellEntries(inputs), options).map((c) => ({ ...c, policy }));
    const sorted = cells.sort(cellOrder);
    return summariseCells(sorted, { resamples: ctx.params.resamples, seed: ctx.params.seed, level: ctx.params.level });
  },
});
