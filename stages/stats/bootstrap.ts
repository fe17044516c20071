/**
 * Percentile bootstrap confidence intervals for a mean (paper Appendix D: 95 % CIs from
 * 10,000 resamples), over cases or over clusters of cases.
 *
 * - Case bootstrap: each resample draws n cases with replacement; the statistic is their mean.
 *   This is what the paper reports. It treats the cases as independent, which they are not:
 *   several CDPs come from one guideline and share its difficulty.
 * - Cluster bootstrap: each resample draws G whole clusters (guidelines) with replacement and
 *   the statistic is the mean over all cases of the drawn clusters (a cluster drawn twice
 *   counts twice): Σ_drawn sum_c / Σ_drawn n_c. Large clusters weigh more, as they do in the
 *   plain mean, so both estimate the same quantity; the cluster CI is the honest one.
 *
 * CI: the (1 − level)/2 and (1 + level)/2 quantiles of the resampled means, with NumPy's
 * default 'linear' rule: sort the B means x_0 ≤ … ≤ x_{B−1}; for q, h = (B − 1)·q,
 * value = x_⌊h⌋ + (h − ⌊h⌋)·(x_⌊h⌋+1 − x_⌊h⌋). This is what scipy.stats.bootstrap(method=
 * 'percentile') uses.
 *
 * Every cell resampled with the same seed and the same number of cases (or clusters) sees the
 * same resamples (see resample-plan.ts), so the *Many functions return exactly what calling
 * the single-cell function cell by cell would, only faster.
 */
import { makeResamplePlan, resampledSums } from './resample-plan.ts';
import { PAPER_SEED } from './rng.ts';

export interface BootstrapOptions {
  /** Number of resamples B; default 10,000 (the paper's). */
  resamples?: number;
  /** PRNG seed; default 42 (the paper's default). */
  seed?: number;
  /** Confidence level; default 0.95. */
  level?: number;
}

export interface BootstrapResult {
  /** Mean of the observed values. */
  mean: number;
  ciLow: number;
  ciHigh: number;
  /** Number of cases. */
  n: number;
  /** Standard deviation of the resampled means (the bootstrap standard error). */
  se: number;
}

export interface ClusterBootstrapResult extends BootstrapResult {
  /** Number of distinct clusters. */
  clusters: number;
}

export interface Resolved {
  resamples: number;
  seed: number;
  level: number;
}

/** The values a bootstrap with these options uses (defaults filled in, checked): what a result records. */
export const bootstrapSettings = (opts: BootstrapOptions = {}, where = 'bootstrap'): Resolved => resolve(opts, where);

function resolve(opts: BootstrapOptions, where: string): Resolved {
  const { resamples = 10000, seed = PAPER_SEED, level = 0.95 } = opts;
  if (!Number.isInteger(resamples) || resamples < 2) throw new RangeError(`${where}: resamples must be an integer ≥ 2, got ${resamples}`);
  if (!Number.isInteger(seed)) throw new RangeError(`${where}: seed must be an integer, got ${seed}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`${where}: level must be in (0, 1), e.g. 0.95, got ${level}`);
  return { resamples, seed, level };
}

function checkValues(values: Float64Array, where: string): void {
  if (values.length === 0) throw new RangeError(`${where}: no values to bootstrap`);
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) {
      throw new RangeError(`${where}: value ${i} is ${values[i]}; drop or impute missing scores before bootstrapping`);
    }
  }
}

/** NumPy's default ('linear') quantile of an ascending array. */
export function quantileSorted(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) throw new RangeError('quantileSorted: empty array');
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantileSorted: q must be in [0, 1], got ${q}`);
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  if (lo >= sorted.length - 1) return sorted[sorted.length - 1]!;
  const a = sorted[lo]!,
    b = sorted[lo + 1]!;
  return a + (h - lo) * (b - a);
}

function mean(values: Float64Array): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i]!;
  return s / values.length;
}

function summarise(
  observedMean: number,
  resampled: Float64Array,
  level: number,
): { mean: number; ciLow: number; ciHigh: number; se: number } {
  const m = mean(resampled);
  let ss = 0;
  for (let i = 0; i < resampled.length; i++) ss += (resampled[i]! - m) ** 2;
  const sorted = Float64Array.from(resampled).sort();
  const alpha = (1 - level) / 2;
  return {
    mean: observedMean,
    ciLow: quantileSorted(sorted, alpha),
    ciHigh: quantileSorted(sorted, 1 - alpha),
    se: Math.sqrt(ss / (resampled.length - 1)),
  };
}

/**
 * The B resampled means of each cell under the case bootstrap (all cells the same length).
 * Exposed for checks and plots of the bootstrap distribution.
 */
export function caseBootstrapMeans(cells: readonly Float64Array[], opts: BootstrapOptions = {}): Float64Array[] {
  const { resamples, seed } = resolve(opts, 'caseBootstrapMeans');
  if (cells.length === 0) return [];
  const n = cells[0]!.length;
  cells.forEach((v, k) => {
    checkValues(v, `case bootstrap, cell ${k}`);
    if (v.length !== n)
      throw new RangeError(`case bootstrap: cell ${k} has ${v.length} values, cell 0 has ${n}; batch cells of equal length together`);
  });
  const sums = resampledSums(cells, makeResamplePlan(n, resamples, seed));
  for (const s of sums) for (let r = 0; r < s.length; r++) s[r] = s[r]! / n;
  return sums;
}

/** Case-resampling percentile bootstrap CI for the mean of `values`. */
export function percentileBootstrap(values: Float64Array, opts: BootstrapOptions = {}): BootstrapResult {
  return percentileBootstrapMany([values], opts)[0]!;
}

/** percentileBootstrap for many cells of equal length, sharing the draws. */
export function percentileBootstrapMany(cells: readonly Float64Array[], opts: BootstrapOptions = {}): BootstrapResult[] {
  const { level } = resolve(opts, 'percentileBootstrap');
  const means = caseBootstrapMeans(cells, opts);
  return cells.map((v, k) => ({ ...summarise(mean(v), means[k]!, level), n: v.length }));
}

/** Cluster labels → dense ids 0..G−1 in ascending label order, with per-cluster case counts. */
export function denseClusters(clusters: Int32Array): { ids: Int32Array; count: number; sizes: Float64Array } {
  const labels = Array.from(new Set(clusters)).sort((a, b) => a - b);
  const index = new Map(labels.map((l, i) => [l, i]));
  const ids = new Int32Array(clusters.length);
  const sizes = new Float64Array(labels.length);
  for (let i = 0; i < clusters.length; i++) {
    const id = index.get(clusters[i]!)!;
    ids[i] = id;
    sizes[id]++;
  }
  return { ids, count: labels.length, sizes };
}

/**
 * The B resampled means of each cell under the cluster bootstrap; `clusters[i]` is case i's
 * cluster label (e.g. guideline index), shared by all cells.
 */
export function clusterBootstrapMeans(cells: readonly Float64Array[], clusters: Int32Array, opts: BootstrapOptions = {}): Float64Array[] {
  const { resamples, seed } = resolve(opts, 'clusterBootstrapMeans');
  if (cells.length === 0) return [];
  cells.forEach((v, k) => {
    checkValues(v, `cluster bootstrap, cell ${k}`);
    if (v.length !== clusters.length) {
      throw new RangeError(
        `cluster bootstrap: cell ${k} has ${v.length} values but there are ${clusters.length} cluster labels; give one label per case`,
      );
    }
  });
  const { ids, count, sizes } = denseClusters(clusters);
  const clusterSums = cells.map((v) => {
    const s = new Float64Array(count);
    for (let i = 0; i < v.length; i++) s[ids[i]!] += v[i]!;
    return s;
  });
  // The case counts ride along as one more vector: Σ_drawn n_c is exact in float64.
  const sums = resampledSums([...clusterSums, sizes], makeResamplePlan(count, resamples, seed));
  const drawnCases = sums.pop()!;
  for (const s of sums) for (let r = 0; r < s.length; r++) s[r] = s[r]! / drawnCases[r]!;
  return sums;
}

/** Cluster-resampling percentile bootstrap CI for the mean of `values`. */
export function clusterBootstrap(values: Float64Array, clusters: Int32Array, opts: BootstrapOptions = {}): ClusterBootstrapResult {
  return clusterBootstrapMany([values], clusters, opts)[0]!;
}

/** clusterBootstrap for many cells over the same cases and clusters, sharing the draws. */
export function clusterBootstrapMany(
  cells: readonly Float64Array[],
  clusters: Int32Array,
  opts: BootstrapOptions = {},
): ClusterBootstrapResult[] {
  const { level } = resolve(opts, 'clusterBootstrap');
  const means = clusterBootstrapMeans(cells, clusters, opts);
  const count = new Set(clusters).size;
  return cells.map((v, k) => ({ ...summarise(mean(v), means[k]!, level), n: v.length, clusters: count }));
}
