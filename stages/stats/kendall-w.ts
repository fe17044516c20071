/**
 * Kendall's coefficient of concordance W for k raters ranking the same n items (paper §4.5:
 * the three judges, or the three metrics, as raters of every instance), with the correction
 * for ties:
 *
 *   W = 12·S / (k²(n³ − n) − k·Σ_j T_j),  S = Σ_i (R_i − k(n + 1)/2)²,  R_i = Σ_j r_ij,
 *   T_j = Σ over rater j's tie groups of (t³ − t),
 *
 * r_ij the average rank rater j gives item i. W = 1: all raters rank identically; W = 0: no
 * agreement. Scores whose direction is reversed (LNDS, higher = better, against DTW/OT,
 * lower = better) must be negated by the caller first, as the paper does.
 */
import { rankSample } from './ranks.ts';
import type { RankedSample } from './ranks.ts';

export function kendallW(ratings: readonly Float64Array[]): number {
  const k = ratings.length;
  if (k < 2) throw new RangeError(`kendallW: need at least 2 raters, got ${k}`);
  const n = ratings[0]!.length;
  ratings.forEach((row, j) => {
    if (row.length !== n)
      throw new RangeError(`kendallW: rater ${j} scores ${row.length} items, rater 0 scores ${n}; every rater must score the same items`);
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(row[i]))
        throw new RangeError(`kendallW: rater ${j}, item ${i} is ${row[i]}; drop items some rater did not score`);
    }
  });
  return kendallWOfRanked(ratings.map(rankSample));
}

/** Kendall's W from raters' samples ranked once with rankSample. */
export function kendallWOfRanked(raters: readonly RankedSample[]): number {
  const k = raters.length;
  if (k < 2) throw new RangeError(`kendallW: need at least 2 raters, got ${k}`);
  const n = raters[0]!.ranks.length;
  if (n < 2) throw new RangeError(`kendallW: need at least 2 items, got ${n}`);
  const rankSums = new Float64Array(n);
  let tieTerm = 0;
  raters.forEach((rater, j) => {
    if (rater.ranks.length !== n)
      throw new RangeError(
        `kendallW: rater ${j} ranks ${rater.ranks.length} items, rater 0 ranks ${n}; every rater must score the same items`,
      );
    for (let i = 0; i < n; i++) rankSums[i] += rater.ranks[i]!;
    tieTerm += rater.tieCubes;
  });
  const expected = (k * (n + 1)) / 2;
  let s = 0;
  for (let i = 0; i < n; i++) s += (rankSums[i]! - expected) ** 2;
  const denom = k * k * (n * n * n - n) - k * tieTerm;
  // Every rater gave every item the same score: no ranking to agree on.
  if (denom === 0) return NaN;
  return (12 * s) / denom;
}
