/**
 * A row-mapped stage's run: its artifact in parts, one per driving segment × crossed element. A
 * part the last run made stands as it is when what every unit shares, its driving segment and
 * the joined rows of its units are unchanged, and then neither its inputs nor its memo are read;
 * every other part is planned unit by unit, taking rows from the part it replaces, then from the
 * memo, and running what neither has. Units commit to the memo in batches as they finish, so a
 * killed run resumes where it stopped.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Row } from '../dag/define.ts';
import type { ResolvedStage } from '../dag/validate.ts';
import type { StageContext } from '../dag/stage.ts';
import { absentInputs, guardInputs } from '../dag/inputs.ts';
import { hashValue, sha256 } from '../hash/canonical.ts';
import { segmentLines, segmentPaths, StoredLine, type ArtifactPart, type SegmentRef } from '../store/artifacts.ts';
import { checkSegment } from '../store/segments.ts';
import { errorMessage } from '../store/disk-full.ts';
import { UPSTREAM_KIND } from '../store/segment-facts.ts';
import type { KeyComponents, LedgerEntry, RowStageRecord } from '../store/ledger.ts';
import { RowStore, type UnitLookup } from '../store/row-store.ts';
import { unitsPath, readUnitKeys } from '../store/unit-keys.ts';
import { anyInZone, changedJoinValues, joinValue, lineJoinValue, rowsWithValues, widen, sortJoinValues, type Zone } from './join-delta.ts';
import type { RunEvent } from './executor.ts';

/** An input as a stage reads it: its segments in the store (null: rows only in memory) and all its rows. */
export interface Input {
  from: string;
  segments: readonly SegmentRef[] | null;
  rows: () => Row[];
}

/** What a row stage needs of the run around it. */
export interface RowStageEnv {
  store: string;
  retryFailed: boolean;
  /** Failure kinds whose units are recomputed too (rows with such a `failure_kind`, failed or not). */
  retryKinds?: readonly string[];
  ephemeral: boolean;
  /** Whether an input's rows are held in memory by this run (then they are read from there). */
  inMemory(from: string): boolean;
  emit(e: RunEvent): void;
  /** A problem of the store worth the user's attention (printed, and kept in the run summary). */
  warn?(message: string): void;
  /** Hash every standing part's files in full instead of comparing their stat (`cdp verify`). */
  fullChecks?: boolean;
}

/**
 * A unit's key: the sha256 of the canonical JSON of { c: common, j: joined rows' hashes by input,
 * r: the driving row's hash, x: the crossed element's hash or null }, written out directly (every
 * member is a hex hash or a plain input name, and a million units are keyed in a large run);
 * `hashValue` of that object gives the same key (incremental-rows.test.ts).
 */
export function unitKey(common: string, rowHash: string, crossHash: string | null, joined: Record<string, readonly string[]>): string {
  let j = '';
  for (const name of Object.keys(joined).sort()) {
    j += `${j ? ',' : ''}${JSON.stringify(name)}:[${joined[name]!.map((h) => `"${h}"`).join(',')}]`;
  }
  return sha256(`{"c":"${common}","j":{${j}},"r":"${rowHash}","x":${crossHash === null ? 'null' : `"${crossHash}"`}}`);
}

/** Rows of replaced parts held in memory to be taken up by unit key; beyond, the memo serves them. */
const REPLACED_ROWS_HELD = 200_000;

/**
 * A row-mapped stage, one part of its artifact per driving segment × crossed element. A part
 * its last run made stands as it is when what every unit shares (`common`), its driving segment
 * and the joined rows of its units are unchanged: then neither its input rows nor its memo are
 * read. Every other part is planned unit by unit; a unit in the memo is reused, the others run.
 */
export async function runRowStage(
  env: RowStageEnv,
  name: string,
  stage: ResolvedStage,
  components: KeyComponents,
  inputs: Record<string, Input>,
  ctx: StageContext,
  reasons: string[],
  forced: boolean,
  prev: LedgerEntry | undefined,
): Promise<{
  parts: ArtifactPart[];
  computed: number;
  reused: number;
  record?: () => RowStageRecord;
  units: Map<number, string[]>;
  unitRows: Map<number, number[]>;
  /** Settles when the units computed are on disk (their memo file fsynced). */
  durable: Promise<void>;
}> {
  const fe = stage.forEach!;
  if (stage.impl.kind !== 'row') throw new Error('unreachable');
  const impl = stage.impl;
  const store = env.store;
  const joinNames = Object.keys(fe.join ?? {});
  const wholeNames = Object.keys(inputs).filter((n) => n !== fe.input && !joinNames.includes(n));
  // Only whole inputs, params, code and shape are shared by every unit; the driving and joined
  // rows enter each unit's own key, so a new driving row leaves the others' keys untouched.
  const common = hashValue({
    code: components.code.hash,
    params: components.params.hash,
    whole: Object.fromEntries(wholeNames.map((n) => [n, components.inputs[n].hash])),
    shape: components.shape,
  });
  const crossValues: unknown[] = fe.cross ? (stage.decl.params![fe.cross.param] as unknown[]) : [undefined];
  const crossHashes = crossValues.map((x) => (x === undefined ? '' : hashValue(x)));
  const driving = inputs[fe.input];
  // The driving segments, in the store; or, in a run that persists nothing, its rows in memory.
  // Each row with its canonical line (what a segment stores) or, in memory, its hash.
  const dSegs: { hash: string | null; rows: () => Iterable<{ row: Row; line: string | null; hash?: string }> }[] = driving.segments
    ? driving.segments.map((seg) => ({
        hash: seg.hash,
        rows: function* () {
          for (const line of segmentLines(store, driving.from, seg.hash)) yield { row: JSON.parse(line) as Row, line };
        },
      }))
    : [{ hash: null, rows: () => driving.rows().map((r) => ({ row: r, line: null, hash: hashValue(r) })) }];

  // The parts the last run made that may stand, and the join values whose rows changed since.
  let standing: Map<string, { ref: SegmentRef; units: number }> | null = null;
  const changed = new Map<string, Set<string>>();
  const rec = prev?.rowStage;
  const incremental =
    !!rec &&
    !!prev?.segments &&
    rec.common === common &&
    rec.from.length === prev.segments.length &&
    !forced &&
    !env.retryFailed &&
    !env.retryKinds?.length &&
    !env.ephemeral &&
    !!driving.segments &&
    joinNames.every((j) => inputs[j].segments && rec.joins[j]);
  if (incremental) {
    standing = new Map();
    for (const j of joinNames) {
      const from = inputs[j].from;
      const lines = (h: string) => (existsSync(segmentPaths(store, from, h).ndjson) ? segmentLines(store, from, h) : null);
      const values = changedJoinValues(
        rec.joins[j],
        inputs[j].segments!.map((s) => s.hash),
        fe.join![j],
        lines,
      );
      if (!values) {
        standing = null;
        break;
      }
      if (values.size) changed.set(j, values);
    }
    if (standing) rec.from.forEach((f, i) => standing!.set(`${f.drive}\u0000${f.cross}`, { ref: prev!.segments![i], units: f.units }));
  }
  // Each input segment's smallest and largest join values (zones, by segment hash and column),
  // as the last run recorded them and as this run learns them: a segment whose zone holds none of
  // the values looked for is not read.
  const zonesBefore = prev?.rowStage?.zones ?? {};
  const zones: Record<string, Record<string, Zone>> = {};
  const zoneOf = (seg: string, column: string): Zone | undefined => zones[seg]?.[column] ?? zonesBefore[seg]?.[column];
  const keepZone = (seg: string, column: string, zone: Zone) => ((zones[seg] ??= {})[column] = zone);
  const joinColumns = [...new Set(Object.values(fe.join ?? {}))];
  // Each joined input's column, as an index into a row's join values (computed once a row).
  const joinAt = Object.fromEntries(joinNames.map((j) => [j, joinColumns.indexOf(fe.join![j])]));
  const learnZones = (seg: string, rows: readonly PendingRow[]) => {
    const zs = joinColumns.map((): Zone => null);
    for (const r of rows) r.values.forEach((v, i) => (zs[i] = widen(zs[i], v)));
    joinColumns.forEach((c, i) => keepZone(seg, c, zs[i]));
  };
  const sortedChanged = new Map([...changed].map(([j, values]) => [j, sortJoinValues(values)]));
  // Whether a driving segment has a row joining one of the changed values (read only then).
  const touched = (seg: (typeof dSegs)[number]): boolean => {
    if (!changed.size) return false;
    const maybe = [...changed.keys()].filter((j) => {
      const zone = zoneOf(seg.hash!, fe.join![j]);
      return zone === undefined || anyInZone(sortedChanged.get(j)!, zone);
    });
    if (!maybe.length) return false;
    const tests = maybe.map((j) => rowsWithValues(fe.join![j], changed.get(j)!));
    for (const line of segmentLines(store, driving.from, seg.hash!)) if (tests.some((t) => t(line))) return true;
    return false;
  };

  // `joined` is null for a unit whose key was taken from the part it replaces (its rows are taken from there too).
  type Plan = { key: string; row: Row; cross: unknown; joined: Record<string, Row[]> | null; upstreamError: string | null };
  type Part = { reuse: SegmentRef } | { plans: Plan[] };
  const parts: Part[] = [];
  const from: RowStageRecord['from'] = [];
  let reusedUnits = 0;
  // `hash`: the sha256 of the row's line, computed only for a row whose unit key is not known already;
  // `known`: per part of its segment, the unit key taken from the part it replaces (undefined: keyed here).
  type PendingRow = { row: Row; line: string | null; hash?: string; values: string[]; known?: (string | undefined)[] };
  const pending: { seg: number; rows: PendingRow[]; parts: { at: number; cross: number }[] }[] = [];
  dSegs.forEach((seg, si) => {
    const isTouched = standing && seg.hash !== null ? touched(seg) : true;
    let todo: { at: number; cross: number }[] | null = null;
    crossValues.forEach((_, ci) => {
      const old = !isTouched ? standing?.get(`${seg.hash}\u0000${crossHashes[ci]}`) : undefined;
      const check = old ? checkSegment(segmentPaths(store, name, old.ref.hash), old.ref.files, env.fullChecks) : null;
      if (old && check?.ok) {
        parts.push({ reuse: check.restat ? { ...old.ref, files: check.restat } : old.ref });
        from.push({ drive: seg.hash ?? '', cross: crossHashes[ci], units: old.units });
        reusedUnits += old.units;
        return;
      }
      from.push({ drive: seg.hash ?? '', cross: crossHashes[ci], units: 0 });
      parts.push({ plans: [] });
      (todo ??= []).push({ at: parts.length - 1, cross: ci });
    });
    if (todo) {
      const rows = [...seg.rows()].map((r): PendingRow => ({ ...r, values: joinColumns.map((c) => joinValue(r.row, c)) }));
      if (seg.hash !== null) learnZones(seg.hash, rows);
      pending.push({ seg: si, rows, parts: todo });
    } else if (seg.hash !== null)
      for (const c of joinColumns) if (zoneOf(seg.hash, c) !== undefined) keepZone(seg.hash, c, zoneOf(seg.hash, c)!);
  });

  // The rows of the parts this run replaces (their driving segment is gone), by unit key, as the
  // lines their segments hold: a unit of a replanned part that one of them made is taken from
  // there, unparsed, before the memo is asked. A driving row whose line is one such a part had
  // and whose join values' rows did not change has that part's unit key, taken as it is: neither
  // its joined rows nor its key are computed again (a one-row change replans a whole segment).
  const earlier =
    standing && pending.length
      ? replacedUnits(env, name, prev!, driving.from, new Set(dSegs.map((d) => d.hash!)), new Set(crossHashes))
      : null;
  if (earlier) {
    const keysOf = crossHashes.map((h) => earlier.keyOf.get(h));
    for (const p of pending) {
      for (const r of p.rows) {
        const same = r.line !== null && joinNames.every((j) => !changed.get(j)?.has(r.values[joinAt[j]!]!));
        if (same) r.known = p.parts.map(({ cross }) => keysOf[cross]?.get(r.line!));
      }
    }
  }
  const keyed = (r: PendingRow) => !r.known || r.known.includes(undefined);

  // The joined rows of the units to plan: every joined input's rows holding their values.
  const needed = new Map<string, Set<string> | 'all'>();
  for (const j of joinNames) {
    if (!standing) {
      needed.set(j, 'all');
      continue;
    }
    const values = new Set<string>();
    for (const p of pending) for (const r of p.rows) if (keyed(r)) values.add(r.values[joinAt[j]!]!);
    needed.set(j, values);
  }
  const joined$ = new Map<string, Map<string, { rows: Row[]; hashes: string[] }>>();
  for (const j of joinNames) joined$.set(j, joinIndex(env, inputs[j], fe.join![j], needed.get(j)!, zoneOf, keepZone));
  // A declared optional input the config leaves out is handed over as no rows, never left undefined.
  const absent = absentInputs(impl.inputs, stage.decl.inputs);
  const whole = guardInputs(
    name,
    'whole input',
    { ...Object.fromEntries(wholeNames.map((n) => [n, inputs[n].rows()])), ...Object.fromEntries(absent.whole.map((n) => [n, []])) },
    [...wholeNames, ...absent.whole],
  );
  const joinedOf = (j: Record<string, Row[]>): Record<string, Row[]> =>
    guardInputs(name, 'joined input', absent.joined.length ? { ...j, ...Object.fromEntries(absent.joined.map((n) => [n, []])) } : j, [
      ...joinNames,
      ...absent.joined,
    ]);

  const plans: Plan[] = [];
  for (const p of pending) {
    for (const r of p.rows) {
      const { row, values } = r;
      const joined: Record<string, Row[]> = {};
      const joinedHashes: Record<string, string[]> = {};
      if (keyed(r)) {
        for (const j of joinNames) {
          const bucket = joined$.get(j)!.get(values[joinAt[j]!]!);
          joined[j] = bucket?.rows ?? [];
          joinedHashes[j] = bucket?.hashes ?? [];
        }
        r.hash ??= sha256(r.line!);
      }
      const upstreamError =
        row.error != null && !impl.seesFailedRows
          ? `upstream '${stage.decl.inputs![fe.input]}' failed for this row: ${String(row.error)}`
          : null;
      p.parts.forEach(({ at, cross: ci }, k) => {
        const cross = crossValues[ci];
        const known = r.known?.[k];
        const plan: Plan =
          known !== undefined
            ? { key: known, row, cross, joined: null, upstreamError }
            : {
                key: unitKey(common, r.hash!, cross === undefined ? null : crossHashes[ci], joinedHashes),
                row,
                cross,
                joined,
                upstreamError,
              };
        (parts[at] as { plans: Plan[] }).plans.push(plan);
        plans.push(plan);
      });
    }
  }
  // A unit is asked again when a row it made is a failure row (--retry-failed) or of a retried kind.
  const kinds = new Set(env.retryKinds ?? []);
  const isRetried = (r: Row) =>
    (env.retryFailed && r.error != null) || (kinds.size > 0 && r.failure_kind != null && kinds.has(String(r.failure_kind)));
  // The memo is read only when some unit has to be planned beyond those.
  const memoStore = new RowStore(join(store, 'units', name));
  let memo$: UnitLookup | null = null;
  const memo = () => (memo$ ??= memoStore.open());
  // A unit's rows stay on disk in the memo until the artifact is written; only failures made
  // here (and, in a run that persists nothing, computed rows) are held in memory.
  const results = new Map<Plan, Row[]>();
  const todo: (Plan & { joined: Record<string, Row[]> })[] = [];
  let reused = 0;
  // Memo lines whose checksum does not match (edited in place) or that have none: recomputed.
  let unverified = 0;
  for (const p of plans) {
    if (p.upstreamError) {
      results.set(p, [failureRow(stage, p, p.upstreamError, UPSTREAM_KIND)]);
      continue;
    }
    if (earlier?.rows.has(p.key)) {
      reused++;
      continue;
    }
    const inMemo = !forced && memo().has(p.key);
    const intact = inMemo && memo().intact(p.key);
    if (inMemo && !intact) unverified++;
    const retrying = env.retryFailed || !!env.retryKinds?.length;
    const hit = !intact ? undefined : retrying ? memo().get(p.key) : [];
    if (hit && !hit.some(isRetried)) reused++;
    else if (hasJoined(p)) todo.push(p);
    else throw new Error(`internal: unit ${p.key} of '${name}' was keyed from a replaced part that does not hold it`);
  }

  if (unverified) {
    env.warn?.(
      `stage '${name}': ${unverified} memo unit${unverified === 1 ? '' : 's'} failed ${unverified === 1 ? 'its' : 'their'} checksum (a memo file edited behind cdp's back, or one written before memo lines had checksums): computed again; \`cdp verify\` checks the whole store`,
    );
  }
  const total = plans.length;
  env.emit({ type: 'stage-start', stage: name, total, reasons });
  let done = total - todo.length;
  env.emit({ type: 'stage-progress', stage: name, done, total });
  const writer = env.ephemeral || !todo.length ? null : memoStore.writer();
  const commitEvery = Math.max(1, stage.decl.commitEvery ?? 50);
  let sinceCommit = 0;
  let lastCommit = Date.now();
  const signal = ctx.signal;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < todo.length && !signal.aborted) {
      const p = todo[next++];
      let rows: Row[];
      try {
        const got = await impl.run({ row: p.row, cross: p.cross, joined: joinedOf(p.joined), whole }, ctx);
        rows = Array.isArray(got) ? got : [got];
        checkRows(name, stage, rows);
      } catch (err) {
        rows = [failureRow(stage, p, errorMessage(err, { dir: store, what: `a unit of '${name}' was writing` }) || String(err))];
      }
      if (writer) memo().add(p.key, writer.append(p.key, rows));
      else results.set(p, rows);
      done++;
      sinceCommit++;
      if (sinceCommit >= commitEvery || Date.now() - lastCommit > 1000) {
        writer?.commit();
        sinceCommit = 0;
        lastCommit = Date.now();
      }
      env.emit({ type: 'stage-progress', stage: name, done, total });
    }
  };
  try {
    const width = Math.max(1, Math.min(stage.decl.concurrency ?? 4, todo.length));
    await Promise.all(Array.from({ length: width }, worker));
  } catch (err) {
    await writer?.closeAsync();
    throw err;
  }
  // The memo's last fsync runs while the artifact is written; the caller awaits it before the
  // stage counts as done.
  const durable = writer?.closeAsync() ?? Promise.resolve();
  if (signal.aborted) {
    await durable;
    throw new Error(`interrupted after ${done} of ${total} units; finished units are kept, rerun to resume`);
  }

  let left = parts.filter((p) => 'plans' in p).length;
  const units = new Map<number, string[]>();
  // Rows per unit, counted as the parts are written, beside the keys: what lets a later run take them up.
  const unitRows = new Map<number, number[]>();
  const out: ArtifactPart[] = parts.map((p, at) => {
    if ('reuse' in p) return p;
    units.set(
      at,
      p.plans.map((u) => u.key),
    );
    from[at].units = p.plans.length;
    const counts: number[] = [];
    unitRows.set(at, counts);
    return {
      chunk: false,
      rows: (function* (): Generator<Row | StoredLine> {
        try {
          for (const u of p.plans) {
            const rows = results.get(u) ?? earlier?.rows.get(u.key) ?? memo().get(u.key) ?? [];
            counts.push(rows.length);
            yield* rows;
          }
        } finally {
          if (--left === 0) memo$?.close();
        }
      })(),
    };
  });
  const joins = Object.fromEntries(joinNames.map((j) => [j, (inputs[j].segments ?? []).map((s) => s.hash)]));
  // Zones are kept for the segments of this run's inputs only, so the record does not grow with history.
  const current = new Set([...(driving.segments ?? []), ...joinNames.flatMap((j) => inputs[j].segments ?? [])].map((x) => x.hash));
  for (const seg of Object.keys(zones)) if (!current.has(seg)) delete zones[seg];
  const record = driving.segments ? () => ({ common, from, joins, zones }) : undefined;
  return { parts: out, computed: todo.length, reused: reused + reusedUnits, record, units, unitRows, durable };
}

/**
 * The rows of the last run's parts whose driving segment this run no longer has (a changed
 * segment's former self), by unit key, as the lines their segments hold, and each of their unit
 * keys by the crossed element's hash, then the driving line it came from; null
 * when there are too many to hold (most of the input changed: the memo serves them then) or none
 * is known. A part is taken up only when its units file, its segment and its driving segment all
 * agree on its rows.
 */
function replacedUnits(
  env: RowStageEnv,
  name: string,
  prev: LedgerEntry,
  drivingStage: string,
  drives: ReadonlySet<string>,
  crosses: ReadonlySet<string>,
): { rows: Map<string, StoredLine[]>; keyOf: Map<string, Map<string, string>> } | null {
  const rec = prev.rowStage!;
  const gone = rec.from.map((f, i) => ({ f, seg: prev.segments![i] })).filter(({ f }) => !drives.has(f.drive) && crosses.has(f.cross));
  if (!gone.length || gone.reduce((n, g) => n + g.seg.rows, 0) > REPLACED_ROWS_HELD) return null;
  const rows = new Map<string, StoredLine[]>();
  const keyOf = new Map<string, Map<string, string>>();
  for (const { f, seg } of gone) {
    const path = unitsPath(env.store, name, seg.hash, f);
    const units = existsSync(path) ? readUnitKeys(path) : null;
    // Taken up only when its counts add up to the segment's rows: a units file lost in part is ignored.
    if (!units || units.some((u) => u.rows === undefined) || units.reduce((n, u) => n + u.rows!, 0) !== seg.rows) continue;
    if (!existsSync(segmentPaths(env.store, name, seg.hash).ndjson)) continue;
    const lines = segmentLines(env.store, name, seg.hash);
    for (const u of units) {
      const held: StoredLine[] = [];
      for (let n = 0; n < u.rows!; n++) {
        const next = lines.next();
        if (next.done) throw new Error(`internal: the units of ${seg.hash} in '${name}' name more rows than its segment holds`);
        held.push(new StoredLine(next.value));
      }
      rows.set(u.key, held);
    }
    lines.return(undefined);
    // One unit per driving row, in order: the keys line up with the driving segment's lines.
    if (!existsSync(segmentPaths(env.store, drivingStage, f.drive).ndjson)) continue;
    const drove = [...segmentLines(env.store, drivingStage, f.drive)];
    if (drove.length !== units.length) continue;
    let keys = keyOf.get(f.cross);
    if (!keys) keyOf.set(f.cross, (keys = new Map()));
    for (let i = 0; i < drove.length; i++) keys.set(drove[i]!, units[i]!.key);
  }
  return { rows, keyOf };
}

/**
 * A joined input's rows by join value, in the input's order, with each row's hash (the sha256 of
 * its canonical line, which is what it is stored as). Only the rows of `values` are kept, and
 * lines of other values are mostly skipped unparsed.
 */
function joinIndex(
  env: RowStageEnv,
  input: Input,
  column: string,
  values: Set<string> | 'all',
  zoneOf: (seg: string, column: string) => Zone | undefined,
  keepZone: (seg: string, column: string, zone: Zone) => void,
): Map<string, { rows: Row[]; hashes: string[] }> {
  const idx = new Map<string, { rows: Row[]; hashes: string[] }>();
  const add = (k: string, r: Row, hash: string) => {
    let bucket = idx.get(k);
    if (!bucket) idx.set(k, (bucket = { rows: [], hashes: [] }));
    bucket.rows.push(r);
    bucket.hashes.push(hash);
  };
  if (!input.segments) {
    for (const r of input.rows()) {
      const k = joinValue(r, column);
      if (values === 'all' || values.has(k)) add(k, r, hashValue(r));
    }
    return idx;
  }
  const sorted = values === 'all' ? null : sortJoinValues(values);
  for (const seg of input.segments) {
    const known = zoneOf(seg.hash, column);
    if (sorted && known !== undefined && !anyInZone(sorted, known)) {
      keepZone(seg.hash, column, known);
      continue;
    }
    // Read: its rows of the values, and its zone on the way.
    let zone: Zone = null;
    for (const line of segmentLines(env.store, input.from, seg.hash)) {
      const k = lineJoinValue(line, column);
      zone = widen(zone, k);
      if (values === 'all' || values.has(k)) add(k, JSON.parse(line) as Row, sha256(line));
    }
    keepZone(seg.hash, column, zone);
  }
  return idx;
}

function checkRows(name: string, stage: ResolvedStage, rows: Row[]): void {
  for (const r of rows) {
    if (r === null || typeof r !== 'object' || Array.isArray(r))
      throw new Error(`stage '${name}' returned a row that is not an object: ${JSON.stringify(r)}`);
    for (const k of Object.keys(r)) {
      if (!(k in stage.columns)) throw new Error(`stage '${name}' returned column '${k}', which its columns do not declare`);
    }
  }
}

/**
 * A unit's failure as a row: the driving row's values for columns the output shares, the
 * crossed element under its declared column, and the reason.
 */
/** Whether a unit was planned with its joined rows (every unit but one keyed from the part it replaces). */
function hasJoined<P extends { joined: Record<string, Row[]> | null }>(p: P): p is P & { joined: Record<string, Row[]> } {
  return p.joined !== null;
}

/** A unit's failure row; `kind` (UPSTREAM_KIND for a driving row that failed upstream) when the stage has a `failure_kind` column. */
function failureRow(stage: ResolvedStage, unit: { row: Row; cross: unknown }, reason: string, kind?: string): Row {
  const out: Row = {};
  for (const col of Object.keys(stage.columns)) if (col in unit.row && col !== 'error' && col !== 'failure_kind') out[col] = unit.row[col];
  if (kind && 'failure_kind' in stage.columns) out.failure_kind = kind;
  const cross = stage.forEach?.cross;
  if (cross && cross.as in stage.columns) {
    const v = unit.cross as { name?: unknown } | string | number;
    out[cross.as] = typeof v === 'object' && v !== null && 'name' in v ? v.name : v;
  }
  out.error = reason;
  return out;
}
