/**
 * Which parts of a row stage's last artifact stand as they are. A part stands when what every
 * unit shares is unchanged, its driving segment is still there and no row of it joins a value
 * whose joined rows changed; then neither its inputs nor its memo are read. Every other part is
 * laid out to be planned unit by unit from its driving segment's rows.
 */
import { existsSync } from 'node:fs';
import { segmentLines, segmentPaths, type SegmentRef } from '../store/artifacts.ts';
import type { LedgerEntry, RowStageRecord } from '../store/ledger.ts';
import { checkSegment } from '../store/segments.ts';
import { anyInZone, changedJoinValues, joinValue, rowsWithValues, sortJoinValues } from './join-delta.ts';
import type { RowShape, DrivingSegment } from './row-shape.ts';
import type { ZoneBook } from './row-zones.ts';
import type { Part, PendingRow, PendingSegment, RowStageEnv } from './runner-types.ts';

/** The last run's parts that may stand (by driving segment and crossed element), and the join values whose rows changed since. */
export interface Standing {
  parts: Map<string, { ref: SegmentRef; units: number }>;
  changed: Map<string, Set<string>>;
}

/** Whether the last run's parts can be taken up at all, and if so which may stand; null: every part is planned. */
export function standingParts(env: RowStageEnv, shape: RowShape, prev: LedgerEntry | undefined, forced: boolean): Standing | null {
  const recorded = prev?.rowStage;
  const { inputs, joinNames, forEach } = shape;
  const incremental =
    !!recorded &&
    !!prev?.segments &&
    recorded.common === shape.common &&
    recorded.from.length === prev.segments.length &&
    !forced &&
    !env.retryFailed &&
    !env.retryKinds?.length &&
    !env.ephemeral &&
    !!shape.driving.segments &&
    joinNames.every((j) => inputs[j].segments && recorded.joins[j]);
  if (!incremental) return null;
  const changed = new Map<string, Set<string>>();
  for (const j of joinNames) {
    const from = inputs[j].from;
    const lines = (h: string) => (existsSync(segmentPaths(env.store, from, h).ndjson) ? segmentLines(env.store, from, h) : null);
    const values = changedJoinValues(
      recorded.joins[j],
      inputs[j].segments!.map((s) => s.hash),
      forEach.join![j],
      lines,
    );
    if (!values) return null;
    if (values.size) changed.set(j, values);
  }
  const parts = new Map<string, { ref: SegmentRef; units: number }>();
  recorded.from.forEach((f, i) => parts.set(`${f.drive}\u0000${f.cross}`, { ref: prev!.segments![i], units: f.units }));
  return { parts, changed };
}

/** Whether a driving segment has a row joining one of the changed values (its lines are read only when its zones may hold one). */
function touchedBy(env: RowStageEnv, shape: RowShape, standing: Standing, zones: ZoneBook): (seg: DrivingSegment) => boolean {
  const { changed } = standing;
  const join = shape.forEach.join ?? {};
  const sortedChanged = new Map([...changed].map(([j, values]) => [j, sortJoinValues(values)]));
  return (seg) => {
    if (!changed.size) return false;
    const maybe = [...changed.keys()].filter((j) => {
      const zone = zones.of(seg.hash!, join[j]);
      return zone === undefined || anyInZone(sortedChanged.get(j)!, zone);
    });
    if (!maybe.length) return false;
    const tests = maybe.map((j) => rowsWithValues(join[j], changed.get(j)!));
    for (const line of segmentLines(env.store, shape.driving.from, seg.hash!)) if (tests.some((t) => t(line))) return true;
    return false;
  };
}

export interface Layout {
  parts: Part[];
  from: RowStageRecord['from'];
  reusedUnits: number;
  pending: PendingSegment[];
}

/**
 * The artifact's parts in order, one per driving segment × crossed element: a standing part whose
 * files check out is reused as it is; every other is left to plan, with its segment's rows read
 * once (and their zones learnt).
 */
export function layoutParts(env: RowStageEnv, shape: RowShape, standing: Standing | null, zones: ZoneBook): Layout {
  const out: Layout = { parts: [], from: [], reusedUnits: 0, pending: [] };
  const touched = standing ? touchedBy(env, shape, standing, zones) : null;
  const { crossHashes, joinColumns } = shape;
  shape.drivingSegments.forEach((seg, si) => {
    const isTouched = touched && seg.hash !== null ? touched(seg) : true;
    let todo: { at: number; cross: number }[] | null = null;
    crossHashes.forEach((crossHash, ci) => {
      const old = !isTouched ? standing?.parts.get(`${seg.hash}\u0000${crossHash}`) : undefined;
      const check = old ? checkSegment(segmentPaths(env.store, shape.name, old.ref.hash), old.ref.files, env.fullChecks) : null;
      if (old && check?.ok) {
        out.parts.push({ reuse: check.restat ? { ...old.ref, files: check.restat } : old.ref });
        out.from.push({ drive: seg.hash ?? '', cross: crossHash, units: old.units });
        out.reusedUnits += old.units;
        return;
      }
      out.from.push({ drive: seg.hash ?? '', cross: crossHash, units: 0 });
      out.parts.push({ plans: [] });
      (todo ??= []).push({ at: out.parts.length - 1, cross: ci });
    });
    if (todo) {
      const rows = [...seg.rows()].map((r): PendingRow => ({ ...r, values: joinColumns.map((c) => joinValue(r.row, c)) }));
      if (seg.hash !== null) zones.learn(seg.hash, joinColumns, rows);
      out.pending.push({ seg: si, rows, parts: todo });
    } else if (seg.hash !== null) zones.carry(seg.hash, joinColumns);
  });
  return out;
}
