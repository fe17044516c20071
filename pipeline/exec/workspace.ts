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
  /** The project's one LLM call cache, shared by every store (CDP_LLM_CACHE; default data/llm-cache). */
  llmCache: string;
}

/**
 * CDP_STORE and CDP_WAREHOUSE, when set, override the config's locations: one checkout can keep
 * several stores (an offline sample run beside a run against a server) without editing the DAG.
 * CDP_LLM_CACHE moves the call cache every store shares (two projects may share one, too).
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
    llmCache: resolve(root, env.CDP_LLM_CACHE || 'data/llm-cache'),
  };
}
