/** Where a project's store, ledger, logs and warehouse live. */
import { join, resolve } from 'node:path';
import type { DagConfig } from '../dag/define.ts';

export interface Workspace {
  root: string;
  store: string;
  warehouse: string;
  ledger: string;
  statCache: string;
  runsLog: string;
  lock: string;
}

export function workspaceFor(root: string, config: Pick<DagConfig, 'store' | 'warehouse'>): Workspace {
  const store = resolve(root, config.store ?? 'data/store');
  return {
    root,
    store,
    warehouse: resolve(root, config.warehouse ?? 'data/warehouse.duckdb'),
    ledger: join(store, 'ledger.json'),
    statCache: join(store, 'stat-cache.json'),
    runsLog: join(store, 'runs.ndjson'),
    lock: join(store, 'run.lock'),
  };
}
