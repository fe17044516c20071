/**
 * Rows as they cross to a worker thread: column by column. Structured clone writes every key of
 * every row object; a partition of a statistic holds 10^5 rows of the same few columns, and at
 * the paper's size those copies were 9 % of the main thread's time (postMessage, profiled). As
 * columns, each key crosses once, a column of numbers as one Float64Array, and a column of strings
 * that repeat (a setting, a model, a case id across its judges) as its distinct strings and one
 * Int32Array of indices: cloning 3 × 10^5 strings per input was the next 5 % of the main thread.
 *
 * Rows come back the same: the same keys in the same order, the same values. Rows whose keys
 * differ in name or order from the first row's cross as they are.
 */
import type { Row } from '../dag/define.ts';

/** A column of strings (and nulls) as its distinct strings and, per row, an index into them (−1: null). */
export interface DictionaryColumn {
  dictionary: string[];
  codes: Int32Array;
}

export interface RowColumns {
  columns: string[];
  values: (unknown[] | Float64Array | DictionaryColumn)[];
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

function column(rows: readonly Row[], c: string): unknown[] | Float64Array | DictionaryColumn {
  const out = new Array<unknown>(rows.length);
  let numbers = true,
    strings = true;
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i]![c];
    out[i] = v;
    if (typeof v !== 'number') numbers = false;
    if (typeof v !== 'string' && v !== null) strings = false;
  }
  if (numbers) return Float64Array.from(out as number[]);
  return (strings && dictionaryOf(out as (string | null)[])) || out;
}

/** The column as a dictionary, unless its strings repeat too little for one to pay (then null). */
function dictionaryOf(values: readonly (string | null)[]): DictionaryColumn | null {
  const index = new Map<string, number>();
  const dictionary: string[] = [];
  const codes = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v === null) {
      codes[i] = -1;
      continue;
    }
    let k = index.get(v);
    if (k === undefined) {
      index.set(v, (k = dictionary.length));
      dictionary.push(v);
      if (dictionary.length > values.length / 2) return null;
    }
    codes[i] = k;
  }
  return { dictionary, codes };
}

/** The column's value at each row, whatever form it crossed in. */
function decoded(column: unknown[] | Float64Array | DictionaryColumn): ArrayLike<unknown> {
  if (Array.isArray(column) || column instanceof Float64Array) return column;
  const { dictionary, codes } = column;
  const out = new Array<string | null>(codes.length);
  for (let i = 0; i < codes.length; i++) out[i] = codes[i]! < 0 ? null : dictionary[codes[i]!]!;
  return out;
}

export function toColumns(rows: readonly Row[]): CrossingRows {
  if (rows.length < MIN_ROWS) return rows as Row[];
  const columns = Object.keys(rows[0]!);
  if (!sameKeys(rows, columns)) return rows as Row[];
  return { columns, values: columns.map((c) => column(rows, c)), length: rows.length };
}

export function fromColumns(x: CrossingRows): Row[] {
  if (Array.isArray(x)) return x;
  const { columns, length } = x;
  const values = x.values.map(decoded);
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
