/**
 * Threshold analysis for step-level matching (paper §4.4, Figure 4). Each row is one reference
 * step: the judge's consistency score C of its best-matched predicted step, and whether a
 * human said that match is correct. For each threshold t of a grid, "C ≥ t" is a predicted
 * match, scored by F1 against the human labels, per judge and per (judge, model).
 *
 * Documented choices:
 * - Comparison: C ≥ t − 1e-9, so a score that is a grid point up to floating-point noise
 *   (0.7 from averaged Likert scores, 0.15 from 3 × 0.05) counts as reaching it.
 * - Precision, recall and F1 are 0 when their denominator is 0 (nothing predicted, or no
 *   human positives), as scikit-learn's zero_division default does.
 * - Best threshold: the highest F1; ties go to the smallest t.
 * - Stable region: the maximal contiguous run of grid points containing the best threshold
 *   whose F1 is at least best F1 − tolerance (default 0.02 F1 points).
 * - Common region of a judge: the intersection of its models' stable regions (null if they
 *   do not overlap); the paper picks the judge's threshold from the best and this region.
 */

export interface ThresholdRow {
  judge: string;
  model: string;
  /** Consistency score C of the best-matched pair, in [0, 1]. */
  score: number;
  /** The human's verdict: is the best match a correct match? */
  human: boolean;
}

export interface ThresholdPoint {
  t: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface ThresholdCurve {
  judge: string;
  /** null for the curve over all of a judge's models. */
  model: string | null;
  n: number;
  /** Rows the humans marked as correct matches. */
  positives: number;
  points: ThresholdPoint[];
  best: { t: number; f1: number };
  stable: { low: number; high: number };
}

export interface ThresholdOptions {
  /** Ascending thresholds; default thresholdGrid() = 0.00, 0.05, …, 1.00. */
  grid?: readonly number[];
  /** How far below the best F1 still counts as stable; default 0.02. */
  tolerance?: number;
}

export interface ThresholdAnalysis {
  perJudge: ThresholdCurve[];
  perJudgeModel: ThresholdCurve[];
  /** Per judge, the intersection of its models' stable regions. */
  common: { judge: string; region: { low: number; high: number } | null }[];
}

const EPS = 1e-9;

/** from, from + step, …, to, rounded to 10 decimals so 0.15 is 0.15 and not 0.15000000000000002. */
export function thresholdGrid(step = 0.05, from = 0, to = 1): number[] {
  if (!(step > 0)) throw new RangeError(`thresholdGrid: step must be > 0, got ${step}`);
  const count = Math.floor((to - from) / step + EPS);
  return Array.from({ length: count + 1 }, (_, i) => Math.round((from + i * step) * 1e10) / 1e10);
}

function checkGrid(grid: readonly number[]): void {
  if (grid.length === 0) throw new RangeError('threshold analysis: the grid is empty');
  for (let i = 0; i < grid.length; i++) {
    if (!Number.isFinite(grid[i]!)) throw new RangeError(`threshold analysis: grid[${i}] is ${grid[i]}`);
    if (i > 0 && !(grid[i]! > grid[i - 1]!))
      throw new RangeError(`threshold analysis: the grid must be strictly ascending (grid[${i}] = ${grid[i]} after ${grid[i - 1]})`);
  }
}

/**
 * Per grid index k, the rows whose highest grid point reached (score ≥ t − EPS) is k, split by the
 * human's verdict. One pass and a binary search per row instead of one pass per grid point: at
 * the paper's scale a judge's curves see millions of labelled steps. The grid ascends strictly, so
 * the points a row reaches are a prefix of it, and the counts are exactly those of testing each point.
 */
function reachedCounts(
  rows: readonly Pick<ThresholdRow, 'score' | 'human'>[],
  grid: readonly number[],
): { positives: number; reachedTp: Int32Array; reachedFp: Int32Array } {
  const reachedTp = new Int32Array(grid.length),
    reachedFp = new Int32Array(grid.length);
  let positives = 0;
  for (const r of rows) {
    if (r.human) positives++;
    // The highest k with score ≥ grid[k] − EPS, or −1.
    let lo = 0,
      hi = grid.length - 1,
      k = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (r.score >= grid[mid]! - EPS) {
        k = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (k < 0) continue;
    if (r.human) reachedTp[k]!++;
    else reachedFp[k]!++;
  }
  return { positives, reachedTp, reachedFp };
}

/** The F1 curve, best threshold and stable region of one set of rows. */
export function thresholdCurve(
  rows: readonly Pick<ThresholdRow, 'score' | 'human'>[],
  opts: ThresholdOptions = {},
): Omit<ThresholdCurve, 'judge' | 'model'> {
  const grid = opts.grid ?? thresholdGrid();
  const tolerance = opts.tolerance ?? 0.02;
  checkGrid(grid);
  if (!(tolerance >= 0)) throw new RangeError(`threshold analysis: tolerance must be ≥ 0, got ${tolerance}`);
  rows.forEach((r, i) => {
    if (!Number.isFinite(r.score))
      throw new RangeError(`threshold analysis: row ${i} has score ${r.score}; every labelled step needs a numeric C`);
  });
  const { positives, reachedTp, reachedFp } = reachedCounts(rows, grid);
  // A row predicted at grid point k is predicted at every lower one: counts accumulate from the top.
  const points: ThresholdPoint[] = new Array<ThresholdPoint>(grid.length);
  let tp = 0,
    fp = 0;
  for (let k = grid.length - 1; k >= 0; k--) {
    tp += reachedTp[k]!;
    fp += reachedFp[k]!;
    const t = grid[k]!;
    const fn = positives - tp,
      tn = rows.length - positives - fp;
    const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
    points[k] = { t, tp, fp, fn, tn, precision: ratio(tp, tp + fp), recall: ratio(tp, tp + fn), f1: ratio(2 * tp, 2 * tp + fp + fn) };
  }
  let bestIndex = 0;
  points.forEach((p, i) => {
    if (p.f1 > points[bestIndex]!.f1) bestIndex = i;
  });
  const best = points[bestIndex]!;
  // Rounding noise must not split a run of F1 values that are equal on paper.
  const floor = best.f1 - tolerance - 1e-12;
  let lo = bestIndex,
    hi = bestIndex;
  while (lo > 0 && points[lo - 1]!.f1 >= floor) lo--;
  while (hi < points.length - 1 && points[hi + 1]!.f1 >= floor) hi++;
  return { n: rows.length, positives, points, best: { t: best.t, f1: best.f1 }, stable: { low: points[lo]!.t, high: points[hi]!.t } };
}

function byName<T>(groups: Map<string, T>): [string, T][] {
  return [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Curves per judge and per (judge, model), each in name order (the rows' order does not matter). */
export function thresholdAnalysis(rows: readonly ThresholdRow[], opts: ThresholdOptions = {}): ThresholdAnalysis {
  const byJudge = new Map<string, ThresholdRow[]>();
  const byJudgeModel = new Map<string, Map<string, ThresholdRow[]>>();
  for (const r of rows) {
    if (!byJudge.has(r.judge)) {
      byJudge.set(r.judge, []);
      byJudgeModel.set(r.judge, new Map());
    }
    byJudge.get(r.judge)!.push(r);
    const models = byJudgeModel.get(r.judge)!;
    if (!models.has(r.model)) models.set(r.model, []);
    models.get(r.model)!.push(r);
  }
  const perJudge: ThresholdCurve[] = [];
  const perJudgeModel: ThresholdCurve[] = [];
  const common: ThresholdAnalysis['common'] = [];
  for (const [judge, judgeRows] of byName(byJudge)) {
    perJudge.push({ judge, model: null, ...thresholdCurve(judgeRows, opts) });
    let low = -Infinity,
      high = Infinity;
    for (const [model, modelRows] of byName(byJudgeModel.get(judge)!)) {
      const curve: ThresholdCurve = { judge, model, ...thresholdCurve(modelRows, opts) };
      perJudgeModel.push(curve);
      low = Math.max(low, curve.stable.low);
      high = Math.min(high, curve.stable.high);
    }
    common.push({ judge, region: low <= high ? { low, high } : null });
  }
  return { perJudge, perJudgeModel, common };
}
