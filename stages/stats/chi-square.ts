/**
 * Pearson's χ² test of independence on an r × c contingency table (CPGBench §2.4: adherence
 * against specialty, one test per model), as scipy.stats.chi2_contingency(table, correction=False)
 * computes it: expected counts E_ij = row_i · col_j / N, statistic Σ (O − E)² / E, df = (r − 1)(c − 1),
 * p = Q(df/2, χ²/2), the regularised upper incomplete gamma function.
 *
 * No continuity correction: SciPy applies Yates' only when df = 1 and by default; the paper's
 * table has 24 rows. Rows and columns whose total is 0 are dropped first (a specialty without
 * items, or a task nobody passed), and the test is undefined (null, with the reason) when fewer
 * than two rows or two columns remain. The smallest expected count is returned so a reader can
 * see when the χ² approximation is weak (the usual rule: every E ≥ 5).
 */

export interface ChiSquareResult {
  statistic: number;
  df: number;
  p: number;
  n: number;
  /** Rows and columns kept (non-zero totals). */
  rows: number;
  columns: number;
  minExpected: number;
}

export type ChiSquareOutcome = { ok: true; value: ChiSquareResult } | { ok: false; reason: string };

export function chiSquareIndependence(table: readonly (readonly number[])[]): ChiSquareOutcome {
  const width = table[0]?.length ?? 0;
  for (const [i, row] of table.entries()) {
    if (row.length !== width) throw new RangeError(`chiSquareIndependence: row ${i} has ${row.length} cells, row 0 has ${width}`);
    for (const x of row) {
      if (!(Number.isFinite(x) && x >= 0))
        throw new RangeError(`chiSquareIndependence: row ${i} holds ${x}; counts must be finite and ≥ 0`);
    }
  }
  const rowTotals = table.map((r) => r.reduce((a, b) => a + b, 0));
  const colTotals = Array.from({ length: width }, (_, j) => table.reduce((s, r) => s + r[j]!, 0));
  const keptRows = table.map((_, i) => i).filter((i) => rowTotals[i]! > 0);
  const keptCols = colTotals.map((_, j) => j).filter((j) => colTotals[j]! > 0);
  if (keptRows.length < 2) return { ok: false, reason: `only ${keptRows.length} group(s) with items: nothing to compare` };
  if (keptCols.length < 2) return { ok: false, reason: 'every item has the same outcome: the proportions cannot differ' };
  const n = keptRows.reduce((s, i) => s + rowTotals[i]!, 0);
  let statistic = 0;
  let minExpected = Infinity;
  for (const i of keptRows) {
    for (const j of keptCols) {
      const e = (rowTotals[i]! * colTotals[j]!) / n;
      minExpected = Math.min(minExpected, e);
      statistic += (table[i]![j]! - e) ** 2 / e;
    }
  }
  const df = (keptRows.length - 1) * (keptCols.length - 1);
  return {
    ok: true,
    value: { statistic, df, p: chiSquareSurvival(statistic, df), n, rows: keptRows.length, columns: keptCols.length, minExpected },
  };
}

/** P(X ≥ x) for X ~ χ²(df): Q(df/2, x/2). */
export function chiSquareSurvival(x: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`chiSquareSurvival: df must be > 0, got ${df}`);
  if (!(x > 0)) return 1;
  return upperGammaQ(df / 2, x / 2);
}

/** ln Γ(a) for a > 0 (Lanczos, g = 7, n = 9: about 15 significant digits). */
export function lnGamma(a: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (a < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * a)) - lnGamma(1 - a);
  const z = a - 1;
  let s = c[0]!;
  for (let i = 1; i < 9; i++) s += c[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(s);
}

const EPS = 1e-16;
const MAX_ITER = 10000;

/**
 * The regularised upper incomplete gamma Q(a, x) = Γ(a, x) / Γ(a): by its series when x < a + 1
 * (Q = 1 − P), else by its continued fraction (modified Lentz), which keeps full relative
 * precision for the tiny p values of large statistics.
 */
export function upperGammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  const front = Math.exp(-x + a * Math.log(x) - lnGamma(a));
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let k = 1; k < MAX_ITER; k++) {
      term *= x / (a + k);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * EPS) break;
    }
    return 1 - front * sum;
  }
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_ITER; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return front * h;
}
