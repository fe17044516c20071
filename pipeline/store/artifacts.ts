/**
 * Stage outputs. Each artifact is named by the hash of its rows' content and kept twice: as
 * canonical NDJSON, which the runner reads back exactly as the stage wrote it, and as Parquet,
 * which the warehouse and notebooks query. Both are written atomically; an artifact that exists
 * is complete.
 */
import { existsSync, readFileSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { canonicalJson } from '../hash/canonical.ts';
import { writeFileAtomic, tempPathFor } from './atomic.ts';
import type { Columns, Row } from '../dag/define.ts';

export interface ArtifactRef {
  hash: string;
  rows: number;
  ndjson: string;
  parquet: string;
}

export function artifactPaths(storeDir: string, stage: string, hash: string): { ndjson: string; parquet: string } {
  const dir = join(storeDir, 'artifacts', stage);
  return { ndjson: join(dir, `${hash}.ndjson`), parquet: join(dir, `${hash}.parquet`) };
}

/** Canonical NDJSON of rows and its sha256: the artifact's identity. */
export function encodeRows(rows: Row[], columns: Columns, stage: string): { text: string; hash: string } {
  const h = createHash('sha256');
  const lines: string[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    for (const k of Object.keys(row)) {
      if (!(k in columns)) {
        throw new Error(`stage '${stage}' returned column '${k}', which its columns do not declare (declared: ${Object.keys(columns).join(', ')})`);
      }
    }
    const line = canonicalJson(row);
    lines[i] = line;
    h.update(line);
    h.update('\n');
  }
  const text = lines.length ? lines.join('\n') + '\n' : '';
  return { text, hash: h.digest('hex') };
}

export function readRows(ndjsonPath: string): Row[] {
  const text = readFileSync(ndjsonPath, 'utf8');
  const rows: Row[] = [];
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? text.length : end);
    if (line) rows.push(JSON.parse(line) as Row);
    start = end < 0 ? text.length : end + 1;
  }
  return rows;
}

function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

export function columnsSql(columns: Columns): string {
  return '{' + Object.entries(columns).map(([k, t]) => `${sqlString(k)}: ${sqlString(t)}`).join(', ') + '}';
}

/**
 * Stores rows as an artifact (a no-op when an identical one exists) and returns its reference.
 * Parquet is produced by DuckDB from the NDJSON with the declared column types, so a type
 * mismatch surfaces here with DuckDB's message and the stage's name.
 */
export async function writeArtifact(
  storeDir: string,
  stage: string,
  rows: Row[],
  columns: Columns,
  duck: () => Promise<DuckDBConnection>,
): Promise<ArtifactRef> {
  const { text, hash } = encodeRows(rows, columns, stage);
  const paths = artifactPaths(storeDir, stage, hash);
  if (existsSync(paths.ndjson) && existsSync(paths.parquet)) return { hash, rows: rows.length, ...paths };
  mkdirSync(join(storeDir, 'artifacts', stage), { recursive: true });
  const tmpJson = tempPathFor(paths.ndjson);
  writeFileAtomic(tmpJson, text);
  const tmpParquet = tempPathFor(paths.parquet);
  try {
    const con = await duck();
    const select = `select ${Object.keys(columns).map((c) => `"${c.replace(/"/g, '""')}"`).join(', ')} from read_json(${sqlString(tmpJson)}, format = 'newline_delimited', columns = ${columnsSql(columns)})`;
    await con.run(`copy (${select}) to ${sqlString(tmpParquet)} (format parquet, compression zstd)`);
  } catch (err) {
    rmSync(tmpJson, { force: true });
    rmSync(tmpParquet, { force: true });
    throw new Error(`stage '${stage}': its rows do not fit its declared columns: ${(err as Error).message}`);
  }
  // Parquet first: an artifact counts as present only when its NDJSON exists, so a crash
  // between the two renames leaves a stray Parquet file, never a half artifact.
  renameSync(tmpParquet, paths.parquet);
  renameSync(tmpJson, paths.ndjson);
  return { hash, rows: rows.length, ...paths };
}
