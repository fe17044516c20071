/**
 * The DuckDB warehouse: one view per source and stage, named after it, over its current Parquet
 * artifact, plus `runs` (provenance) and any extra relations (such as the LLM call log). The
 * database holds only views, so it is rebuilt cheaply and never holds data of its own.
 */
import { existsSync, appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { hashValue } from '../hash/canonical.ts';
import { writeFileAtomic } from './atomic.ts';
import { columnsSql } from './artifacts.ts';

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
  simulated_calls: number;
  tokens_in: number;
  tokens_out: number;
  error: string | null;
}

const RUN_COLUMNS = {
  run_id: 'VARCHAR', stage: 'VARCHAR', status: 'VARCHAR', key: 'VARCHAR', inputs: 'JSON', params: 'JSON',
  started_at: 'TIMESTAMP', ended_at: 'TIMESTAMP', seconds: 'DOUBLE', rows_computed: 'BIGINT', rows_reused: 'BIGINT',
  rows_failed: 'BIGINT', llm_calls: 'BIGINT', llm_cached: 'BIGINT', simulated_calls: 'BIGINT', tokens_in: 'BIGINT', tokens_out: 'BIGINT', error: 'VARCHAR',
};

export function appendRunRecords(runsLog: string, records: RunRecord[]): void {
  if (!records.length) return;
  mkdirSync(dirname(runsLog), { recursive: true });
  appendFileSync(runsLog, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

function quoteIdent(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}
function quoteString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/**
 * Points each view at its artifact; drops views of names no longer in the DAG. Skipped when
 * the views would be exactly those already defined (recorded in `manifestPath`), so a no-op
 * run does not even load DuckDB.
 */
export async function refreshWarehouse(
  warehousePath: string,
  views: Map<string, string /* parquet path */>,
  runsLog: string,
  extra: Record<string, string /* SQL relation */> = {},
  manifestPath?: string,
): Promise<void> {
  const manifest = hashValue({ views: [...views].map(([k, v]) => [k, resolve(v)]), extra, runs: existsSync(runsLog) });
  if (manifestPath && existsSync(warehousePath)) {
    try {
      if (readFileSync(manifestPath, 'utf8') === manifest) return;
    } catch {
      /* no manifest yet */
    }
  }
  mkdirSync(dirname(warehousePath), { recursive: true });
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(warehousePath);
  const con = await db.connect();
  try {
    const existing = (await con.runAndReadAll(`select view_name from duckdb_views() where not internal and schema_name = 'main'`)).getRowObjects().map((r) => String(r.view_name));
    const wanted = new Set([...views.keys(), ...Object.keys(extra), 'runs']);
    for (const v of existing) if (!wanted.has(v)) await con.run(`drop view if exists ${quoteIdent(v)}`);
    for (const [name, parquet] of views) {
      await con.run(`create or replace view ${quoteIdent(name)} as select * from read_parquet(${quoteString(resolve(parquet))})`);
    }
    const runsRelation = existsSync(runsLog)
      ? `select * from read_json(${quoteString(resolve(runsLog))}, format = 'newline_delimited', columns = ${columnsSql(RUN_COLUMNS)})`
      : `select * from (select ${Object.entries(RUN_COLUMNS).map(([k, t]) => `null::${t} as ${quoteIdent(k)}`).join(', ')}) where false`;
    await con.run(`create or replace view runs as ${runsRelation}`);
    for (const [name, relation] of Object.entries(extra)) await con.run(`create or replace view ${quoteIdent(name)} as ${relation}`);
  } finally {
    con.closeSync();
    db.closeSync();
  }
  if (manifestPath) writeFileAtomic(manifestPath, manifest);
}
