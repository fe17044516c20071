/**
 * Cohen's κ between two raters over items both rated, for any categorical labels:
 * κ = (p_o − p_e) / (1 − p_e), p_o the share of items rated alike, p_e = Σ_c p₁(c)·p₂(c) from
 * each rater's own label shares. (agreement.ts has the same statistic over the preference
 * choices A / B / tie; this one takes the labels as they come.)
 *
 * κ is undefined (NaN) when p_e = 1: both raters used one and the same label for everything.
 */

export interface KappaResult {
  kappa: number;
  /** p_o */
  observed: number;
  /** p_e */
  expected: number;
  /** Items rated by both. */
  n: number;
  /** The labels seen, sorted as strings. */
  labels: string[];
  /** Counts by [first rater's label][second rater's label], in the order of `labels`. */
  confusion: number[][];
}

export function cohensKappaOf(pairs: Iterable<readonly [string | number, string | number]>): KappaResult | null {
  const list = [...pairs].map(([a, b]) => [String(a), String(b)] as const);
  if (list.length === 0) return null;
  const labels = [...new Set(list.flat())].sort();
  const index = new Map(labels.map((l, i) => [l, i]));
  const confusion = labels.map(() => labels.map(() => 0));
  for (const [a, b] of list) confusion[index.get(a)!]![index.get(b)!]!++;
  const n = list.length;
  const observed = labels.reduce((s, _, i) => s + confusion[i]![i]!, 0) / n;
  let expected = 0;
  for (let c = 0; c < labels.length; c++) {
    const first = confusion[c]!.reduce((x, y) => x + y, 0) / n;
    const second = confusion.reduce((x, row) => x + row[c]!, 0) / n;
    expected += first * second;
  }
  const kappa = expected === 1 ? NaN : (observed - expected) / (1 - expected);
  return { kappa, observed, expected, n, labels, confusion };
}
