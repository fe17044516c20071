/** Where a project's store, ledger, logs and warehouse live. */
import { join, resolve } from 'node:path';

export interface Workspace {
  root: string;
  store: string;
  warehouse: string;
  ledger: string;
  statCache: string;
  /** What each stage cost when it last ran (pipeline/store/stage-seconds.ts): the job slots' hint. */
  stageSeconds: string;
  runsLog: string;
  lock: string;
  /** The project's one LLM call cache, shared by every store (--call-cache or CDP_LLM_CACHE; default data/llm-cache). */
  llmCache: string;
}

/**
 * The workspace of a store (default data/store) and its warehouse (default
 * data/warehouse.duckdb), relative to the project root. The CLI passes the options' locations
 * (pipeline/cli/invocation.mjs decides them, and the call cache every store shares: --call-cache,
 * default data/llm-cache); nothing here reads the environment.
 */
export function workspaceFor(root: string, at: { store?: string; warehouse?: string; llmCache?: string } = {}): Workspace {
  const store = resolve(root, at.store ?? 'data/store');
  return {
    root,
    store,
    warehouse: resolve(root, at.warehouse ?? 'data/warehouse.duckdb'),
    ledger: join(store, 'ledger.json'),
    statCache: join(store, 'stat-cache.json'),
    stageSeconds: join(store, 'stage-seconds.json'),
    runsLog: join(store, 'runs.ndjson'),
    lock: join(store, 'run.lock'),
    llmCache: resolve(root, at.llmCache ?? 'data/llm-cache'),
  };
}
