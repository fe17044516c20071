/**
 * Rows as they cross to a worker thread: column by column. Structured clone writes every key of
 * every row object; a partition of a statistic holds 10^5 rows of the same few columns, and at
 * the paper's size those copies were 9 % of the main thread's time (postMessage, profiled). As
 * columns, each key crosses once, and a column of numbers as one Float64Array.
 *
 * Rows come back the same: the same keys in the same order, the same values. Rows whose keys
 * differ in name or order from the first row's cross as they are.
 */
import type { Row } from '../dag/define.ts';

export interface RowColumns {
  columns: string[];
  values: (unknown[] | Float64Array)[];
  length: number;
}

export type CrossingRows = Row[] | RowColumns;

/** Below this many rows the copy is cheap either way. */
const MIN_ROWS = 32;

/** Whether every row has exactly `columns`, in that order. */
function sameKeys(rows: readonly Row[], columns: readonly string[]): boolean {
  for (const r of rows) {
    let i = 0;
    for (const k in r) if (k !== columns[i++]) return false;
    if (i !== columns.length) return false;
  }
  return true;
}

function column(rows: readonly Row[], c: string): unknown[] | Float64Array {
  const out = new Array<unknown>(rows.length);
  let numbers = true;
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i]![c];
    out[i] = v;
    if (typeof v !== 'number') numbers = false;
  }
  return numbers ? Float64Array.from(out as number[]) : out;
}

export function toColumns(rows: readonly Row[]): CrossingRows {
  if (rows.length < MIN_ROWS) return rows as Row[];
  const columns = Object.keys(rows[0]!);
  if (!sameKeys(rows, columns)) return rows as Row[];
  return { columns, values: columns.map((c) => column(rows, c)), length: rows.length };
}

export function fromColumns(x: CrossingRows): Row[] {
  if (Array.isArray(x)) return x;
  const { columns, values, length } = x;
  const rows = new Array<Row>(length);
  for (let i = 0; i < length; i++) {
    const r: Row = {};
    for (let c = 0; c < columns.length; c++) r[columns[c]!] = values[c]![i];
    rows[i] = r;
  }
  return rows;
}

/** Each input's rows, as they cross. */
export function inputsToColumns(inputs: Record<string, readonly Row[]>): Record<string, CrossingRows> {
  return Object.fromEntries(Object.entries(inputs).map(([n, r]) => [n, toColumns(r)]));
}

export function inputsFromColumns(inputs: Record<string, CrossingRows>): Record<string, Row[]> {
  return Object.fromEntries(Object.entries(inputs).map(([n, r]) => [n, fromColumns(r)]));
}
