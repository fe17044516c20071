/**
 * An artifact's segments: runs of consecutive rows stored as files of their own, each named by
 * the sha256 of its canonical NDJSON and kept twice, as that NDJSON (what the runner reads back)
 * and as Parquet (what the warehouse reads). A change to a few rows writes the segments that hold
 * them and reuses every other one, which is what makes a one-row change cost one segment, not a
 * table.
 *
 * Where a table is cut is decided by its content (content-defined chunking, as rsync and restic
 * do): once a segment holds half the target size, it ends after the first row whose line hashes
 * to 0 modulo half the target, so inserting or changing a row moves at most the boundaries next to
 * it. The minimum (FastCDC's) matters for what a change costs: a changed row lies in a segment
 * picked by size, and without one the expected size of that segment is twice the mean (1,024 rows
 * for a mean of 512); with it, 1.25 times. Row-mapped stages cut where their
 * driving input was cut instead (executor.ts), so their segments line up with their inputs'.
 */
import { statSync, openSync, readSync, closeSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { tempPathFor } from './atomic.ts';
import { asDiskFull, isDiskFull } from './disk-full.ts';
import { LineWriter } from './lines.ts';
import type { Columns, Row } from '../dag/define.ts';
import { FactTally, coversPath, writeCovered, type FailureKinds, type Reason } from './segment-tally.ts';

/** What the ledger knows of one file: its stat for the cheap check, its sha256 for the full one. */
export interface FileRecord {
  size: number;
  mtimeMs: number;
  sha256: string;
}

export interface SegmentFiles {
  ndjson: FileRecord;
  parquet: FileRecord;
}

export interface SegmentRef {
  /** sha256 of the segment's NDJSON bytes: its name. */
  hash: string;
  rows: number;
  files: SegmentFiles;
  /** Its failure rows (those with an `error`) and their folded reasons, when it has any. */
  failed?: number;
  reasons?: Reason[];
  /** Its rows by `failure_kind` (failure rows without one as 'other'), when it has any. */
  kinds?: FailureKinds;
}

/** Rows per segment a content-defined cut aims at, on average. */
export const SEGMENT_TARGET_ROWS = segmentTarget(process.env.CDP_SEGMENT_ROWS);
/** No content cut before this many rows: every segment but an artifact's last holds at least this many. */
export const SEGMENT_MIN_ROWS = SEGMENT_TARGET_ROWS / 2;
/** A segment is cut here whatever its content, so no segment grows without bound. */
export const SEGMENT_MAX_ROWS = 8 * SEGMENT_TARGET_ROWS;
export const SEGMENT_MAX_CHARS = 64 << 20;

/**
 * 512 rows, or `CDP_SEGMENT_ROWS` (a power of two): tests lower it to see a small corpus cut into
 * many segments. Another value changes where every table is cut, and so every artifact's name.
 */
function segmentTarget(env: string | undefined): number {
  if (env === undefined || env === '') return 512;
  const n = Number(env);
  if (!Number.isInteger(n) || n < 2 || (n & (n - 1)) !== 0)
    throw new Error(`CDP_SEGMENT_ROWS must be a power of two of at least 2, got "${env}"`);
  return n;
}

/**
 * FNV-1a over a line's UTF-16 code units, then murmur3's finalizer: FNV alone leaves its low bits
 * nearly constant over lines that differ only at the end (ids), and the cut reads the low bits.
 * Cheap, and stable across runs and machines.
 */
function lineHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Whether a segment of at least SEGMENT_MIN_ROWS rows may end after this line (a cut point of the content). */
export function endsSegment(line: string): boolean {
  return lineHash(line) % (SEGMENT_TARGET_ROWS - SEGMENT_MIN_ROWS) === 0;
}

/**
 * Whether a content-cut segment ends after `line`, its `rows`-th row, at `chars` characters with
 * newlines: by its content, or at the caps. The one rule writeArtifact and hashParts both cut by.
 */
export function segmentFull(line: string, rows: number, chars: number): boolean {
  return (rows >= SEGMENT_MIN_ROWS && endsSegment(line)) || rows >= SEGMENT_MAX_ROWS || chars >= SEGMENT_MAX_CHARS;
}

/**
 * A row as the canonical line a segment already stores it as (a row of an earlier part, checked
 * when it was first written): written as it is, parsed only when its facts need it.
 */
export class StoredLine {
  constructor(readonly text: string) {}

  row(): Row {
    return JSON.parse(this.text) as Row;
  }
}

/**
 * The hash of a segment with no rows (a segment hashes its lines, each with its newline). A
 * crossed row stage writes one for every element that gives a driving segment no row, so an
 * artifact may hold it many times over.
 */
export const EMPTY_SEGMENT_HASH = createHash('sha256').digest('hex');

export function segmentPaths(storeDir: string, stage: string, hash: string): { ndjson: string; parquet: string } {
  const dir = join(storeDir, 'artifacts', stage);
  return { ndjson: join(dir, `${hash}.ndjson`), parquet: join(dir, `${hash}.parquet`) };
}

export function sha256File(path: string): string {
  const h = createHash('sha256');
  const buf = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(path, 'r');
  try {
    for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0;) h.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return h.digest('hex');
}

function recordFile(path: string, sha256 = sha256File(path)): FileRecord {
  const s = statSync(path);
  return { size: s.size, mtimeMs: s.mtimeMs, sha256 };
}

/**
 * Whether a segment's files are still what the ledger recorded. `restat` is set when a file's
 * stat changed but its content did not (a copied tree, a `touch`): the caller records the new
 * stat so the next check is cheap again.
 */
export type SegmentCheck = { ok: true; restat: SegmentFiles | null } | { ok: false; reason: string };

/**
 * `full` (`cdp verify`, `cdp status --verify`): every file is hashed whatever its stat says, so a
 * file rewritten to the same size with its mtime put back is found too; a normal run stats.
 */
export function checkSegment(paths: { ndjson: string; parquet: string }, recorded: SegmentFiles | undefined, full = false): SegmentCheck {
  // One stat a file (every reused segment of every stage is checked on each run), none to ask whether it exists.
  const stats = { ndjson: statSync(paths.ndjson, { throwIfNoEntry: false }), parquet: statSync(paths.parquet, { throwIfNoEntry: false }) };
  if (!stats.ndjson || !stats.parquet) return { ok: false, reason: 'artifact missing from the store' };
  if (!recorded?.ndjson || !recorded.parquet) {
    return { ok: false, reason: 'artifact has no recorded size and checksum (written by an older cdp): rebuilding it' };
  }
  let restat: SegmentFiles | null = null;
  for (const kind of ['ndjson', 'parquet'] as const) {
    const path = paths[kind];
    const want = recorded[kind];
    const s = stats[kind]!;
    if (s.size === want.size && s.mtimeMs === want.mtimeMs && !full) continue;
    if (full && s.size === want.size && sha256File(path) === want.sha256) {
      if (s.mtimeMs !== want.mtimeMs) {
        restat ??= { ...recorded };
        restat[kind] = { ...want, mtimeMs: s.mtimeMs };
      }
      continue;
    }
    if (s.size !== want.size || sha256File(path) !== want.sha256) return { ok: false, reason: `artifact changed on disk: ${path}` };
    restat ??= { ...recorded };
    restat[kind] = { ...want, mtimeMs: s.mtimeMs };
  }
  return { ok: true, restat };
}

function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

export function columnsSql(columns: Columns): string {
  return (
    '{' +
    Object.entries(columns)
      .map(([k, t]) => `${sqlString(k)}: ${sqlString(t)}`)
      .join(', ') +
    '}'
  );
}

/**
 * Writes one segment: canonical lines in, a SegmentRef out. The lines go to a temporary file while
 * their hash is computed; once it is known, a segment of that hash the ledger already vouches for
 * (`known`, checked by stat) is kept and the temporary file dropped, otherwise the Parquet copy is
 * made by DuckDB with the declared column types and both files are renamed into place.
 */
export class SegmentWriter {
  private readonly tmp: string;
  private readonly out: LineWriter;
  private readonly h = createHash('sha256');
  rows = 0;
  /** Characters written, newlines included: the size a content-defined cut is capped by. */
  chars = 0;

  private readonly tally: FactTally;

  constructor(
    private readonly storeDir: string,
    private readonly stage: string,
    private readonly covers?: string,
  ) {
    this.tally = new FactTally(covers);
    this.tmp = tempPathFor(join(storeDir, 'artifacts', stage, 'incoming.ndjson'));
    this.out = new LineWriter(this.tmp);
  }

  /** One row and its canonical line; a stored line is parsed for its facts only when they could be in it. */
  write(line: string, row: Row | StoredLine): void {
    if (!(row instanceof StoredLine)) this.tally.add(row);
    else if (this.covers || line.includes('"error":') || line.includes('"failure_kind":"')) this.tally.add(row.row());
    this.h.update(line);
    this.h.update('\n');
    this.out.write(line);
    this.rows++;
    this.chars += line.length + 1;
  }

  abandon(): void {
    this.out.abandon();
    rmSync(this.tmp, { force: true });
  }

  async finish(
    columns: Columns,
    duck: () => Promise<DuckDBConnection>,
    known?: (hash: string) => SegmentRef | undefined,
    fullChecks = false,
  ): Promise<SegmentRef> {
    const hash = this.h.digest('hex');
    const paths = segmentPaths(this.storeDir, this.stage, hash);
    const failures = {
      ...(this.tally.failed ? { failed: this.tally.failed, reasons: [...this.tally.reasons.values()] } : {}),
      ...(Object.keys(this.tally.kinds).length ? { kinds: this.tally.kinds } : {}),
    };
    if (this.covers) writeCovered(coversPath(this.storeDir, this.stage, hash, this.covers), this.tally.covered);
    const recorded = known?.(hash);
    const check = recorded ? checkSegment(paths, recorded.files, fullChecks) : null;
    if (recorded && check?.ok) {
      // The segment is already in place: the copy is dropped unsynced.
      this.out.abandon();
      rmSync(this.tmp, { force: true });
      return { hash, rows: this.rows, files: check.restat ?? recorded.files, ...failures };
    }
    // Flushed now; its fsync runs while DuckDB writes the Parquet copy from it (reading needs no fsync).
    const synced = this.out.closeAsync();
    const tmpParquet = tempPathFor(paths.parquet);
    const copied = (async () => {
      const con = await duck();
      const select = `select ${Object.keys(columns)
        .map((c) => `"${c.replace(/"/g, '""')}"`)
        .join(', ')} from read_json(${sqlString(this.tmp)}, format = 'newline_delimited', columns = ${columnsSql(columns)})`;
      await con.run(`copy (${select}) to ${sqlString(tmpParquet)} (format parquet, compression zstd)`);
    })();
    const [sync, copy] = await Promise.allSettled([synced, copied]);
    if (sync.status === 'rejected' || copy.status === 'rejected') {
      rmSync(this.tmp, { force: true });
      rmSync(tmpParquet, { force: true });
      if (sync.status === 'rejected') throw sync.reason;
      const err = (copy as PromiseRejectedResult).reason as Error;
      // DuckDB names a full disk in its message: that is not the rows' fault.
      if (isDiskFull(err)) throw asDiskFull(err, paths.parquet);
      throw new Error(`stage '${this.stage}': its rows do not fit its declared columns: ${err.message}`, { cause: err });
    }
    // Parquet first: a segment counts as present only when its NDJSON exists, so a crash between
    // the two renames leaves a stray Parquet file, never a half segment.
    renameSync(tmpParquet, paths.parquet);
    renameSync(this.tmp, paths.ndjson);
    return { hash, rows: this.rows, files: { ndjson: recordFile(paths.ndjson, hash), parquet: recordFile(paths.parquet) }, ...failures };
  }
}
