/**
 * Ranks for rank statistics. Values must be finite (callers check, naming their input).
 * -0 and +0 are the same value here, as they are for SciPy.
 */

/** Ascending copy, via the native numeric sort of typed arrays. */
export function sortedCopy(values: Float64Array): Float64Array {
  return Float64Array.from(values).sort();
}

/** First index of `sorted` holding a value ≥ v. */
function lowerBound(sorted: Float64Array, v: number): number {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index of `sorted` holding a value > v. */
function upperBound(sorted: Float64Array, v: number): number {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * 1-based ranks, ties given the average of the ranks they span (SciPy's rankdata 'average'):
 * a value whose tie block occupies sorted positions [lo, hi) gets (lo + 1 + hi) / 2.
 */
export function averageRanks(values: Float64Array): Float64Array {
  const sorted = sortedCopy(values);
  const ranks = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    ranks[i] = (lowerBound(sorted, v) + 1 + upperBound(sorted, v)) / 2;
  }
  return ranks;
}

/**
 * 0-based "min" ranks (the sorted position of the first equal value): equal values get equal
 * integers, order is preserved, and every rank is < n, so pairs of ranks pack into one exact
 * float64 key (rank_x · n + rank_y < 2^53 for n < 9·10^7).
 */
export function minRanks(values: Float64Array): Int32Array {
  const sorted = sortedCopy(values);
  const ranks = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) ranks[i] = lowerBound(sorted, values[i]!);
  return ranks;
}

/** Σ over tie groups of f(t), t the group size, from an ascending array. */
export function sumOverTieGroups(sorted: ArrayLike<number>, f: (t: number) => number): number {
  let total = 0;
  let start = 0;
  for (let i = 1; i <= sorted.length; i++) {
    if (i === sorted.length || sorted[i] !== sorted[start]) {
      total += f(i - start);
      start = i;
    }
  }
  return total;
}
