/**
 * The run's DuckDB: an in-memory instance for writing Parquet, loaded on first use (a no-op rerun
 * never needs DuckDB, and loading it costs a second), and the warehouse's views refreshed from
 * the ledger at the end of a run.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { segmentPaths } from '../store/artifacts.ts';
import type { Ledger } from '../store/ledger.ts';
import { refreshWarehouse } from '../store/warehouse.ts';
import type { Workspace } from './workspace.ts';

export class LazyDuck {
  private instance: Promise<{ db: DuckDBInstance; con: DuckDBConnection }> | null = null;

  connection = async (): Promise<DuckDBConnection> => {
    this.instance ??= (async () => {
      const { DuckDBInstance } = await import('@duckdb/node-api');
      const db = await DuckDBInstance.create(':memory:', { threads: '2' });
      return { db, con: await db.connect() };
    })();
    return (await this.instance).con;
  };

  async close(): Promise<void> {
    if (!this.instance) return;
    const { db, con } = await this.instance;
    con.closeSync();
    db.closeSync();
  }
}

/** One view per stage whose every segment has its Parquet file, beside the extra views given. */
export async function refreshViews(order: readonly string[], ledger: Ledger, ws: Workspace, extra: Record<string, string>): Promise<void> {
  const views = new Map<string, string[]>();
  for (const name of order) {
    const e = ledger.entries[name];
    if (!e?.segments?.length) continue;
    const files = e.segments.map((seg) => segmentPaths(ws.store, name, seg.hash).parquet);
    if (files.every((f) => existsSync(f))) views.set(name, files);
  }
  await refreshWarehouse({
    warehouse: ws.warehouse,
    storeDir: ws.store,
    views,
    runsLog: ws.runsLog,
    extra,
    statePath: join(ws.store, 'warehouse-state.json'),
  });
}
