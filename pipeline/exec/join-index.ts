/**
 * The joined rows of the units to plan: for each joined input, its rows by join value, in the
 * input's order, with each row's hash (the sha256 of its canonical line, which is what it is
 * stored as). Only the values some unit to key needs are kept; segments whose zone holds none of
 * them are not read, and lines of other values are mostly skipped unparsed.
 */
import type { Row } from '../dag/define.ts';
import { hashValue, sha256 } from '../hash/canonical.ts';
import { segmentLines } from '../store/artifacts.ts';
import { anyInZone, joinValue, lineJoinValue, sortJoinValues, widen, type Zone } from './join-delta.ts';
import type { RowShape } from './row-shape.ts';
import type { ZoneBook } from './row-zones.ts';
import type { Input, PendingRow, PendingSegment } from './runner-types.ts';

export type JoinBuckets = Map<string, { rows: Row[]; hashes: string[] }>;

/** Whether a pending row is keyed here (not every one of its units' keys was taken from the part it replaces). */
export const keyedHere = (r: PendingRow): boolean => !r.known || r.known.includes(undefined);

/**
 * Each joined input's buckets, holding the values the rows to key join: the rows of one group of
 * pending segments (join-chunks.ts), so a segment of the joined input whose zone holds none of
 * them is not read.
 */
export function joinIndexes(store: string, shape: RowShape, pending: readonly PendingSegment[], zones: ZoneBook): Map<string, JoinBuckets> {
  const out = new Map<string, JoinBuckets>();
  for (const j of shape.joinNames) {
    const values = new Set<string>();
    for (const p of pending) for (const r of p.rows) if (keyedHere(r)) values.add(r.values[shape.joinAt[j]!]!);
    out.set(j, joinIndex(store, shape.inputs[j], shape.forEach.join![j], values, zones));
  }
  return out;
}

/** A joined input's rows of `values` by join value, learning each segment's zone as it is read. */
function joinIndex(store: string, input: Input, column: string, values: ReadonlySet<string>, zones: ZoneBook): JoinBuckets {
  const idx: JoinBuckets = new Map();
  const add = (k: string, r: Row, hash: string) => {
    let bucket = idx.get(k);
    if (!bucket) idx.set(k, (bucket = { rows: [], hashes: [] }));
    bucket.rows.push(r);
    bucket.hashes.push(hash);
  };
  if (!input.segments) {
    for (const r of input.rows()) {
      const k = joinValue(r, column);
      if (values.has(k)) add(k, r, hashValue(r));
    }
    return idx;
  }
  const sorted = sortJoinValues(values);
  for (const seg of input.segments) {
    const known = zones.of(seg.hash, column);
    if (known !== undefined && !anyInZone(sorted, known)) {
      zones.keep(seg.hash, column, known);
      continue;
    }
    // Read: its rows of the values, and its zone on the way.
    let zone: Zone = null;
    for (const line of segmentLines(store, input.from, seg.hash)) {
      const k = lineJoinValue(line, column);
      zone = widen(zone, k);
      if (values.has(k)) add(k, JSON.parse(line) as Row, sha256(line));
    }
    zones.keep(seg.hash, column, zone);
  }
  return idx;
}
