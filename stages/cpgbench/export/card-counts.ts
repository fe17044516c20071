/**
 * Counting helpers of CPGBench's export cards, over exported or recorded rows: how many rows
 * hold each value of a column, said as a sentence part ("2015 (7 rows)", "5 (6 rows) and 3
 * (4 rows) (mixed)"), and failures by kind. Pure.
 */
import type { Row } from '../../export/export-db.ts';

export interface ValueCount {
  value: string;
  n: number;
}

const NUMBER = /^-?\d+(\.\d+)?$/;
/** Numbers in numeric order, anything else as text. */
const byValue = (a: string, b: string) => (NUMBER.test(a) && NUMBER.test(b) ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0);

const present = (v: unknown) => v !== null && v !== undefined;

/** Each non-null value of `key` with its row count, in the values' order. */
export function valueCounts(rows: readonly Row[], key: string): ValueCount[] {
  const n = new Map<string, number>();
  for (const r of rows) if (present(r[key])) n.set(String(r[key]), (n.get(String(r[key])) ?? 0) + 1);
  return [...n].map(([value, count]) => ({ value, n: count })).sort((a, b) => byValue(a.value, b.value));
}

export const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;

/** "2015 (7 document rows)"; several values "… and … (mixed)"; null when no row records it. */
export function valuesText(counts: readonly ValueCount[], rowWord: string, format: (v: string) => string = (v) => v): string | null {
  if (!counts.length) return null;
  const parts = counts.map((c) => `${format(c.value)} (${plural(c.n, rowWord)})`);
  return counts.length === 1 ? parts[0]! : `${parts.join(' and ')} (mixed)`;
}

/** Failures by kind (`failure_kind`, else "error" for a failure row without one): "server 2, answer 1", or "none". */
export function failureText(rows: readonly Row[]): string {
  const n = new Map<string, number>();
  for (const r of rows) {
    if (!present(r.failure_kind) && !present(r.error)) continue;
    const k = present(r.failure_kind) ? String(r.failure_kind) : 'error';
    n.set(k, (n.get(k) ?? 0) + 1);
  }
  return n.size ? [...n].map(([k, c]) => `${k} ${c}`).join(', ') : 'none';
}

/** A number as the card prints it ("128,000"). */
export const numberText = (v: string) => (/^\d+$/.test(v) ? Number(v).toLocaleString('en') : v);
