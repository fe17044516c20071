/**
 * Stage outputs. An artifact is an ordered list of segments (segments.ts), and is named by the
 * hash of their hashes: the same rows cut the same way give the same name, which is what early
 * cut-off rests on. Rows stream through in both directions, a line at a time (lines.ts): no
 * artifact is ever one string in memory. Every file is written atomically; a segment that exists
 * is complete. The ledger records each segment's files (size, mtime, sha256), so that a file changed
 * behind the runner's back (a `COPY … TO` over it, an editor, a bad disk) is noticed on reuse.
 */
import { mkdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { canonicalJson } from '../hash/canonical.ts';
import { readLines } from './lines.ts';
import { checkSegment, segmentPaths, SegmentWriter, segmentFull, StoredLine, type SegmentRef } from './segments.ts';
import type { Columns, Row } from '../dag/define.ts';

export { sha256File, segmentPaths, columnsSql, StoredLine, type SegmentFiles, type SegmentRef } from './segments.ts';

export interface ArtifactRef {
  hash: string;
  rows: number;
  segments: SegmentRef[];
}

/**
 * What goes into an artifact, in order: rows to write, cut where their content says (`chunk`) or
 * kept as one segment; or a segment of the previous artifact, reused as it is.
 */
export type ArtifactPart = { rows: Iterable<Row | StoredLine>; chunk: boolean } | { reuse: SegmentRef };

/** An artifact's name: the hash of its segments' hashes, in order. */
export function artifactHash(segments: readonly { hash: string }[]): string {
  const h = createHash('sha256').update('cdp-artifact-v2\n');
  for (const s of segments) h.update(s.hash).update('\n');
  return h.digest('hex');
}

export function checkColumns(row: Row, columns: Columns, stage: string): void {
  for (const k of Object.keys(row)) {
    if (!(k in columns)) {
      throw new Error(
        `stage '${stage}' returned column '${k}', which its columns do not declare (declared: ${Object.keys(columns).join(', ')})`,
      );
    }
  }
}

/**
 * Whether an artifact's segments are still what the ledger recorded. `restat` lists the segments
 * again with new stats when some file was touched but not changed.
 */
export type ArtifactCheck = { ok: true; restat: SegmentRef[] | null } | { ok: false; reason: string };

export function checkArtifact(storeDir: string, stage: string, segments: readonly SegmentRef[] | undefined, full = false): ArtifactCheck {
  if (!segments?.length) return { ok: false, reason: 'artifact has no recorded segments (written by an older cdp): rebuilding it' };
  let restat: SegmentRef[] | null = null;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    const check = checkSegment(segmentPaths(storeDir, stage, s.hash), s.files, full);
    if (!check.ok) return check;
    if (check.restat) {
      restat ??= segments.slice();
      restat[i] = { ...s, files: check.restat };
    }
  }
  return { ok: true, restat };
}

/**
 * What is wrong with a ledger entry as a record of its segments, or null: its artifact's name must
 * be the hash of its segments' names, and its row and failure counts their sums. Checked in full
 * by `cdp verify`: an entry edited by hand is rebuilt like a damaged artifact.
 */
export function ledgerEntryProblem(e: { artifact: string; rows: number; failed: number; segments?: readonly SegmentRef[] }): string | null {
  const segments = e.segments ?? [];
  if (!segments.length) return null;
  if (artifactHash(segments) !== e.artifact)
    return `ledger entry names artifact ${e.artifact.slice(0, 12)}…, not the one its segments make`;
  const rows = segments.reduce((n, s) => n + s.rows, 0);
  if (rows !== e.rows) return `ledger entry says ${e.rows} rows, its segments hold ${rows}`;
  const failed = segments.reduce((n, s) => n + (s.failed ?? 0), 0);
  if (failed !== e.failed) return `ledger entry says ${e.failed} failed rows, its segments hold ${failed}`;
  return null;
}

/** One segment's rows, read through a bounded buffer. */
export function* iterSegment(storeDir: string, stage: string, hash: string): Generator<Row> {
  for (const { line } of readLines(segmentPaths(storeDir, stage, hash).ndjson)) yield JSON.parse(line) as Row;
}

/** One segment's canonical lines, unparsed. */
export function* segmentLines(storeDir: string, stage: string, hash: string): Generator<string> {
  for (const { line } of readLines(segmentPaths(storeDir, stage, hash).ndjson)) yield line;
}

/** An artifact's rows one at a time, segment after segment. */
export function* iterRows(storeDir: string, stage: string, segments: readonly { hash: string }[]): Generator<Row> {
  for (const s of segments) yield* iterSegment(storeDir, stage, s.hash);
}

/** Every row of an artifact as an array (for callers that need them all, such as tests). */
export function readRows(storeDir: string, stage: string, segments: readonly { hash: string }[]): Row[] {
  return [...iterRows(storeDir, stage, segments)];
}

/**
 * The name and segments an artifact of these parts would have, cut exactly as writeArtifact cuts
 * them, without writing anything (a source's rows, to compare with what the ledger recorded; the
 * outputs of a run that persists nothing).
 */
export function hashParts(
  parts: Iterable<ArtifactPart>,
  columns: Columns,
  stage: string,
): { hash: string; rows: number; segments: string[] } {
  const segments: string[] = [];
  let h = createHash('sha256');
  let open = false;
  let inSegment = 0;
  let chars = 0;
  let n = 0;
  const cut = () => {
    segments.push(h.digest('hex'));
    h = createHash('sha256');
    open = false;
    inSegment = 0;
    chars = 0;
  };
  for (const part of parts) {
    if ('reuse' in part) {
      if (open) cut();
      segments.push(part.reuse.hash);
      n += part.reuse.rows;
      continue;
    }
    if (!part.chunk && open) cut();
    for (const item of part.rows) {
      const row = item instanceof StoredLine ? item.row() : item;
      checkColumns(row, columns, stage);
      const line = item instanceof StoredLine ? item.text : canonicalJson(row);
      h.update(line).update('\n');
      open = true;
      inSegment++;
      chars += line.length + 1;
      n++;
      if (part.chunk && segmentFull(line, inSegment, chars)) cut();
    }
    if (!part.chunk) cut();
  }
  if (open || !segments.length) cut();
  return { hash: artifactHash(segments.map((hash) => ({ hash }))), rows: n, segments };
}

/** hashParts of rows cut by their content, as a table stage's or a source's are. */
export function hashRows(rows: Iterable<Row>, columns: Columns, stage: string): { hash: string; rows: number; segments: string[] } {
  return hashParts([{ rows, chunk: true }], columns, stage);
}

/**
 * Stores an artifact from its parts and returns its reference. Rows are consumed once, in order,
 * and written line by line while their hashes are computed, so a table of any size passes through
 * in bounded memory. A segment whose hash the previous artifact already recorded (`previous`) is
 * kept when its files check, and written again otherwise. An artifact with no rows still has one
 * (empty) segment, whose Parquet file carries the column types.
 */
export async function writeArtifact(
  storeDir: string,
  stage: string,
  parts: Iterable<ArtifactPart>,
  columns: Columns,
  duck: () => Promise<DuckDBConnection>,
  previous?: readonly SegmentRef[],
  opts: { covers?: string; fullChecks?: boolean } = {},
): Promise<ArtifactRef> {
  mkdirSync(join(storeDir, 'artifacts', stage), { recursive: true });
  const known = new Map<string, SegmentRef>();
  for (const s of previous ?? []) known.set(s.hash, s);
  const lookup = (h: string) => known.get(h);
  const segments: SegmentRef[] = [];
  let open: SegmentWriter | null = null;
  const finish = async () => {
    if (!open) return;
    const w = open;
    open = null;
    const ref = await w.finish(columns, duck, lookup, opts.fullChecks);
    known.set(ref.hash, ref);
    segments.push(ref);
  };
  try {
    for (const part of parts) {
      if ('reuse' in part) {
        await finish();
        segments.push(part.reuse);
        continue;
      }
      if (!part.chunk) await finish();
      for (const item of part.rows) {
        let line: string;
        let row: Row | StoredLine;
        if (item instanceof StoredLine) {
          line = item.text;
          row = item;
        } else {
          checkColumns(item, columns, stage);
          line = canonicalJson(item);
          row = item;
        }
        open ??= new SegmentWriter(storeDir, stage, opts.covers);
        open.write(line, row);
        if (part.chunk && segmentFull(line, open.rows, open.chars)) await finish();
      }
      if (!part.chunk) {
        // A part that is one segment is one even when empty: its place in the artifact is kept.
        open ??= new SegmentWriter(storeDir, stage, opts.covers);
        await finish();
      }
    }
    if (open || !segments.length) {
      open ??= new SegmentWriter(storeDir, stage, opts.covers);
      await finish();
    }
  } catch (err) {
    (open as SegmentWriter | null)?.abandon();
    throw err;
  }
  return { hash: artifactHash(segments), rows: segments.reduce((n, s) => n + s.rows, 0), segments };
}
