/**
 * The DuckDB warehouse: one view per source and stage, named after it, over its current Parquet
 * artifact, plus `runs` (provenance) and any extra relations (such as the LLM call log). The
 * database holds only views, so it is rebuilt cheaply and never holds data of its own.
 *
 * Views name their files relative to the store directory, so a copied project tree works at
 * once; every connection must therefore set `file_search_path` to the store (openWarehouse).
 * A refresh builds a new database file and renames it over the old one: a reader sees the old
 * warehouse or the new one, never a mix, and a reader holding the old file open (even the
 * writer lock) cannot make the refresh fail.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, renameSync, statSync, openSync, fsyncSync, closeSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { hashValue } from '../hash/canonical.ts';
import { findTempFiles, tempPathFor, writeFileAtomic } from './atomic.ts';
import { columnsSql } from './artifacts.ts';
import { appendWhole } from './disk-full.ts';

export interface RunRecord {
  run_id: string;
  stage: string;
  status: 'ran' | 'reused' | 'failed' | 'not-run';
  key: string | null;
  inputs: Record<string, string>;
  params: unknown;
  started_at: string;
  ended_at: string;
  seconds: number;
  rows_computed: number;
  rows_reused: number;
  rows_failed: number;
  llm_calls: number;
  llm_cached: number;
  /** The stage's LLM counters as the client reported them. */
  counters: Record<string, number>;
  tokens_in: number;
  tokens_out: number;
  error: string | null;
}

const RUN_COLUMNS = {
  run_id: 'VARCHAR',
  stage: 'VARCHAR',
  status: 'VARCHAR',
  key: 'VARCHAR',
  inputs: 'JSON',
  params: 'JSON',
  started_at: 'TIMESTAMP',
  ended_at: 'TIMESTAMP',
  seconds: 'DOUBLE',
  rows_computed: 'BIGINT',
  rows_reused: 'BIGINT',
  rows_failed: 'BIGINT',
  llm_calls: 'BIGINT',
  llm_cached: 'BIGINT',
  counters: 'JSON',
  tokens_in: 'BIGINT',
  tokens_out: 'BIGINT',
  error: 'VARCHAR',
};

/**
 * Appends the run's records to the run log, whole or not at all (a full disk leaves the log as it
 * was); a last line torn by a process killed mid-write is cut off first, and `warn` told.
 */
export function appendRunRecords(runsLog: string, records: RunRecord[], warn?: (message: string) => void): void {
  if (!records.length) return;
  mkdirSync(dirname(runsLog), { recursive: true });
  appendWhole(runsLog, records.map((r) => JSON.stringify(r)).join('\n') + '\n', (bytes) =>
    warn?.(`${runsLog} ended in a torn line (${bytes} bytes, a run killed mid-write); it was cut off`),
  );
}

function quoteIdent(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}
function quoteString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

export interface WarehouseConnection {
  db: DuckDBInstance;
  con: DuckDBConnection;
  close(): void;
}

/**
 * Opens the warehouse with `file_search_path` set to the store, which is how its views' relative
 * paths resolve. Every connection to the warehouse goes through here (or sets the same).
 */
export async function openWarehouse(path: string, storeDir: string, opts: { readOnly?: boolean } = {}): Promise<WarehouseConnection> {
  // DuckDB splits file_search_path at commas: such a store directory could not be searched.
  if (storeDir.includes(',')) {
    throw new Error(`the store directory ${storeDir} contains a comma, which DuckDB's file_search_path cannot hold; move the store`);
  }
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(path, {
    access_mode: opts.readOnly ? 'READ_ONLY' : 'READ_WRITE',
    file_search_path: resolve(storeDir),
  });
  const con = await db.connect();
  return {
    db,
    con,
    close() {
      con.closeSync();
      db.closeSync();
    },
  };
}

/** A path as a view names it: relative to the store when it lies inside, absolute otherwise. */
export function storeRelative(storeDir: string, path: string): string {
  const rel = relative(resolve(storeDir), resolve(path));
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : resolve(path);
}

/**
 * Extra relations are built by their owners with absolute paths (the LLM call log under the
 * store); string literals naming files under the store become store-relative here, so that the
 * whole warehouse follows the contract whoever wrote the relation.
 */
export function relativizeSql(storeDir: string, sql: string): string {
  return sql.split(quoteString(resolve(storeDir) + '/').slice(0, -1)).join("'");
}

export interface WarehouseSpec {
  warehouse: string;
  storeDir: string;
  /** View name → the Parquet segments of the artifact it reads, in order. */
  views: Map<string, string[]>;
  runsLog: string;
  /** Extra view name → SQL relation. */
  extra?: Record<string, string>;
  /**
   * Where the last build's manifest and the warehouse file's stat are recorded: a refresh whose
   * views would be exactly those, into the very file built then, is skipped without loading DuckDB.
   */
  statePath?: string;
}

interface WarehouseState {
  manifest: string;
  file: [number, number, number] | null;
}

function fileStat(path: string): [number, number, number] | null {
  try {
    const s = statSync(path);
    return [s.size, s.mtimeMs, s.ino];
  } catch {
    return null;
  }
}

/** The view definitions of a warehouse (name → SQL relation), in a stable order. */
export function warehouseViews(spec: WarehouseSpec): [string, string][] {
  const rel = (p: string) => quoteString(storeRelative(spec.storeDir, p));
  const out: [string, string][] = [];
  for (const [name, files] of spec.views) {
    const list = files.length === 1 ? rel(files[0]) : `[${files.map(rel).join(', ')}]`;
    out.push([name, `select * from read_parquet(${list})`]);
  }
  out.push([
    'runs',
    existsSync(spec.runsLog)
      ? // A torn line (a run killed mid-write, cut off by the next run) reads as all nulls, never as an error that breaks the view.
        `select * from read_json(${rel(spec.runsLog)}, format = 'newline_delimited', columns = ${columnsSql(RUN_COLUMNS)}, ignore_errors = true) where run_id is not null`
      : `select * from (select ${Object.entries(RUN_COLUMNS)
          .map(([k, t]) => `null::${t} as ${quoteIdent(k)}`)
          .join(', ')}) where false`,
  ]);
  for (const [name, relation] of Object.entries(spec.extra ?? {})) out.push([name, relativizeSql(spec.storeDir, relation)]);
  return out;
}

/** Whether the warehouse file is the one the last refresh built for these views. */
export function warehouseIsCurrent(spec: WarehouseSpec): boolean {
  if (!spec.statePath) return false;
  let state: WarehouseState;
  try {
    state = JSON.parse(readFileSync(spec.statePath, 'utf8')) as WarehouseState;
  } catch {
    return false;
  }
  const now = fileStat(spec.warehouse);
  return !!now && state.manifest === hashValue(warehouseViews(spec)) && JSON.stringify(state.file) === JSON.stringify(now);
}

/**
 * Brings the warehouse in line with the views: skipped when it already is (warehouseIsCurrent),
 * otherwise built into a temporary file beside it and renamed into place. A missing warehouse,
 * one replaced or edited behind the runner's back, or one left by a killed refresh, is rebuilt.
 */
export async function refreshWarehouse(spec: WarehouseSpec): Promise<'current' | 'rebuilt'> {
  if (warehouseIsCurrent(spec)) return 'current';
  const defs = warehouseViews(spec);
  const dir = dirname(spec.warehouse);
  mkdirSync(dir, { recursive: true });
  // The caller holds the run lock, so temporary warehouses beside this one are a killed refresh's.
  for (const f of findTempFiles(dir, { prefix: basename(spec.warehouse) + '.' })) rmSync(f, { force: true });
  const tmp = tempPathFor(spec.warehouse);
  try {
    const w = await openWarehouse(tmp, spec.storeDir);
    try {
      // One transaction for all views: a commit per view costs more than binding it.
      await w.con.run('begin transaction');
      for (const [name, relation] of defs) await w.con.run(`create view ${quoteIdent(name)} as ${relation}`);
      await w.con.run('commit');
      await w.con.run('checkpoint');
    } finally {
      w.close();
    }
    // A write-ahead log left beside the old file (by a writer other than this one) would be
    // replayed into the new database: it belongs to the old one and goes with it.
    rmSync(spec.warehouse + '.wal', { force: true });
    renameSync(tmp, spec.warehouse);
  } catch (err) {
    rmSync(tmp, { force: true });
    rmSync(tmp + '.wal', { force: true });
    throw err;
  }
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (spec.statePath) {
    const state: WarehouseState = { manifest: hashValue(defs), file: fileStat(spec.warehouse) };
    writeFileAtomic(spec.statePath, JSON.stringify(state));
  }
  return 'rebuilt';
}
