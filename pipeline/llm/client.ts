/**
 * The one LLM client every stage calls through. It does what every provider shares and hands
 * each call it cannot answer itself to the provider that answers it (providers/, one interface:
 * `callApi(prompt, context)`, after promptfoo's):
 *
 *   chat(req) ─ roster lookup (roster.ts: endpoints, keys by env-var name, active flags)
 *     ├─ offline model → its offline provider (providers/offline.ts); counted, never stored
 *     ├─ cache key (request-key.ts: model id + messages + params + response format + repeat;
 *     │   blobs registered with client.blob() enter by a hash computed once)
 *     ├─ hit in the call store (call-store.ts: append-only JSONL, fsync'd before use) → no HTTP
 *     ├─ identical call already in flight → shares its answer
 *     ├─ estimate mode → providers/estimate.ts: counted and priced for estimateReport(), not sent
 *     ├─ context check (tokens.ts) → failure row "context overflow (N tokens > window W)"
 *     ├─ batch model or stage → providers/batch.ts: a line of the next Batch API batch
 *     │   (batch.ts: JSONL, upload, create, poll; resumable by batch id)
 *     └─ live → providers/live.ts: the least busy replica, its semaphore and rpm/tpm buckets
 *         (flow-control.ts), one attempt at a time through the openai SDK (openai-transport.ts)
 *
 * `providerKind` is the dispatch. Every request to a server goes through the client's one
 * Retrier (retry.ts: backoff, jitter, Retry-After); every answer or final failure from a server
 * is appended to the call store through `record` before its caller sees it (the store's lines
 * are also the warehouse view llm_calls, call-log.ts); counters change only through Counters.
 *
 * Failures are returned, never thrown, and never cached: a rerun asks again, which is how
 * `cdp run --retry-failed` fills failed rows in. An answer its reader refuses is handed back to
 * `client.reject(result, reason)`: it stays in the log, is no longer served, and the next ask is
 * a fresh attempt with a new seed, so a retry can get a different answer from a recovered
 * server. Keys are read from the environment at call time, kept only in memory, and redacted
 * from every error text.
 */
import { join } from 'node:path';
import { Blobs } from './blobs.ts';
import { CallStore } from './call-store.ts';
import { Counters } from './counters.ts';
import { classifyError } from './openai-transport.ts';
import { BatchProvider } from './providers/batch.ts';
import { EstimateProvider } from './providers/estimate.ts';
import { Endpoints, LiveProvider } from './providers/live.ts';
import { offlineProvider } from './providers/offline.ts';
import { callKey, callKeyCanonical, canonicalJson, promptHash, sha256Hex } from './request-key.ts';
import { DEFAULT_RETRY, Retrier } from './retry.ts';
import { costOf, redact, resolveRoster } from './roster.ts';
import { outputReserve } from './tokens.ts';
import type {
  BatchPolicy,
  CallCounters,
  CallIdentity,
  ChatMessage,
  ChatRequest,
  ChatResult,
  ContentPart,
  EmbedRequest,
  EmbedResult,
  EstimateRow,
  LlmClient,
  LlmStageClient,
  ModelSpec,
  OfflineHandler,
  Provider,
  ProviderPrompt,
  ProviderResponse,
  RetryPolicy,
  StoredCall,
} from './types.ts';

export interface LlmClientOptions {
  /** Directory holding `calls/` (cache and call log) and `batches/` (batch manifests). */
  cacheDir: string;
  /** The declared roster; the client resolves it against `env` (see resolveRoster). */
  roster: readonly ModelSpec[];
  /** The in-process providers of the roster's offline models, by name (a handler function is wrapped). */
  offlineHandlers?: Record<string, OfflineHandler | Provider>;
  env?: NodeJS.ProcessEnv;
  /** `estimate`: misses are counted and priced, never sent. */
  mode?: 'live' | 'estimate';
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

const UNSTAGED = 'unstaged';

/** Which provider answers a call. */
export type ProviderKind = 'offline' | 'estimate' | 'batch' | 'live';

/** The dispatch: the one place the client's modes are told apart. */
export function providerKind(spec: ModelSpec, stage: string, mode: 'live' | 'estimate', batchStages: ReadonlySet<string>): ProviderKind {
  if (spec.provider === 'offline') return 'offline';
  if (mode === 'estimate') return 'estimate';
  if (spec.batch || batchStages.has(stage)) return 'batch';
  return 'live';
}

/** Creates the client. Opening indexes the call store, so create one per run and `close()` it. */
export function createLlmClient(opts: LlmClientOptions): LlmClient {
  return new Client(opts);
}

class Client implements LlmClient {
  private readonly env: NodeJS.ProcessEnv;
  private readonly mode: 'live' | 'estimate';
  private readonly models = new Map<string, ModelSpec>();
  private readonly defaults = new Map<string, { params: Readonly<Record<string, unknown>>; canonical: string }>();
  private readonly store: CallStore;
  private readonly blobs = new Blobs();
  private readonly inflight = new Map<string, Promise<ChatResult>>();
  private readonly tally = new Counters();
  private readonly batchStages: Set<string>;
  private readonly log: (line: string) => void;
  private readonly retry: Retrier;
  private readonly endpoints: Endpoints;
  private readonly live = new Map<string, LiveProvider>();
  private readonly offline = new Map<string, Provider>();
  private readonly batch: BatchProvider;
  private readonly estimator: EstimateProvider;
  private closed = false;

  constructor(private readonly o: LlmClientOptions) {
    this.env = o.env ?? process.env;
    this.mode = o.mode ?? 'live';
    for (const m of resolveRoster(o.roster, this.env)) {
      this.models.set(m.name, m);
      // A private frozen copy: a caller mutating its roster cannot change keys mid-run.
      const params = Object.freeze({ ...m.params });
      this.defaults.set(m.name, { params, canonical: canonicalJson(params) });
    }
    this.log = o.log ?? (() => {});
    // A damaged cache line is worth a warning even when nobody listens to the client's log.
    this.store = CallStore.open(o.cacheDir, { readOnly: this.mode === 'estimate', ...(o.log ? { warn: o.log } : {}) });
    this.batchStages = new Set(o.batchStages ?? []);
    this.retry = new Retrier(
      { ...DEFAULT_RETRY, ...o.retry },
      { random: o.random, log: this.log, classify: classifyError, redact: this.redactKeys },
    );
    this.endpoints = new Endpoints({ env: this.env, fetch: o.fetch });
    this.batch = new BatchProvider({
      cacheDir: o.cacheDir,
      policy: o.batch,
      baseURLOf: (name) => this.liveOf(this.spec(name)).pickReplica().baseURL,
      // A batch resumed from an earlier run may name a server no model lists now: it gets no key.
      sdkFor: (baseURL) =>
        this.endpoints.sdk(
          baseURL,
          [...this.models.values()].find((m) => m.baseURLs?.includes(baseURL)),
        ),
      retry: this.retry,
      record: this.record,
      redact: this.redactKeys,
      log: this.log,
    });
    this.estimator = new EstimateProvider({
      modelOf: (name) => this.models.get(name),
      expectedOutputTokens: o.expectedOutputTokens,
      standIn: (prompt) => this.standIn(prompt),
    });
  }

  roster(): ModelSpec[] {
    return [...this.models.values()].map((m) => ({ ...m }));
  }

  blob(text: string): ContentPart {
    return this.blobs.register(text);
  }

  forStage(stage: string): LlmStageClient {
    return {
      stage,
      chat: (req) => this.chat({ ...req, stage }),
      embed: (req) => this.embed({ ...req, stage }),
      reject: (result, reason) => this.reject(result, reason),
      blob: (text) => this.blob(text),
      counters: () => ({ ...this.tally.of(stage) }),
    };
  }

  counters(): CallCounters {
    return this.tally.total();
  }

  estimateReport(): EstimateRow[] {
    return this.estimator.estimateReport();
  }

  async flushBatches(): Promise<void> {
    await this.batch.flush();
  }

  async close(opts: { detachBatches?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    if (opts.detachBatches) await this.batch.detach();
    else await this.flushBatches();
    while (this.inflight.size) await Promise.allSettled([...this.inflight.values()]);
    this.closed = true;
    await this.store.close();
  }

  async reject(result: ChatResult, reason: string): Promise<void> {
    // Offline and estimated answers are not in the store: there is nothing to stop serving.
    if (!result.ok || !result.call) return;
    await this.store.reject({ ...result.call, reason: this.redactKeys(reason) });
  }

  async chat(req: ChatRequest): Promise<ChatResult> {
    if (this.closed) throw new Error('llm client: chat() after close(); create a new client for a new run');
    const spec = this.spec(req.model);
    const stage = req.stage ?? UNSTAGED;
    const counters = this.tally.of(stage);
    this.tally.add(counters, 'calls');
    const kind = providerKind(spec, stage, this.mode, this.batchStages);
    // No per-call closures here: this path runs a million times when a run is replayed.
    if (kind === 'offline') return this.answerOffline(spec, req, stage, counters);

    const modelId = spec.modelId ?? spec.name;
    const defaults = this.defaults.get(spec.name)!;
    const params = req.params ? { ...defaults.params, ...req.params } : defaults.params;
    const prompt = promptHash(req.messages);
    const repeat = req.repeat ?? 0;
    if (!Number.isInteger(repeat) || repeat < 0) throw new Error(`llm client: repeat must be a non-negative integer, got ${repeat}`);
    const sample = spec.independentSamples !== false && req.sample !== undefined ? req.sample : undefined;
    const key = req.params
      ? callKey(modelId, prompt, params, req.responseFormat, repeat, sample)
      : callKeyCanonical(modelId, prompt, defaults.canonical, req.responseFormat, repeat, sample);

    const hit = this.store.get(key);
    const meta: StoredCall = { key, model: spec.name, modelId, stage, promptHash: prompt, repeat };
    if (hit) {
      this.tally.add(counters, 'cached');
      const usage = { inputTokens: hit.inputTokens, outputTokens: hit.outputTokens };
      const fr = hit.finishReason ? { finishReason: hit.finishReason } : {};
      return { ok: true, text: hit.text, cached: true, usage, latencyMs: hit.latencyMs, call: { ...meta, attempt: hit.attempt }, ...fr };
    }
    const same = this.inflight.get(key);
    if (same) {
      const sharedAttempt = this.store.attemptOf(key);
      const r = await same;
      if (r.ok) {
        this.tally.add(counters, 'cached');
        return { ...r, cached: true, call: { ...meta, attempt: sharedAttempt } };
      }
      return this.failed(counters, r.error, 0);
    }

    // Estimates are for before a model is configured; hits above are served without a key.
    if (kind === 'estimate') return this.answerEstimate(spec, req, params, sample, meta, counters);
    if (!spec.active) return this.failed(counters, `model ${spec.name} is inactive: ${spec.inactiveReason ?? 'no endpoint configured'}`, 0);

    const attempt = this.store.attemptOf(key);
    const call: StoredCall = {
      ...meta,
      ...(sample !== undefined ? { sample } : {}),
      ...(req.role ? { role: req.role } : {}),
      ...(attempt > 0 ? { attempt } : {}),
    };
    const run = this.send(kind === 'batch' ? this.batch : this.liveOf(spec), spec, req, params, sample, call);
    this.inflight.set(key, run);
    let r: ChatResult;
    try {
      r = await run;
    } finally {
      this.inflight.delete(key);
    }
    if (!r.ok) return this.failed(counters, r.error, r.attempts);
    this.tally.usage(counters, r.usage.inputTokens, r.usage.outputTokens, costOf(spec, r.usage.inputTokens, r.usage.outputTokens));
    const identity: CallIdentity = { ...meta, attempt };
    return { ...r, call: identity };
  }

  /**
   * Embeddings: each text is a cache entry of its own (key: model id + text), so a rerun, or the
   * same step in another pathway, costs nothing; the misses go to the model's live provider in
   * one request (a batch model's too: embeddings are never batched).
   */
  async embed(req: EmbedRequest): Promise<EmbedResult> {
    if (this.closed) throw new Error('llm client: embed() after close(); create a new client for a new run');
    const spec = this.spec(req.model);
    const stage = req.stage ?? UNSTAGED;
    const counters = this.tally.of(stage);
    const kind = providerKind(spec, stage, this.mode, this.batchStages);
    if (kind === 'offline') return { ok: false, error: `model ${spec.name} is offline: embeddings need a server` };
    const modelId = spec.modelId ?? spec.name;
    const keyOf = (text: string) => sha256Hex(`cdp-embed-v1\u0000${modelId}\u0000${text}`);
    const vectors: (number[] | null)[] = req.input.map(() => null);
    const misses = new Map<string, { key: string; at: number[] }>();
    let cached = 0;
    req.input.forEach((text, i) => {
      const key = keyOf(text);
      const hit = this.store.get(key);
      if (hit) {
        vectors[i] = JSON.parse(hit.text) as number[];
        cached++;
      } else {
        const m = misses.get(text) ?? { key, at: [] };
        m.at.push(i);
        misses.set(text, m);
      }
    });
    this.tally.add(counters, 'calls');
    if (!misses.size) {
      this.tally.add(counters, 'cached');
      return { ok: true, vectors: vectors as number[][], cached };
    }
    if (kind === 'estimate') return { ok: false, error: 'estimate only: not sent' };
    if (!spec.active) return { ok: false, error: `model ${spec.name} is inactive: ${spec.inactiveReason ?? 'no endpoint configured'}` };
    const texts = [...misses.keys()];
    const r = await this.liveOf(spec).callEmbeddingApi(texts);
    if (r.error !== undefined) {
      this.tally.add(counters, 'failed');
      return { ok: false, error: r.error };
    }
    const perText = Math.round(r.tokenUsage.input / texts.length);
    await Promise.all(
      texts.map((text, j) => {
        const m = misses.get(text)!;
        for (const i of m.at) vectors[i] = r.vectors[j];
        const call: StoredCall = { key: m.key, model: spec.name, modelId, stage, promptHash: sha256Hex(text), repeat: 0 };
        const out = {
          output: JSON.stringify(r.vectors[j]),
          attempts: 1,
          latencyMs: r.latencyMs,
          tokenUsage: { input: perText, output: 0 },
        };
        return this.record(call, out);
      }),
    );
    this.tally.add(counters, 'inputTokens', r.tokenUsage.input);
    return { ok: true, vectors: vectors as number[][], cached };
  }

  private spec(name: string): ModelSpec {
    const spec = this.models.get(name);
    if (!spec) throw new Error(`llm client: model "${name}" is not in the roster (known: ${[...this.models.keys()].join(', ')})`);
    return spec;
  }

  private failed(counters: CallCounters, error: string, attempts: number): ChatResult {
    this.tally.add(counters, 'failed');
    return { ok: false, error, attempts };
  }

  private liveOf(spec: ModelSpec): LiveProvider {
    let p = this.live.get(spec.name);
    if (!p)
      this.live.set(
        spec.name,
        (p = new LiveProvider({
          spec,
          endpoints: this.endpoints,
          retry: this.retry,
          record: this.record,
          redact: this.redactKeys,
          timeoutMs: this.o.timeoutMs,
          expectedOutputTokens: this.o.expectedOutputTokens,
        })),
      );
    return p;
  }

  private offlineOf(name: string): Provider | undefined {
    let p = this.offline.get(name);
    const given = this.o.offlineHandlers?.[name];
    if (!p && given) this.offline.set(name, (p = offlineProvider(given)));
    return p;
  }

  private async answerOffline(spec: ModelSpec, req: ChatRequest, stage: string, counters: CallCounters): Promise<ChatResult> {
    this.tally.add(counters, 'offline');
    const provider = this.offlineOf(spec.name);
    if (!provider) {
      return this.failed(
        counters,
        `no offline handler registered for simulated model ${spec.name}; pass offlineHandlers to createLlmClient`,
        0,
      );
    }
    if (!spec.active) return this.failed(counters, `model ${spec.name} is inactive: ${spec.inactiveReason ?? 'disabled'}`, 0);
    const t0 = performance.now();
    let r: ProviderResponse;
    try {
      r = await provider.callApi({ ...req, stage, messages: this.blobs.resolve(req.messages) }, req.context);
    } catch (err) {
      return this.failed(counters, `offline handler for ${spec.name} failed: ${(err as Error).message}`, 1);
    }
    if (r.error !== undefined || r.output === undefined)
      return this.failed(counters, `offline handler for ${spec.name} failed: ${r.error ?? 'it gave no output'}`, 1);
    const md = r.metadata ? { metadata: r.metadata } : {};
    return {
      ok: true,
      text: r.output,
      cached: false,
      usage: { inputTokens: 0, outputTokens: 0 },
      latencyMs: performance.now() - t0,
      ...md,
    };
  }

  /**
   * A miss in estimate mode. The estimate's tokens are what the call would use: they enter the
   * counters, priced, while the answer itself used none. Its failures are not counted as
   * failed calls: nothing was asked.
   */
  private async answerEstimate(
    spec: ModelSpec,
    req: ChatRequest,
    params: Record<string, unknown>,
    sample: string | undefined,
    call: StoredCall,
    counters: CallCounters,
  ): Promise<ChatResult> {
    const messages = this.blobs.resolve(req.messages);
    const prompt: ProviderPrompt = {
      ...req,
      stage: call.stage,
      params,
      sample,
      messages,
      call,
      inputTokens: this.blobs.tokens(req.messages),
    };
    const r = await this.estimator.callApi(prompt, req.context);
    if (r.tokenUsage) {
      const { input, output } = r.tokenUsage;
      this.tally.usage(counters, input, output, costOf(spec, input, output));
    }
    if (r.error !== undefined || r.output === undefined) return { ok: false, error: r.error ?? 'estimate only: not sent', attempts: 0 };
    if (r.cached) this.tally.add(counters, 'cached');
    return { ok: true, text: r.output, cached: !!r.cached, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0 };
  }

  /** The offline provider standing in for a real model's miss while estimating, bound to its own model name. */
  private standIn(prompt: ProviderPrompt): Provider | undefined {
    const name = this.o.estimateStandIn?.(prompt);
    const spec = name ? this.models.get(name) : undefined;
    if (!spec || spec.provider !== 'offline' || !spec.active) return undefined;
    const provider = this.offlineOf(spec.name);
    return provider && { callApi: (p, context) => provider.callApi({ ...p, model: spec.name }, context) };
  }

  /** The context check live and batch share, then the provider; its outcome is durable when this returns. */
  private async send(
    provider: Provider,
    spec: ModelSpec,
    req: ChatRequest,
    params: Record<string, unknown>,
    sample: string | undefined,
    call: StoredCall,
  ): Promise<ChatResult> {
    const over = this.overflow(spec, req.messages, params);
    if (over !== undefined) {
      const error = `context overflow (${over} tokens > window ${spec.contextWindow})`;
      await this.record(call, { error, attempts: 0, latencyMs: 0, tokenUsage: { input: over, output: 0 } });
      return { ok: false, error, attempts: 0 };
    }
    const prompt: ProviderPrompt = { ...req, stage: call.stage, params, sample, messages: this.blobs.resolve(req.messages), call };
    const r = await provider.callApi(prompt, req.context);
    if (r.error !== undefined || r.output === undefined)
      return { ok: false, error: r.error ?? 'the provider gave no answer', attempts: r.attempts ?? 0 };
    const usage = { inputTokens: r.tokenUsage?.input ?? 0, outputTokens: r.tokenUsage?.output ?? 0 };
    const fr = r.finishReason ? { finishReason: r.finishReason } : {};
    return { ok: true, text: r.output, cached: false, usage, latencyMs: r.latencyMs ?? 0, ...fr };
  }

  /**
   * The tokens of a prompt that does not fit the model's window (its output reservation
   * included), or undefined when it fits. The byte bound settles most prompts without counting.
   */
  private overflow(spec: ModelSpec, messages: readonly ChatMessage[], params: Readonly<Record<string, unknown>>): number | undefined {
    if (!spec.contextWindow) return undefined;
    const reserve = outputReserve(params);
    if (this.blobs.bound(messages) + reserve <= spec.contextWindow) return undefined;
    const exact = this.blobs.tokens(messages) + reserve;
    return exact > spec.contextWindow ? exact : undefined;
  }

  /**
   * Makes an outcome durable: the one place a call-log line is written. Errors are redacted
   * once more here, so a provider that missed a key still cannot write it.
   */
  private readonly record = (call: StoredCall, r: ProviderResponse): Promise<void> => {
    const ok = r.error === undefined && r.output !== undefined;
    return this.store.append({
      ...call,
      status: ok ? 'ok' : 'failed',
      ...(ok ? { text: r.output } : { error: this.redactKeys(r.error ?? 'the provider gave no answer') }),
      attempts: r.attempts ?? 1,
      latencyMs: r.latencyMs ?? 0,
      inputTokens: r.tokenUsage?.input ?? 0,
      outputTokens: r.tokenUsage?.output ?? 0,
      ...(r.batchId ? { batchId: r.batchId } : {}),
      ...(r.finishReason ? { finishReason: r.finishReason } : {}),
      ts: new Date().toISOString(),
    });
  };

  /** Every roster key, read now, removed from a text. */
  private readonly redactKeys = (text: string): string =>
    redact(
      text,
      [...this.models.values()].map((m) => (m.apiKeyEnv ? this.env[m.apiKeyEnv] : undefined)),
    );
}

/** Where the client keeps its files, for the runner's store layout and for `llmCallsRelation`. */
export function llmCacheLayout(cacheDir: string): { calls: string; batches: string } {
  return { calls: join(cacheDir, 'calls'), batches: join(cacheDir, 'batches') };
}
