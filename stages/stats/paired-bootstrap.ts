/**
 * The difference between two models on the same cases, with a paired percentile-bootstrap CI.
 * Pairing matters: the cases differ far more in difficulty than two neighbouring models differ,
 * so resampling each model's cases on its own gives intervals many times wider than the gap.
 * Here each resample draws the common cases with replacement and keeps both models' values of a
 * drawn case together, i.e. it is the case bootstrap of the per-case differences a_i − b_i.
 * Cases only one model has (a failed call, a smaller --limit) are left out: a difference over
 * different cases would measure the cases.
 */
import { percentileBootstrap, type BootstrapOptions } from './bootstrap.ts';

export interface PairedDifference {
  /** Cases both models have a value for. */
  n: number;
  /** mean(a − b) over the common cases. */
  diff: number;
  ciLow: number;
  ciHigh: number;
  /** Each model's mean over the common cases (not its mean over all of its cases). */
  meanA: number;
  meanB: number;
}

/**
 * a and b map a case id to that model's value; non-finite values count as missing. Returns null
 * when the models share no case.
 */
export function pairedDifference(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  opts: BootstrapOptions = {},
): PairedDifference | null {
  // Sorted ids: the same pairs give the same resamples whatever order the rows came in.
  const common = [...a.keys()].filter((k) => Number.isFinite(a.get(k)) && Number.isFinite(b.get(k))).sort();
  if (common.length === 0) return null;
  const va = Float64Array.from(common, (k) => a.get(k)!);
  const vb = Float64Array.from(common, (k) => b.get(k)!);
  const d = Float64Array.from(common, (_, i) => va[i]! - vb[i]!);
  const r = percentileBootstrap(d, opts);
  const mean = (v: Float64Array) => v.reduce((s, x) => s + x, 0) / v.length;
  return { n: common.length, diff: r.mean, ciLow: r.ciLow, ciHigh: r.ciHigh, meanA: mean(va), meanB: mean(vb) };
}
