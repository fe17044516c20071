/**
 * The difference between two models on the same cases, with a paired percentile-bootstrap CI.
 * Pairing matters: the cases differ far more in difficulty than two neighbouring models differ,
 * so resampling each model's cases on its own gives intervals many times wider than the gap.
 * Here each resample draws the common cases with replacement and keeps both models' values of a
 * drawn case together, i.e. it is the case bootstrap of the per-case differences a_i − b_i.
 * Cases only one model has (a failed call, a smaller --limit) are left out: a difference over
 * different cases would measure the cases. The callers give each model's values as its mean
 * uses them (the failure policy applied: stages/evaluate/failure-policy.ts).
 *
 * With `guidelineOf` the number of guidelines behind the common cases is counted, and with
 * `cluster` the resamples draw whole guidelines instead (the cluster bootstrap of the
 * differences: cases of one guideline share its difficulty); one guideline then gives no CI.
 */
import { clusterBootstrap, percentileBootstrap, type BootstrapOptions } from './bootstrap.ts';

export interface PairedDifference {
  /** Cases both models have a value for. */
  n: number;
  /** mean(a − b) over the common cases. */
  diff: number;
  /** The CI; null when resampling guidelines and the cases come from one guideline. */
  ciLow: number | null;
  ciHigh: number | null;
  /** Each model's mean over the common cases (not its mean over all of its cases). */
  meanA: number;
  meanB: number;
  /** Guidelines behind the common cases, when `guidelineOf` was given. */
  guidelines?: number;
  /** What the CI resampled. */
  resampled: 'cases' | 'guidelines';
}

export interface PairedOptions extends BootstrapOptions {
  /** The guideline of a case (for the count, and for `cluster`). */
  guidelineOf?: (caseId: string) => string;
  /** Resample guidelines instead of cases (needs `guidelineOf`). */
  cluster?: boolean;
}

/**
 * a and b map a case id to that model's value; non-finite values count as missing. Returns null
 * when the models share no case.
 */
export function pairedDifference(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  opts: PairedOptions = {},
): PairedDifference | null {
  // Sorted ids: the same pairs give the same resamples whatever order the rows came in.
  const common = [...a.keys()].filter((k) => Number.isFinite(a.get(k)) && Number.isFinite(b.get(k))).sort();
  if (common.length === 0) return null;
  const va = Float64Array.from(common, (k) => a.get(k)!);
  const vb = Float64Array.from(common, (k) => b.get(k)!);
  const d = Float64Array.from(common, (_, i) => va[i]! - vb[i]!);
  const mean = (v: Float64Array) => v.reduce((s, x) => s + x, 0) / v.length;
  const { guidelineOf, cluster, ...boot } = opts;
  if (cluster && !guidelineOf) throw new Error('pairedDifference: cluster needs guidelineOf, the guideline of each case');
  const labels = guidelineOf ? common.map(guidelineOf) : null;
  const ids = new Map<string, number>();
  const clusters = labels ? Int32Array.from(labels, (g) => (ids.has(g) ? ids.get(g)! : (ids.set(g, ids.size), ids.size - 1))) : null;
  const guidelines = labels ? { guidelines: ids.size } : {};
  const base = { n: common.length, meanA: mean(va), meanB: mean(vb), ...guidelines };
  if (cluster) {
    const r = clusterBootstrap(d, clusters!, boot);
    // One guideline: every resample is the same mean, an interval that says nothing.
    const ci = r.clusters > 1 ? { ciLow: r.ciLow, ciHigh: r.ciHigh } : { ciLow: null, ciHigh: null };
    return { ...base, diff: r.mean, ...ci, resampled: 'guidelines' };
  }
  const r = percentileBootstrap(d, boot);
  return { ...base, diff: r.mean, ciLow: r.ciLow, ciHigh: r.ciHigh, resampled: 'cases' };
}
