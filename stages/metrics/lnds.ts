/**
 * LNDS pathway consistency score (paper Appendix B.2, Eq. 7). Each reference step i is matched
 * to its best predicted step j_i = argmax_j C[i][j] (ties: the first such j) and the match is
 * kept only if C[i][j_i] ≥ γ (the judge's calibrated threshold, paper §4.4). The kept j_i, in
 * reference order, form a sequence; PCS = (length of its longest non-decreasing subsequence)/m.
 * Unmatched reference steps count against the score through the division by m.
 *
 * Non-decreasing, not increasing: two reference steps answered by the same predicted step
 * (a predicted step that merges them) are still in order.
 *
 * Empty prediction (n = 0): pcs = 0 (worst), nothing matched. m = 0 throws.
 */
import { checkConsistencyMatrix } from './consistency-matrix.ts';

export interface LndsResult {
  pcs: number;
  /** Length m′ of the longest non-decreasing subsequence. */
  length: number;
  /** Per reference step: the kept argmax predicted step, or −1 if its best score is below γ. */
  matches: Int32Array;
}

let tails = new Int32Array(64);

export function lndsPcs(C: Float64Array, m: number, n: number, gamma: number): LndsResult {
  checkConsistencyMatrix(C, m, n, 'lnds');
  if (!(gamma >= 0 && gamma <= 1)) {
    throw new RangeError(`lnds: gamma = ${gamma} must be a threshold in [0, 1] (see judge-params.ts for per-judge values)`);
  }
  const matches = new Int32Array(m).fill(-1);
  if (n === 0) return { pcs: 0, length: 0, matches };
  if (tails.length < m) tails = new Int32Array(Math.max(m, 2 * tails.length));

  // Patience sorting: tails[k] is the smallest possible last element of a non-decreasing
  // subsequence of length k+1 seen so far. An element x extends the first pile whose tail is
  // strictly greater than x (upper bound), which is what makes equal values chain.
  let piles = 0;
  for (let i = 0; i < m; i++) {
    const row = i * n;
    let best = 0;
    let bestC = C[row]!;
    for (let j = 1; j < n; j++) {
      if (C[row + j]! > bestC) {
        bestC = C[row + j]!;
        best = j;
      }
    }
    if (!(bestC >= gamma)) continue;
    matches[i] = best;
    let lo = 0;
    let hi = piles;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (tails[mid]! <= best) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = best;
    if (lo === piles) piles++;
  }
  return { pcs: piles / m, length: piles, matches };
}
