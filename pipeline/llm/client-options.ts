/**
 * What a client is created with, and which provider answers each of its calls (the dispatch).
 */
import type { BatchPolicy, ChatRequest, ModelSpec, OfflineHandler, Provider, RetryPolicy } from './types.ts';

export interface LlmClientOptions {
  /**
   * Directory holding `calls/` (cache and call log) and `batches/` (batch manifests): the
   * project's one call cache, which several processes (runs on different stores) may share.
   */
  cacheDir: string;
  /**
   * The store's own part of the call log (store-log.ts), when the client runs for a store: the
   * lines it writes name the store, and answers another store's run made are copied here.
   */
  storeLogDir?: string;
  /** Where the one-line-per-model "waiting for the server" progress goes (default: stderr). */
  progress?: (line: string) => void;
  /** The declared roster; the client resolves it against `env` (see resolveRoster). */
  roster: readonly ModelSpec[];
  /** The in-process providers of the roster's offline models, by name (a handler function is wrapped). */
  offlineHandlers?: Record<string, OfflineHandler | Provider>;
  env?: NodeJS.ProcessEnv;
  /** `estimate`: misses are counted and priced, never sent. */
  mode?: 'live' | 'estimate';
  /** The fetch the `openai` SDK uses for embeddings, files and batches (chat calls go over node:http, http-post.ts). */
  fetch?: typeof fetch;
  log?: (line: string) => void;
  retry?: Partial<RetryPolicy>;
  batch?: Partial<BatchPolicy>;
  /** Stages whose misses go through the Batch API whatever the model says. */
  batchStages?: readonly string[];
  /** Per-attempt timeout when the model sets none (default 10 minutes: long generations are normal). */
  timeoutMs?: number;
  /** Output tokens assumed per call in estimates when neither request nor model says (default 512). */
  expectedOutputTokens?: number;
  /** Source of jitter; tests pass a fixed one. */
  random?: () => number;
  /**
   * In estimate mode, the offline model that answers in place of a real model's miss, so the
   * stages after it see an answer of the right shape and their calls are estimated too
   * (undefined: the miss is counted and its stage sees a failure).
   */
  estimateStandIn?: (req: ChatRequest) => string | undefined;
}

/** Which provider answers a call. */
export type ProviderKind = 'offline' | 'estimate' | 'batch' | 'live';

/** The dispatch: the one place the client's modes are told apart. */
export function providerKind(spec: ModelSpec, stage: string, mode: 'live' | 'estimate', batchStages: ReadonlySet<string>): ProviderKind {
  if (spec.provider === 'offline') return 'offline';
  if (mode === 'estimate') return 'estimate';
  if (spec.batch || batchStages.has(stage)) return 'batch';
  return 'live';
}
