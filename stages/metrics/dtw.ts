/**
 * DTW pathway consistency cost (paper §3.3, Eq. 1–2): the cheapest monotone, continuous
 * alignment of the m reference steps with the n predicted steps under D = 1 − C, from (0,0) to
 * (m−1,n−1) with steps (i−1,j), (i,j−1), (i−1,j−1); PCC = cost / K, K = number of cells on it.
 *
 * Tie rule. Several alignments can share the minimal cost with different lengths K, and then
 * cost/K is not determined by "the optimal path". We take, among cost-optimal paths, the
 * SHORTEST one (then, among equal (cost, K), prefer diagonal, then up = (i−1,j), then
 * left = (i,j−1), which only picks which path is reported, never the PCC). Why shortest:
 *  - it is a property of the set of optimal paths, not of a backtracking order, so PCC(C) =
 *    PCC(Cᵀ) and any correct implementation gets the same number;
 *  - an alignment cannot lower its mean cost by padding itself with extra zero-cost cells
 *    (a redundant predicted step that repeats a matched one); the shortest path is the most
 *    parsimonious alignment and gives the conservative (largest) PCC among optimal ones;
 *  - it agrees with the usual "prefer the diagonal" backtrack wherever that is unambiguous.
 * The lexicographic order on (cost, K) is compatible with adding a cell, so the DP is exact.
 * Costs within TIE_EPS count as equal: sums of the same judge scores in different orders differ
 * in the last bits, and discrete LLM scores (0.1 steps) make exact ties the common case.
 *
 * Empty prediction (n = 0): pcc = 1 (worst), cost = 0, K = 0, empty path — there is no
 * alignment to report. m = 0 throws.
 */
import { checkConsistencyMatrix } from './consistency-matrix.ts';

export interface DtwResult {
  pcc: number;
  cost: number;
  K: number;
  /** Flat [i0, j0, i1, j1, …], 0-based, from (0,0) to (m−1,n−1). */
  path: Int32Array;
}

/** Two accumulated costs closer than this are a tie (far above summation error, far below any real difference). */
export const TIE_EPS = 1e-10;

const DIAG = 0;
const UP = 1;
const LEFT = 2;

// Grow-only scratch shared by calls: the metric runs ~10^6 times per evaluation and these are
// dead as soon as the path is extracted, so reusing them keeps the GC out of the hot loop.
let accBuf = new Float64Array(64);
let lenBuf = new Int32Array(64);
let moveBuf = new Uint8Array(64);

function ensureScratch(size: number): void {
  if (accBuf.length >= size) return;
  let cap = accBuf.length;
  while (cap < size) cap *= 2;
  accBuf = new Float64Array(cap);
  lenBuf = new Int32Array(cap);
  moveBuf = new Uint8Array(cap);
}

export function dtw(C: Float64Array, m: number, n: number): DtwResult {
  checkConsistencyMatrix(C, m, n, 'dtw');
  if (n === 0) return { pcc: 1, cost: 0, K: 0, path: new Int32Array(0) };
  ensureScratch(m * n);
  // Locals, not the module bindings: V8 keeps locals in registers across the hot loop.
  const acc = accBuf;
  const len = lenBuf;
  const move = moveBuf;

  for (let i = 0; i < m; i++) {
    const row = i * n;
    for (let j = 0; j < n; j++) {
      const k = row + j;
      const d = 1 - C[k]!;
      if (i === 0 && j === 0) {
        acc[k] = d;
        len[k] = 1;
        continue;
      }
      // Candidates in tie-break order: diagonal, up, left.
      let bestCost = Infinity;
      let bestLen = 0;
      let bestMove = DIAG;
      let minCost = Infinity;
      if (i > 0 && j > 0) minCost = acc[k - n - 1]!;
      if (i > 0 && acc[k - n]! < minCost) minCost = acc[k - n]!;
      if (j > 0 && acc[k - 1]! < minCost) minCost = acc[k - 1]!;
      const limit = minCost + TIE_EPS;
      if (i > 0 && j > 0 && acc[k - n - 1]! <= limit) {
        bestCost = acc[k - n - 1]!;
        bestLen = len[k - n - 1]!;
        bestMove = DIAG;
      }
      if (i > 0 && acc[k - n]! <= limit && (bestLen === 0 || len[k - n]! < bestLen)) {
        bestCost = acc[k - n]!;
        bestLen = len[k - n]!;
        bestMove = UP;
      }
      if (j > 0 && acc[k - 1]! <= limit && (bestLen === 0 || len[k - 1]! < bestLen)) {
        bestCost = acc[k - 1]!;
        bestLen = len[k - 1]!;
        bestMove = LEFT;
      }
      acc[k] = bestCost + d;
      len[k] = bestLen + 1;
      move[k] = bestMove;
    }
  }

  const last = m * n - 1;
  const K = len[last]!;
  const cost = acc[last]!;
  const path = new Int32Array(2 * K);
  let i = m - 1;
  let j = n - 1;
  for (let p = K - 1; p >= 0; p--) {
    path[2 * p] = i;
    path[2 * p + 1] = j;
    if (p === 0) break;
    const mv = move[i * n + j]!;
    if (mv === DIAG) {
      i--;
      j--;
    } else if (mv === UP) i--;
    else j--;
  }
  return { pcc: cost / K, cost, K, path };
}
