/**
 * A partitioned table stage's inputs cut into its partitions (see `Partitioning` in
 * dag/stage.ts): which partition each row of a partitioned input belongs to, each partition's
 * rows, and a content hash of each partition's rows. Pure functions over rows; the runner
 * (partitioned-stage.ts) decides from the hashes which partitions to compute.
 */
import { createHash } from 'node:crypto';
import type { Row } from '../dag/define.ts';
import type { PartitionKeyOf } from '../dag/stage.ts';
import { canonicalJson } from '../hash/canonical.ts';

export interface Partition {
  /** The partition's key, as the stage's `by` made it. */
  key: string;
  /** Per partitioned input, its rows in this partition, in the input's order. */
  rows: Record<string, Row[]>;
  /** sha256 over the key and each partitioned input's rows (of its `reads`, its columns) in canonical JSON. */
  content: string;
}

/** The keys a `by` entry gives one row: the JSON of its columns' values, or the function's key(s). */
export function keysOf<P>(by: PartitionKeyOf<P>, row: Row, params: P): readonly string[] {
  if (typeof by === 'function') {
    const k = by(row, params);
    return typeof k === 'string' ? [k] : k;
  }
  return [canonicalJson(by.map((c) => row[c] ?? null))];
}

/**
 * The partitions of these inputs, sorted by key (the order their rows are put together in). A
 * partition exists when some row of a partitioned input names it; the inputs not partitioned
 * are not here (they go whole to every partition, and their hash is in every partition's key).
 */
export function partitionRows<P>(
  stage: string,
  by: Readonly<Record<string, PartitionKeyOf<P>>>,
  inputs: Readonly<Record<string, readonly Row[]>>,
  params: P,
  reads: Readonly<Record<string, readonly string[]>> = {},
): Partition[] {
  const names = Object.keys(by).sort();
  const parts = new Map<string, Record<string, Row[]>>();
  for (const name of names) {
    const rows = inputs[name];
    if (!rows)
      throw new Error(`stage '${stage}': its partitioning names input '${name}', which it is not given; partition only its inputs`);
    for (const row of rows) {
      for (const key of keysOf(by[name]!, row, params)) {
        if (typeof key !== 'string')
          throw new TypeError(`stage '${stage}': the partition key of a row of '${name}' is ${JSON.stringify(key)}; a key is a string`);
        let part = parts.get(key);
        if (!part) parts.set(key, (part = Object.fromEntries(names.map((n) => [n, [] as Row[]]))));
        part[name]!.push(row);
      }
    }
  }
  return [...parts.keys()].sort().map((key) => {
    const rows = parts.get(key)!;
    return { key, rows, content: contentHash(key, names, rows, reads) };
  });
}

/**
 * Rows hashed as canonical JSON, each input's under its name; of an input the stage declares
 * `reads` of, only those columns (its rows may carry other stages' columns: a shared projection),
 * column by column: each column's values as one JSON array, which the native writer makes in one
 * call (row by row, the per-row arrays and strings were most of a statistic's hashing).
 */
function contentHash(
  key: string,
  names: readonly string[],
  rows: Record<string, Row[]>,
  reads: Readonly<Record<string, readonly string[]>>,
): string {
  const h = createHash('sha256').update(`cdp-partition-v2\n${JSON.stringify(key)}\n`);
  for (const name of names) {
    const list = rows[name]!;
    h.update(`${JSON.stringify(name)}:${list.length}\n`);
    if (reads[name]) {
      for (const c of [...reads[name]!].sort()) h.update(valuesJson(list.map((r) => r[c] ?? null)) + '\n');
      continue;
    }
    // Rows go to the hash in chunks: one update per row was a tenth of a statistic's run.
    let chunk = '';
    for (const r of list) {
      chunk += canonicalJson(r) + '\n';
      if (chunk.length > 1 << 16) {
        h.update(chunk);
        chunk = '';
      }
    }
    h.update(chunk);
  }
  return h.digest('hex');
}

const plain = (v: unknown) =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * canonicalJson of a list of values, by the native JSON.stringify when every value is plain (a
 * string, finite number, boolean, null, or an array of those), whose text is then the same.
 */
function valuesJson(values: readonly unknown[]): string {
  for (const v of values) if (!plain(v) && !(Array.isArray(v) && v.every(plain))) return canonicalJson(values);
  return JSON.stringify(values);
}
