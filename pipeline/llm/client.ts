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
 *     ├─ an overflow the server reported before, for this key and declared window → failure, not resent
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
 * Every call to a real model names its role (refused otherwise), and every sampled one carries
 * a seed from its unit and repeat (seedOf, request-key.ts), which its key covers.
 *
 * The call store is the project's one call cache, shared by every store (`cacheDir`); given a
 * store's `storeLogDir`, the lines this client writes name that store and the answers it is
 * served from another store's calls are copied there (store-log.ts), for the store's view.
 *
 * Failures are returned, never thrown, and never cached: a rerun asks again, which is how
 * `cdp run --retry-failed` fills failed rows in — except a context overflow the server reported,
 * which is answered again without sending until the prompt, the params or the model's declared
 * window change. Each failure says its kind (`CallFailure`). An answer its reader refuses is handed back to
 * `client.reject(result, reason)`: it stays in the log, is no longer served, and the next ask is
 * a fresh attempt with a new seed, so a retry can get a different answer from a recovered
 * server. Keys are read from the environment at call time, kept only in memory, and redacted
 * from every error text.
 */
import { join } from 'node:path';
import { Blobs } from './blobs.ts';
import { providerKind, type LlmClientOptions } from './client-options.ts';
import { callLine, rememberedOverflow } from './call-line.ts';
import { CallStore } from './call-store.ts';
import { Counters } from './counters.ts';
import { classifyError } from './openai-transport.ts';
import { BatchProvider } from './providers/batch.ts';
import { EstimateProvider } from './providers/estimate.ts';
import { Endpoints, LiveProvider } from './providers/live.ts';
import { answerOffline, offlineProvider } from './providers/offline.ts';
import { callKey, callKeyCanonical, canonicalJson, promptIdentity, seedOf } from './request-key.ts';
import { DEFAULT_RETRY, Retrier } from './retry.ts';
import { costOf, redact, resolveRoster } from './roster.ts';
import { embedTexts } from './embeddings.ts';
import { StoreLog } from './store-log.ts';
import { outputReserve } from './tokens.ts';
import type {
  CallCounters,
  CallFailure,
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
  Provider,
  ProviderPrompt,
  ProviderResponse,
  StoredCall,
} from './types.ts';

export { providerKind, type LlmClientOptions, type ProviderKind } from './client-options.ts';

const UNSTAGED = 'unstaged';

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
  private readonly storeLog: StoreLog | null;
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
    const storeOpts = { readOnly: this.mode === 'estimate', ...(o.log ? { warn: o.log } : {}) };
    this.store = CallStore.open(o.cacheDir, storeOpts);
    this.storeLog = o.storeLogDir ? StoreLog.open(o.storeLogDir, storeOpts) : null;
    this.batchStages = new Set(o.batchStages ?? []);
    const progress = o.progress ?? ((line: string) => void process.stderr.write(`${line}\n`));
    this.retry = new Retrier(
      { ...DEFAULT_RETRY, ...o.retry },
      { random: o.random, log: this.log, progress, classify: classifyError, redact: this.redactKeys },
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
    await this.storeLog?.close();
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
    if (!req.role) throw noRole(spec.name, stage);

    const modelId = spec.modelId ?? spec.name;
    const defaults = this.defaults.get(spec.name)!;
    const params = req.params ? { ...defaults.params, ...req.params } : defaults.params;
    const { hash: prompt, bound } = promptIdentity(req.messages, this.blobs.bytes);
    const repeat = req.repeat ?? 0;
    if (!Number.isInteger(repeat) || repeat < 0) throw new Error(`llm client: repeat must be a non-negative integer, got ${repeat}`);
    const sample = spec.independentSamples !== false && req.sample !== undefined ? req.sample : undefined;
    const seed = seedOf(params, { sample, promptHash: prompt, repeat, attempt: 0 });
    const key = req.params
      ? callKey(modelId, prompt, params, req.responseFormat, repeat, sample, seed)
      : callKeyCanonical(modelId, prompt, defaults.canonical, req.responseFormat, repeat, sample, seed);

    const hit = this.store.get(key);
    const meta: StoredCall = { key, model: spec.name, modelId, stage, promptHash: prompt, repeat };
    if (hit) {
      this.tally.add(counters, 'cached');
      if (this.storeLog && this.mode === 'live') await this.storeLog.served(this.store, key, hit);
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
      return this.failed(counters, { ...r, attempts: 0 });
    }

    // Estimates are for before a model is configured; hits above are served without a key.
    if (kind === 'estimate') {
      const sd = seed !== undefined ? { seed } : {};
      const messages = this.blobs.resolve(req.messages);
      const inputTokens = this.blobs.tokens(req.messages);
      return this.answerEstimate({ ...req, stage, params, sample, ...sd, messages, call: meta, inputTokens }, spec, counters);
    }
    if (!spec.active) return this.failed(counters, inactive(spec));
    const known = rememberedOverflow(this.store.overflowOf(key), spec);
    if (known) return this.failed(counters, known);

    const attempt = this.store.attemptOf(key);
    const sent = attempt > 0 ? seedOf(params, { sample, promptHash: prompt, repeat, attempt }) : seed;
    const call: StoredCall = {
      ...meta,
      ...(sample !== undefined ? { sample } : {}),
      role: req.role,
      ...(attempt > 0 ? { attempt } : {}),
      ...(sent !== undefined ? { seed: sent } : {}),
      ...(spec.contextWindow ? { contextWindow: spec.contextWindow } : {}),
    };
    const run = this.send(kind === 'batch' ? this.batch : this.liveOf(spec), spec, req, params, sample, call, bound);
    this.inflight.set(key, run);
    let r: ChatResult;
    try {
      r = await run;
    } finally {
      this.inflight.delete(key);
    }
    if (!r.ok) return this.failed(counters, r);
    this.tally.usage(counters, r.usage.inputTokens, r.usage.outputTokens, costOf(spec, r.usage.inputTokens, r.usage.outputTokens));
    const identity: CallIdentity = { ...meta, attempt };
    return { ...r, call: identity };
  }

  /** Embeddings through the model's live provider, each text cached on its own (embeddings.ts). */
  async embed(req: EmbedRequest): Promise<EmbedResult> {
    if (this.closed) throw new Error('llm client: embed() after close(); create a new client for a new run');
    const spec = this.spec(req.model);
    const stage = req.stage ?? UNSTAGED;
    const kind = providerKind(spec, stage, this.mode, this.batchStages);
    if (kind !== 'offline' && !req.role) throw noRole(spec.name, stage);
    return embedTexts(
      {
        store: this.store,
        tally: this.tally,
        record: this.record,
        live: (m) => this.liveOf(m),
        storeLog: this.mode === 'live' ? this.storeLog : null,
      },
      spec,
      { ...req, stage },
      kind,
    );
  }

  private spec(name: string): ModelSpec {
    const spec = this.models.get(name);
    if (!spec) throw new Error(`llm client: model "${name}" is not in the roster (known: ${[...this.models.keys()].join(', ')})`);
    return spec;
  }

  private failed(counters: CallCounters, f: Omit<CallFailure, 'ok'>): ChatResult {
    this.tally.add(counters, 'failed');
    return { ...f, ok: false };
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
    const r = await answerOffline(this.offlineOf(spec.name), spec, { ...req, stage }, (m) => this.blobs.resolve(m));
    if (!r.ok) this.tally.add(counters, 'failed');
    return r;
  }

  /**
   * A miss in estimate mode. The estimate's tokens are what the call would use: they enter the
   * counters, priced, while the answer itself used none. Its failures are not counted as
   * failed calls: nothing was asked.
   */
  private async answerEstimate(prompt: ProviderPrompt, spec: ModelSpec, counters: CallCounters): Promise<ChatResult> {
    const r = await this.estimator.callApi(prompt, prompt.context);
    if (r.tokenUsage) {
      const { input, output } = r.tokenUsage;
      this.tally.usage(counters, input, output, costOf(spec, input, output));
    }
    if (r.error !== undefined || r.output === undefined) {
      const kind = r.failure?.kind ?? 'estimate';
      return { ok: false, error: r.error ?? 'estimate only: not sent', attempts: 0, kind, retryable: false };
    }
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
    bound: number,
  ): Promise<ChatResult> {
    const over = this.overflow(spec, req.messages, params, bound);
    if (over !== undefined) {
      const error = `context overflow (${over} tokens > window ${spec.contextWindow})`;
      const failure = { kind: 'context-overflow' as const, window: spec.contextWindow };
      await this.record(call, { error, attempts: 0, latencyMs: 0, tokenUsage: { input: over, output: 0 }, failure });
      return { ok: false, error, attempts: 0, ...failure, retryable: false };
    }
    const messages = this.blobs.resolve(req.messages);
    const prompt: ProviderPrompt = { ...req, stage: call.stage, params, sample, messages, call, inputBound: bound };
    if (call.seed !== undefined) prompt.seed = call.seed;
    const r = await provider.callApi(prompt, req.context);
    if (r.error !== undefined || r.output === undefined) {
      const f = r.failure ?? { kind: 'http' as const };
      return {
        ok: false,
        error: r.error ?? 'the provider gave no answer',
        attempts: r.attempts ?? 0,
        ...f,
        retryable: r.retryable ?? true,
      };
    }
    const usage = { inputTokens: r.tokenUsage?.input ?? 0, outputTokens: r.tokenUsage?.output ?? 0 };
    const fr = r.finishReason ? { finishReason: r.finishReason } : {};
    return { ok: true, text: r.output, cached: false, usage, latencyMs: r.latencyMs ?? 0, ...fr };
  }

  /**
   * The tokens of a prompt that does not fit the model's window (its output reservation
   * included), or undefined when it fits. The byte bound settles most prompts without counting.
   */
  private overflow(
    spec: ModelSpec,
    messages: readonly ChatMessage[],
    params: Readonly<Record<string, unknown>>,
    bound: number,
  ): number | undefined {
    if (!spec.contextWindow) return undefined;
    const reserve = outputReserve(params);
    if (bound + reserve <= spec.contextWindow) return undefined;
    const exact = this.blobs.tokens(messages) + reserve;
    return exact > spec.contextWindow ? exact : undefined;
  }

  /**
   * Makes an outcome durable: the one place a call-log line is written. Errors are redacted
   * once more here, so a provider that missed a key still cannot write it.
   */
  private readonly record = (call: StoredCall, r: ProviderResponse): Promise<void> =>
    this.store.append(callLine(call, r, this.redactKeys, this.storeLog?.id));

  /** Every roster key, read now, removed from a text. */
  private readonly redactKeys = (text: string): string =>
    redact(
      text,
      [...this.models.values()].map((m) => (m.apiKeyEnv ? this.env[m.apiKeyEnv] : undefined)),
    );
}

/** A real model's call must say what the model plays, so the call log can say it. */
function noRole(model: string, stage: string): Error {
  return new Error(
    `llm client: the call to ${model} in stage ${stage} names no role; pass role: 'builder', 'evaluated', 'patient' or 'judge' ` +
      'with the request, so the call log records what the model played',
  );
}

function inactive(spec: ModelSpec, otherwise = 'no endpoint configured'): Omit<CallFailure, 'ok'> {
  return { error: `model ${spec.name} is inactive: ${spec.inactiveReason ?? otherwise}`, attempts: 0, kind: 'inactive', retryable: false };
}

/** Where the client keeps its files, for the runner's store layout and for `llmCallsRelation`. */
export function llmCacheLayout(cacheDir: string): { calls: string; batches: string } {
  return { calls: join(cacheDir, 'calls'), batches: join(cacheDir, 'batches') };
}
