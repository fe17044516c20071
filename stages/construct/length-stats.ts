/**
 * CDP length statistics as in the paper's Table 4 and the per-length counts behind Figure 5.
 *
 * - Std. Dev. is the sample standard deviation (ddof = 1, divisor n − 1), the usual choice
 *   for describing a sample; it is NaN for fewer than two values.
 * - Percentiles use NumPy's default ("linear", Hyndman–Fan type 7): for sorted x of size n and
 *   q = p / 100, the virtual index is h = n·q + (1 − q) − 1 and the value interpolates between
 *   x[⌊h⌋] and x[⌊h⌋ + 1] the way NumPy's lerp does (from the upper neighbour when the weight
 *   is ≥ 0.5), so results match `np.percentile` to the last bit in practice.
 * - With no values at all every statistic is NaN (an empty split is reported, not an error).
 */

export const LENGTH_STATISTICS = ['Mean', 'Std. Dev.', 'Min', 'P5', 'P25', 'Median', 'P75', 'P95', 'Max'] as const;
export type LengthStatistic = (typeof LENGTH_STATISTICS)[number];

export type LengthSplit = 'full' | 'test' | 'non-test';
export const LENGTH_SPLITS: readonly LengthSplit[] = ['full', 'test', 'non-test'];

export interface LengthStatRow {
  split: LengthSplit;
  statistic: LengthStatistic;
  value: number;
}

export interface LengthHistogramRow {
  split: LengthSplit;
  length: number;
  count: number;
}

/** NumPy's default percentile of ascending-sorted values; p in [0, 100]. */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentileSorted: p must be in [0, 100], got ${p}`);
  const q = p / 100;
  const h = n * q + (1 - q) - 1;
  if (h <= 0) return sorted[0]!;
  if (h >= n - 1) return sorted[n - 1]!;
  const lo = Math.floor(h);
  const t = h - lo;
  const a = sorted[lo]!;
  const b = sorted[lo + 1]!;
  const d = b - a;
  return t >= 0.5 ? b - d * (1 - t) : a + d * t;
}

/** Table 4's nine statistics, in Table 4's order. */
export function lengthStatistics(lengths: ArrayLike<number>): Array<{ statistic: LengthStatistic; value: number }> {
  const x = Float64Array.from(lengths as ArrayLike<number>).sort();
  const n = x.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += x[i]!;
  const mean = n === 0 ? Number.NaN : sum / n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (x[i]! - mean) ** 2;
  const sd = n < 2 ? Number.NaN : Math.sqrt(ss / (n - 1));
  const values: Record<LengthStatistic, number> = {
    Mean: mean,
    'Std. Dev.': sd,
    Min: n === 0 ? Number.NaN : x[0]!,
    P5: percentileSorted(x, 5),
    P25: percentileSorted(x, 25),
    Median: percentileSorted(x, 50),
    P75: percentileSorted(x, 75),
    P95: percentileSorted(x, 95),
    Max: n === 0 ? Number.NaN : x[n - 1]!,
  };
  return LENGTH_STATISTICS.map((statistic) => ({ statistic, value: values[statistic] }));
}

function lengthsBySplit(cdps: readonly { length: number; split: 'test' | 'non-test' }[]): Record<LengthSplit, number[]> {
  const out: Record<LengthSplit, number[]> = { full: [], test: [], 'non-test': [] };
  for (const c of cdps) {
    if (c.split !== 'test' && c.split !== 'non-test') {
      throw new Error(
        `cdp length statistics: split ${JSON.stringify(c.split)} is neither 'test' nor 'non-test'; assign splits before computing statistics`,
      );
    }
    out.full.push(c.length);
    out[c.split].push(c.length);
  }
  return out;
}

/** Rows of `cdp_length_stats`: every statistic for the full set and each split. */
export function cdpLengthStats(cdps: readonly { length: number; split: 'test' | 'non-test' }[]): LengthStatRow[] {
  const groups = lengthsBySplit(cdps);
  return LENGTH_SPLITS.flatMap((split) => lengthStatistics(groups[split]).map((r) => ({ split, ...r })));
}

/**
 * Figure 5's counts: for each split, how many CDPs have each length, for every integer length
 * from the smallest to the largest seen in the full set (zeros included, so bars line up).
 */
export function lengthHistogram(cdps: readonly { length: number; split: 'test' | 'non-test' }[]): LengthHistogramRow[] {
  const groups = lengthsBySplit(cdps);
  if (groups.full.length === 0) return [];
  let min = Infinity;
  let max = -Infinity;
  for (const l of groups.full) {
    if (!Number.isInteger(l) || l < 0) throw new Error(`lengthHistogram: CDP length ${l} is not a non-negative integer`);
    if (l < min) min = l;
    if (l > max) max = l;
  }
  const rows: LengthHistogramRow[] = [];
  for (const split of LENGTH_SPLITS) {
    const counts = new Uint32Array(max - min + 1);
    for (const l of groups[split]) counts[l - min]!++;
    for (let i = 0; i < counts.length; i++) rows.push({ split, length: min + i, count: counts[i]! });
  }
  return rows;
}
