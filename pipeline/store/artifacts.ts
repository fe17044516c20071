/**
 * Stage outputs. Each artifact is named by the hash of its rows' content and kept twice: as
 * canonical NDJSON, which the runner reads back exactly as the stage wrote it, and as Parquet,
 * which the warehouse and notebooks query. Both are streamed, row by row (lines.ts): no artifact
 * is ever one string in memory. Both are written atomically; an artifact that exists
 * is complete. The ledger records both files' size, mtime and sha256, so that a file changed
 * behind the runner's back (a `COPY … TO` over it, an editor, a bad disk) is noticed on reuse.
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync, openSync, readSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { canonicalJson } from '../hash/canonical.ts';
import { tempPathFor } from './atomic.ts';
import { LineWriter, readLines } from './lines.ts';
import type { Columns, Row } from '../dag/define.ts';

export interface ArtifactRef {
  hash: string;
  rows: number;
  ndjson: string;
  parquet: string;
  files: ArtifactFiles;
}

/** What the ledger knows of one artifact file: its stat for the cheap check, its sha256 for the full one. */
export interface FileRecord {
  size: number;
  mtimeMs: number;
  sha256: string;
}

export interface ArtifactFiles {
  ndjson: FileRecord;
  parquet: FileRecord;
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
 * Whether an artifact's files are still what the ledger recorded. `restat` is set when a file's
 * stat changed but its content did not (a copied tree, a `touch`): the caller records the new
 * stat so the next check is cheap again.
 */
export type ArtifactCheck = { ok: true; restat: ArtifactFiles | null } | { ok: false; reason: string };

export function checkArtifact(paths: { ndjson: string; parquet: string }, recorded: ArtifactFiles | undefined): ArtifactCheck {
  if (!existsSync(paths.ndjson) || !existsSync(paths.parquet)) return { ok: false, reason: 'artifact missing from the store' };
  if (!recorded?.ndjson || !recorded.parquet) {
    return { ok: false, reason: 'artifact has no recorded size and checksum (written by an older cdp): rebuilding it' };
  }
  let restat: ArtifactFiles | null = null;
  for (const kind of ['ndjson', 'parquet'] as const) {
    const path = paths[kind];
    const want = recorded[kind];
    const s = statSync(path);
    if (s.size === want.size && s.mtimeMs === want.mtimeMs) continue;
    if (s.size !== want.size || sha256File(path) !== want.sha256) return { ok: false, reason: `artifact changed on disk: ${path}` };
    restat ??= { ...recorded };
    restat[kind] = { ...want, mtimeMs: s.mtimeMs };
  }
  return { ok: true, restat };
}

export function artifactPaths(storeDir: string, stage: string, hash: string): { ndjson: string; parquet: string } {
  const dir = join(storeDir, 'artifacts', stage);
  return { ndjson: join(dir, `${hash}.ndjson`), parquet: join(dir, `${hash}.parquet`) };
}

function checkColumns(row: Row, columns: Columns, stage: string): void {
  for (const k of Object.keys(row)) {
    if (!(k in columns)) {
      throw new Error(
        `stage '${stage}' returned column '${k}', which its columns do not declare (declared: ${Object.keys(columns).join(', ')})`,
      );
    }
  }
}

/**
 * The sha256 of rows' canonical NDJSON: the artifact's identity, computed line by line so no
 * text of the whole table is ever built.
 */
export function hashRows(rows: Iterable<Row>, columns: Columns, stage: string): { hash: string; rows: number } {
  const h = createHash('sha256');
  let n = 0;
  for (const row of rows) {
    checkColumns(row, columns, stage);
    h.update(canonicalJson(row));
    h.update('\n');
    n++;
  }
  return { hash: h.digest('hex'), rows: n };
}

/** An artifact's rows one at a time, read through a bounded buffer. */
export function* iterRows(ndjsonPath: string): Generator<Row> {
  for (const { line } of readLines(ndjsonPath)) yield JSON.parse(line) as Row;
}

/** Every row of an artifact as an array (for callers that need them all, such as tests). */
export function readRows(ndjsonPath: string): Row[] {
  return [...iterRows(ndjsonPath)];
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
 * Stores rows as an artifact and returns its reference. The rows are consumed once, in order,
 * and written line by line while their hash is computed, so a table of any size passes through
 * in bounded memory. Existing files are kept only when they check against what the ledger
 * recorded of this very artifact (`previous`, the stage's last entry); otherwise, unverified or
 * changed, they are written again. Parquet is produced by DuckDB from the NDJSON with the declared
 * column types, so a type mismatch surfaces here with DuckDB's message and the stage's name.
 */
export async function writeArtifact(
  storeDir: string,
  stage: string,
  rows: Iterable<Row>,
  columns: Columns,
  duck: () => Promise<DuckDBConnection>,
  previous?: { artifact: string; files?: ArtifactFiles },
): Promise<ArtifactRef> {
  const dir = join(storeDir, 'artifacts', stage);
  mkdirSync(dir, { recursive: true });
  // Named by its hash, which is known only once every row is written.
  const tmpJson = tempPathFor(join(dir, 'incoming.ndjson'));
  const h = createHash('sha256');
  let count = 0;
  const out = new LineWriter(tmpJson);
  try {
    for (const row of rows) {
      checkColumns(row, columns, stage);
      const line = canonicalJson(row);
      h.update(line);
      h.update('\n');
      out.write(line);
      count++;
    }
    out.close();
  } catch (err) {
    out.abandon();
    rmSync(tmpJson, { force: true });
    throw err;
  }
  const hash = h.digest('hex');
  const paths = artifactPaths(storeDir, stage, hash);
  const recorded = previous?.artifact === hash ? previous.files : undefined;
  const check = recorded ? checkArtifact(paths, recorded) : null;
  if (recorded && check?.ok) {
    rmSync(tmpJson, { force: true });
    return { hash, rows: count, ...paths, files: check.restat ?? recorded };
  }
  const tmpParquet = tempPathFor(paths.parquet);
  try {
    const con = await duck();
    const select = `select ${Object.keys(columns)
      .map((c) => `"${c.replace(/"/g, '""')}"`)
      .join(', ')} from read_json(${sqlString(tmpJson)}, format = 'newline_delimited', columns = ${columnsSql(columns)})`;
    await con.run(`copy (${select}) to ${sqlString(tmpParquet)} (format parquet, compression zstd)`);
  } catch (err) {
    rmSync(tmpJson, { force: true });
    rmSync(tmpParquet, { force: true });
    throw new Error(`stage '${stage}': its rows do not fit its declared columns: ${(err as Error).message}`, { cause: err });
  }
  // Parquet first: an artifact counts as present only when its NDJSON exists, so a crash
  // between the two renames leaves a stray Parquet file, never a half artifact.
  renameSync(tmpParquet, paths.parquet);
  renameSync(tmpJson, paths.ndjson);
  // The NDJSON's sha256 is its name: the hash of exactly these bytes.
  return { hash, rows: count, ...paths, files: { ndjson: recordFile(paths.ndjson, hash), parquet: recordFile(paths.parquet) } };
}
