/**
 * The rows of the parts this run replaces (their driving segment is gone), by unit key, as the
 * lines their segments hold: a unit of a replanned part that one of them made is taken from
 * there, unparsed, before the memo is asked. A driving row whose line is one such a part had
 * and whose join values' rows did not change has that part's unit key, taken as it is: neither
 * its joined rows nor its key are computed again (a one-row change replans a whole segment).
 */
import { existsSync } from 'node:fs';
import { segmentLines, segmentPaths, StoredLine } from '../store/artifacts.ts';
import type { LedgerEntry } from '../store/ledger.ts';
import { readUnitKeys, unitsPath } from '../store/unit-keys.ts';
import type { RowShape } from './row-shape.ts';
import type { PendingSegment, RowStageEnv } from './runner-types.ts';
import type { Standing } from './standing-parts.ts';

/** Rows of replaced parts held in memory to be taken up by unit key; beyond, the memo serves them. */
const REPLACED_ROWS_HELD = 200_000;

export interface ReplacedUnits {
  rows: Map<string, StoredLine[]>;
  /** Unit keys by the crossed element's hash, then the driving line they came from. */
  keyOf: Map<string, Map<string, string>>;
}

/**
 * The replaced parts' units when some part is planned, with the unit keys they lend to the
 * pending rows set on those rows (`known`); null when there are none to take up.
 */
export function takeUpReplaced(
  env: RowStageEnv,
  shape: RowShape,
  prev: LedgerEntry | undefined,
  standing: Standing | null,
  pending: readonly PendingSegment[],
): ReplacedUnits | null {
  if (!standing || !pending.length) return null;
  const drives = new Set(shape.drivingSegments.map((d) => d.hash!));
  const earlier = replacedUnits(env, shape.name, prev!, shape.driving.from, drives, new Set(shape.crossHashes));
  if (!earlier) return null;
  const keysOf = shape.crossHashes.map((h) => earlier.keyOf.get(h));
  for (const p of pending) {
    for (const r of p.rows) {
      const same = r.line !== null && shape.joinNames.every((j) => !standing.changed.get(j)?.has(r.values[shape.joinAt[j]!]!));
      if (same) r.known = p.parts.map(({ cross }) => keysOf[cross]?.get(r.line!));
    }
  }
  return earlier;
}

/**
 * The rows of the last run's parts whose driving segment this run no longer has (a changed
 * segment's former self), by unit key, and each of their unit keys by the crossed element's hash,
 * then the driving line it came from; null when there are too many to hold (most of the input
 * changed: the memo serves them then) or none is known. A part is taken up only when its units
 * file, its segment and its driving segment all agree on its rows.
 */
function replacedUnits(
  env: RowStageEnv,
  name: string,
  prev: LedgerEntry,
  drivingStage: string,
  drives: ReadonlySet<string>,
  crosses: ReadonlySet<string>,
): ReplacedUnits | null {
  const recorded = prev.rowStage!;
  const gone = recorded.from.map((f, i) => ({ f, seg: prev.segments![i] })).filter(({ f }) => !drives.has(f.drive) && crosses.has(f.cross));
  if (!gone.length || gone.reduce((n, g) => n + g.seg.rows, 0) > REPLACED_ROWS_HELD) return null;
  const out: ReplacedUnits = { rows: new Map(), keyOf: new Map() };
  for (const { f, seg } of gone) {
    const path = unitsPath(env.store, name, seg.hash, f);
    const units = existsSync(path) ? readUnitKeys(path) : null;
    // Taken up only when its counts add up to the segment's rows: a units file lost in part is ignored.
    if (!units || units.some((u) => u.rows === undefined) || units.reduce((n, u) => n + u.rows!, 0) !== seg.rows) continue;
    if (!existsSync(segmentPaths(env.store, name, seg.hash).ndjson)) continue;
    holdUnitRows(env.store, name, seg.hash, units, out.rows);
    // One unit per driving row, in order: the keys line up with the driving segment's lines.
    if (!existsSync(segmentPaths(env.store, drivingStage, f.drive).ndjson)) continue;
    const drove = [...segmentLines(env.store, drivingStage, f.drive)];
    if (drove.length !== units.length) continue;
    let keys = out.keyOf.get(f.cross);
    if (!keys) out.keyOf.set(f.cross, (keys = new Map()));
    for (let i = 0; i < drove.length; i++) keys.set(drove[i]!, units[i]!.key);
  }
  return out;
}

/** A segment's lines, unit by unit as its units file counts them, held by unit key. */
function holdUnitRows(
  store: string,
  name: string,
  segment: string,
  units: readonly { key: string; rows?: number }[],
  into: Map<string, StoredLine[]>,
): void {
  const lines = segmentLines(store, name, segment);
  for (const u of units) {
    const held: StoredLine[] = [];
    for (let n = 0; n < u.rows!; n++) {
      const next = lines.next();
      if (next.done) throw new Error(`internal: the units of ${segment} in '${name}' name more rows than its segment holds`);
      held.push(new StoredLine(next.value));
    }
    into.set(u.key, held);
  }
  lines.return(undefined);
}
