/**
 * The step-level consistency matrix every pathway metric starts from: C[i][j] in [0, 1] scores
 * how well reference step i is matched by predicted step j (m reference steps, n predicted
 * steps), stored row-major in a Float64Array of length m·n. The metrics share one validation so
 * that a bad judge output fails the same way, with the same message, whichever metric sees it.
 */

/**
 * Throws unless C is a well-formed m×n consistency matrix. m = 0 is always an error (a pathway
 * without reference steps cannot be scored: the case itself is broken); n = 0 is allowed (an
 * empty prediction, e.g. a failed dialogue) and each metric maps it to its worst value.
 */
export function checkConsistencyMatrix(C: Float64Array, m: number, n: number, metric: string): void {
  if (!Number.isInteger(m) || m < 0 || !Number.isInteger(n) || n < 0) {
    throw new RangeError(`${metric}: m and n must be non-negative integers, got m=${m}, n=${n}`);
  }
  if (m === 0) {
    throw new RangeError(
      `${metric}: m = 0 (empty reference pathway) is an input error; every case needs at least one reference step — check the reference CDP of this case`,
    );
  }
  if (C.length !== m * n) {
    throw new RangeError(
      `${metric}: C has ${C.length} entries but m·n = ${m}·${n} = ${m * n}; pass the matrix row-major with its true shape`,
    );
  }
  for (let k = 0; k < C.length; k++) {
    const c = C[k]!;
    // Written as a negated range test so that NaN fails it too.
    if (!(c >= 0 && c <= 1)) {
      const i = Math.floor(k / n);
      const j = k - i * n;
      throw new RangeError(
        `${metric}: C[${i}][${j}] = ${c} is ${Number.isNaN(c) ? 'NaN' : 'outside [0, 1]'}; consistency scores must lie in [0, 1] — rescale or fix the judge output`,
      );
    }
  }
}

/**
 * Converts a JSON matrix (array of m rows, each an array of n numbers) to the row-major form.
 * m is the number of rows, so an empty prediction is written as m empty rows: [[], [], …].
 */
export function matrixFromRows(rows: unknown, what = 'C'): { C: Float64Array; m: number; n: number } {
  if (!Array.isArray(rows))
    throw new TypeError(`${what} must be an array of rows (m reference steps × n predicted steps), got ${typeof rows}`);
  const m = rows.length;
  if (m === 0) {
    throw new RangeError(
      `${what} has no rows: m = 0 (empty reference pathway) is an input error; an empty prediction is written as m empty rows [[], …]`,
    );
  }
  const first = rows[0];
  if (!Array.isArray(first)) throw new TypeError(`${what}[0] must be an array of numbers, got ${JSON.stringify(first)}`);
  const n = first.length;
  const C = new Float64Array(m * n);
  for (let i = 0; i < m; i++) {
    const row: unknown = rows[i];
    if (!Array.isArray(row)) throw new TypeError(`${what}[${i}] must be an array of numbers, got ${JSON.stringify(row)}`);
    if (row.length !== n)
      throw new RangeError(`${what}[${i}] has ${row.length} entries but ${what}[0] has ${n}; every row needs one score per predicted step`);
    for (let j = 0; j < n; j++) {
      const v: unknown = row[j];
      if (typeof v !== 'number') throw new TypeError(`${what}[${i}][${j}] must be a number in [0, 1], got ${JSON.stringify(v)}`);
      C[i * n + j] = v;
    }
  }
  return { C, m, n };
}
