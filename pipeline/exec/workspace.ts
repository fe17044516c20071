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

/**
 * CDP_STORE and CDP_WAREHOUSE, when set, override the config's locations: one checkout can keep
 * several stores (an offline sample run beside a run against a server) without editing the DAG.
 */
export function workspaceFor(
  root: string,
  config: Pick<DagConfig, 'store' | 'warehouse'>,
  env: NodeJS.ProcessEnv = process.env,
): Workspace {
  const store = resolve(root, env.CDP_STORE || config.store || 'data/store');
  return {
    root,
    store,
    warehouse: resolve(
      root,
      env.CDP_WAREHOUSE || (env.CDP_STORE ? join(store, 'warehouse.duckdb') : config.warehouse || 'data/warehouse.duckdb'),
    ),
    ledger: join(store, 'ledger.json'),
    statCache: join(store, 'stat-cache.json'),
    runsLog: join(store, 'runs.ndjson'),
    lock: join(store, 'run.lock'),
  };
}
