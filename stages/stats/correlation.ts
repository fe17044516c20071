/**
 * Pearson r, Spearman ρ and Kendall τ-b between two paired samples (paper §4.5, Table 2).
 *
 * Input policy: both arrays must have the same length ≥ 2 and hold only finite numbers;
 * anything else throws, naming the array and the first bad index, because a silently
 * shortened sample would change n without anyone noticing. Drop incomplete pairs first.
 * When a correlation is undefined because one side is constant, the result is NaN (as in
 * SciPy), not an exception: a constant metric is a finding, not a bug in the caller.
 */
import { rankSample } from './ranks.ts';
import type { RankedSample } from './ranks.ts';

function checkPair(x: Float64Array, y: Float64Array, where: string): void {
  if (x.length !== y.length) throw new RangeError(`${where}: x has ${x.length} values but y has ${y.length}; pass paired samples`);
  if (x.length < 2) throw new RangeError(`${where}: need at least 2 pairs, got ${x.length}`);
  for (const [name, v] of [
    ['x', x],
    ['y', y],
  ] as const) {
    for (let i = 0; i < v.length; i++) {
      if (!Number.isFinite(v[i])) throw new RangeError(`${where}: ${name}[${i}] is ${v[i]}; drop incomplete pairs before correlating`);
    }
  }
}

function pearsonUnchecked(x: Float64Array, y: Float64Array): number {
  const n = x.length;
  let mx = 0,
    my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0,
    sxx = 0,
    syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx,
      dy = y[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return NaN;
  // Rounding can push |r| a hair past 1 for perfectly linear data.
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

export function pearson(x: Float64Array, y: Float64Array): number {
  checkPair(x, y, 'pearson');
  return pearsonUnchecked(x, y);
}

/** Pearson correlation of the average ranks (ties share their mean rank). */
export function spearman(x: Float64Array, y: Float64Array): number {
  checkPair(x, y, 'spearman');
  return spearmanOfRanked(rankSample(x), rankSample(y));
}

/** Spearman ρ from samples ranked once with rankSample (for tables that reuse a sample). */
export function spearmanOfRanked(rx: RankedSample, ry: RankedSample): number {
  if (rx.ranks.length !== ry.ranks.length)
    throw new RangeError(`spearman: samples of ${rx.ranks.length} and ${ry.ranks.length} ranks; pass paired samples`);
  return pearsonUnchecked(rx.ranks, ry.ranks);
}

/** Number of inversions (i < j with a[i] > a[j]) of `a`, which is sorted in place. */
function countInversions(a: Float64Array): number {
  const n = a.length;
  let src: Float64Array = a,
    dst: Float64Array = new Float64Array(n);
  let swaps = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n),
        hi = Math.min(lo + 2 * width, n);
      let i = lo,
        j = mid,
        k = lo;
      while (i < mid && j < hi) {
        // Equal values are taken from the left: ties are not discordant.
        if (src[j]! < src[i]!) {
          swaps += mid - i;
          dst[k++] = src[j++]!;
        } else dst[k++] = src[i++]!;
      }
      while (i < mid) dst[k++] = src[i++]!;
      while (j < hi) dst[k++] = src[j++]!;
    }
    [src, dst] = [dst, src];
  }
  if (src !== a) a.set(src);
  return swaps;
}

/**
 * Kendall τ-b in O(n log n) (Knight 1966): order the pairs by (x, y); count pairs tied in x
 * (n1) and tied in both (n3); a merge sort of the y sequence counts the discordant pairs D
 * as inversions; then the ties in y (n2). With n0 = n(n−1)/2,
 * C − D = n0 − n1 − n2 + n3 − 2D and τ_b = (C − D) / √((n0 − n1)(n0 − n2)).
 * τ_b depends only on the orderings, so it is computed on the average ranks: 2·rank is an
 * integer ≤ 2n, so (2·rank_x, 2·rank_y) packs into one exact float64 key and the (x, y) order
 * is a native numeric sort of those keys. All counts are integers below 2^53, so exact.
 */
export function kendallTauB(x: Float64Array, y: Float64Array): number {
  checkPair(x, y, 'kendallTauB');
  return kendallTauBOfRanked(rankSample(x), rankSample(y));
}

/** Kendall τ-b from samples ranked once with rankSample. */
export function kendallTauBOfRanked(rx: RankedSample, ry: RankedSample): number {
  const n = rx.ranks.length;
  if (ry.ranks.length !== n) throw new RangeError(`kendallTauB: samples of ${n} and ${ry.ranks.length} ranks; pass paired samples`);
  if (n > 4e7) throw new RangeError(`kendallTauB: ${n} pairs is beyond the exact packed-key range (4·10^7); split the sample`);
  const base = 2 * n + 2;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = 2 * rx.ranks[i]! * base + 2 * ry.ranks[i]!;
  keys.sort();
  const xs = new Float64Array(n),
    ys = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let xk = Math.floor(keys[k]! / base);
    if (keys[k]! - xk * base < 0) xk--; // the quotient rounded up
    xs[k] = xk;
    ys[k] = keys[k]! - xk * base;
  }
  const pairs = (t: number) => (t * (t - 1)) / 2;
  let n1 = 0,
    n3 = 0;
  for (let lo = 0, k = 1; k <= n; k++) {
    if (k === n || xs[k] !== xs[lo]) {
      n1 += pairs(k - lo);
      lo = k;
    }
  }
  for (let lo = 0, k = 1; k <= n; k++) {
    if (k === n || keys[k] !== keys[lo]) {
      n3 += pairs(k - lo);
      lo = k;
    }
  }
  const n0 = pairs(n);
  const n2 = ry.tiedPairs;
  const discordant = countInversions(ys);
  const denom = (n0 - n1) * (n0 - n2);
  if (denom === 0) return NaN;
  const tau = (n0 - n1 - n2 + n3 - 2 * discordant) / Math.sqrt(denom);
  return Math.max(-1, Math.min(1, tau));
}

export interface Correlations {
  pearson: number;
  spearman: number;
  kendallTauB: number;
  n: number;
}

/** All three at once; pass samples already ranked with rankSample to skip ranking them again. */
export function correlations(x: Float64Array, y: Float64Array, ranked?: { x: RankedSample; y: RankedSample }): Correlations {
  checkPair(x, y, 'correlations');
  const rx = ranked?.x ?? rankSample(x),
    ry = ranked?.y ?? rankSample(y);
  if (rx.ranks.length !== x.length || ry.ranks.length !== y.length)
    throw new RangeError('correlations: the ranked samples do not match x and y in length; rank the same arrays');
  return { pearson: pearsonUnchecked(x, y), spearman: spearmanOfRanked(rx, ry), kendallTauB: kendallTauBOfRanked(rx, ry), n: x.length };
}
