/**
 * The one LLM client every stage calls through. How the pieces fit:
 *
 *   chat(req) ─ roster lookup (roster.ts: endpoints, keys by env-var name, active flags)
 *     ├─ offline model → its offline Provider, `callApi(prompt, req.context)` (counted, never stored)
 *     ├─ cache key (request-key.ts: model id + messages + params + response format + repeat;
 *     │   blobs registered with client.blob() enter by a hash computed once)
 *     ├─ hit in the call store (call-store.ts: append-only JSONL, fsync'd before use) → no HTTP
 *     ├─ identical call already in flight → shares its answer
 *     ├─ estimate mode → counted for estimateReport(), not sent
 *     ├─ context check (tokens.ts) → failure row "context overflow (N tokens > window W)"
 *     ├─ batch model or stage → batch.ts (JSONL, upload, create, poll; resumable by batch id)
 *     └─ live: pick the least busy replica; its semaphore and rpm/tpm buckets (flow-control.ts);
 *         one attempt through the openai SDK (openai-transport.ts); retries with backoff,
 *         jitter and Retry-After (retry.ts); the answer or the final failure is appended to
 *         the call store, whose lines are also the warehouse view llm_calls (call-log.ts).
 *
 * Failures are returned, never thrown, and never cached: a rerun asks again, which is how
 * `cdp run --retry-failed` fills failed rows in. An answer its reader refuses is handed back to
 * `client.reject(result, reason)`: it stays in the log, is no longer served, and the next ask is a
 * fresh attempt with a new seed, so a retry can get a different answer from a recovered server. Keys are read from the environment at call
 * time, kept only in memory, and redacted from every error text.
 */
import type OpenAI from 'openai';
import { join } from 'node:path';
import { BatchRunner, DEFAULT_BATCH, type BatchItemMeta, type BatchOutcome } from './batch.ts';
import { CallStore, type CallRecord } from './call-store.ts';
import { Semaphore, TokenBucket } from './flow-control.ts';
import { chatAttempt, classifyError, makeSdk, type AttemptResult } from './openai-transport.ts';
import { callKey, callKeyCanonical, canonicalJson, promptHash, sampleSeed, sha256Hex } from './request-key.ts';
import { DEFAULT_RETRY, retryDelayMs, type AttemptFailure } from './retry.ts';
import { redact, resolveRoster } from './roster.ts';
import { countTokens, tokenUpperBound, TOKENS_PER_MESSAGE, TOKENS_PER_REPLY } from './tokens.ts';
import type {
  BatchPolicy,
  CallCounters,
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

const DEFAULT_CONCURRENCY = 8;
const UNSTAGED = 'unstaged';

function zeroCounters(): CallCounters {
  return { calls: 0, offline: 0, cached: 0, failed: 0, inputTokens: 0, outputTokens: 0, estimatedCostUsd: 0 };
}

interface Replica {
  baseURL: string;
  modelId: string;
  sem: Semaphore;
  rpm: TokenBucket | null;
  tpm: TokenBucket | null;
}

/** Creates the client. Opening indexes the call store, so create one per run and `close()` it. */
export function createLlmClient(opts: LlmClientOptions): LlmClient {
  return new Client(opts);
}

class Client implements LlmClient {
  private readonly env: NodeJS.ProcessEnv;
  private readonly models = new Map<string, ModelSpec>();
  private readonly defaults = new Map<string, { params: Readonly<Record<string, unknown>>; canonical: string }>();
  private readonly store: CallStore;
  private readonly retryPolicy: RetryPolicy;
  private readonly replicas = new Map<string, Replica[]>();
  private readonly sdks = new Map<string, OpenAI>();
  private readonly blobs = new Map<string, { text: string; bytes: number; tokens?: number }>();
  private readonly inflight = new Map<string, Promise<ChatResult>>();
  private readonly stageCounters = new Map<string, CallCounters>();
  private readonly total = zeroCounters();
  private readonly estimates = new Map<string, EstimateRow>();
  /** Estimate mode: answers already estimated, by key, so identical requests count once. */
  private readonly estimated = new Map<string, string>();
  private readonly batchStages: Set<string>;
  private readonly log: (line: string) => void;
  private readonly random: () => number;
  private batchRunner: BatchRunner | null = null;
  private rr = 0;
  private closed = false;

  constructor(private readonly o: LlmClientOptions) {
    this.env = o.env ?? process.env;
    for (const m of resolveRoster(o.roster, this.env)) {
      this.models.set(m.name, m);
      // A private frozen copy: a caller mutating its roster cannot change keys mid-run.
      const params = Object.freeze({ ...m.params });
      this.defaults.set(m.name, { params, canonical: canonicalJson(params) });
    }
    this.log = o.log ?? (() => {});
    // A damaged cache line is worth a warning even when nobody listens to the client's log.
    this.store = CallStore.open(o.cacheDir, { readOnly: o.mode === 'estimate', ...(o.log ? { warn: o.log } : {}) });
    this.retryPolicy = { ...DEFAULT_RETRY, ...o.retry };
    this.batchStages = new Set(o.batchStages ?? []);
    this.random = o.random ?? Math.random;
  }

  roster(): ModelSpec[] {
    return [...this.models.values()].map((m) => ({ ...m }));
  }

  blob(text: string): ContentPart {
    const id = sha256Hex(text);
    if (!this.blobs.has(id)) this.blobs.set(id, { text, bytes: tokenUpperBound(text) });
    return { type: 'blob', blob: id };
  }

  forStage(stage: string): LlmStageClient {
    return {
      stage,
      chat: (req) => this.chat({ ...req, stage }),
      embed: (req) => this.embed({ ...req, stage }),
      reject: (result, reason) => this.reject(result, reason),
      blob: (text) => this.blob(text),
      counters: () => ({ ...this.countersOf(stage) }),
    };
  }

  counters(): CallCounters {
    return { ...this.total };
  }

  estimateReport(): EstimateRow[] {
    return [...this.estimates.values()]
      .map((r) => ({ ...r }))
      .sort((a, b) => a.stage.localeCompare(b.stage) || a.model.localeCompare(b.model));
  }

  async flushBatches(): Promise<void> {
    await this.batchRunner?.flush();
  }

  async close(opts: { detachBatches?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    if (opts.detachBatches) await this.batchRunner?.detach();
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
    const spec = this.models.get(req.model);
    if (!spec) throw new Error(`llm client: model "${req.model}" is not in the roster (known: ${[...this.models.keys()].join(', ')})`);
    const stage = req.stage ?? UNSTAGED;
    const counters = this.countersOf(stage);
    this.count(counters, 'calls');
    // No per-call closures here: this path runs a million times when a run is replayed.
    if (spec.provider === 'offline') {
      this.count(counters, 'offline');
      return this.offline(spec, req, stage, counters);
    }

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
    const meta: BatchItemMeta = { key, model: spec.name, modelId, stage, promptHash: prompt, repeat };
    if (hit) {
      this.count(counters, 'cached');
      const usage = { inputTokens: hit.inputTokens, outputTokens: hit.outputTokens };
      const fr = hit.finishReason ? { finishReason: hit.finishReason } : {};
      return { ok: true, text: hit.text, cached: true, usage, latencyMs: hit.latencyMs, call: { ...meta, attempt: hit.attempt }, ...fr };
    }
    const same = this.inflight.get(key);
    if (same) {
      const sharedAttempt = this.store.attemptOf(key);
      const r = await same;
      if (r.ok) {
        this.count(counters, 'cached');
        return { ...r, cached: true, call: { ...meta, attempt: sharedAttempt } };
      }
      return this.failed(counters, r.error, 0);
    }

    // Estimates are for before a model is configured; hits above are served without a key.
    if (this.o.mode === 'estimate') return this.estimate(spec, stage, req, params, key, counters);
    if (!spec.active) return this.failed(counters, `model ${spec.name} is inactive: ${spec.inactiveReason ?? 'no endpoint configured'}`, 0);

    const attempt = this.store.attemptOf(key);
    const logged = {
      ...(sample !== undefined ? { sample } : {}),
      ...(req.role ? { role: req.role } : {}),
      ...(attempt > 0 ? { attempt } : {}),
    };
    const run = this.send(spec, req, params, { ...meta, ...logged }, sample, attempt);
    this.inflight.set(key, run);
    let r: ChatResult;
    try {
      r = await run;
    } finally {
      this.inflight.delete(key);
    }
    if (!r.ok) return this.failed(counters, r.error, r.attempts);
    const cost = this.costOf(spec, r.usage.inputTokens, r.usage.outputTokens);
    this.countUsage(counters, r.usage.inputTokens, r.usage.outputTokens, cost);
    return { ...r, call: { ...meta, attempt } };
  }

  /**
   * Embeddings: each text is a cache entry of its own (key: model id + text), so a rerun, or the
   * same step in another pathway, costs nothing; the misses go out in one request, with the
   * same replicas, limits and retries as chat calls.
   */
  async embed(req: EmbedRequest): Promise<EmbedResult> {
    if (this.closed) throw new Error('llm client: embed() after close(); create a new client for a new run');
    const spec = this.models.get(req.model);
    if (!spec) throw new Error(`llm client: model "${req.model}" is not in the roster (known: ${[...this.models.keys()].join(', ')})`);
    const stage = req.stage ?? UNSTAGED;
    const counters = this.countersOf(stage);
    if (spec.provider === 'offline') return { ok: false, error: `model ${spec.name} is offline: embeddings need a server` };
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
    this.count(counters, 'calls', 1);
    if (misses.size) {
      if (this.o.mode === 'estimate') return { ok: false, error: 'estimate only: not sent' };
      if (!spec.active) return { ok: false, error: `model ${spec.name} is inactive: ${spec.inactiveReason ?? 'no endpoint configured'}` };
      const texts = [...misses.keys()];
      const t0 = performance.now();
      let res: { data: { embedding: number[]; index: number }[]; usage?: { prompt_tokens?: number } };
      try {
        res = await this.withRetries(`embeddings from ${spec.name}`, async () => {
          const rep = this.pickReplica(spec);
          await rep.sem.acquire();
          try {
            await rep.rpm?.take(1);
            // Floats, not the SDK's default base64: local servers (vLLM, llama.cpp) differ in base64 support.
            return (await this.sdkFor(rep.baseURL, spec).embeddings.create(
              { model: modelId, input: texts, encoding_format: 'float' },
              { timeout: spec.timeoutMs ?? this.o.timeoutMs ?? 600_000, maxRetries: 0 },
            )) as never;
          } finally {
            rep.sem.release();
          }
        });
      } catch (err) {
        this.count(counters, 'failed');
        return { ok: false, error: (err as Error).message };
      }
      const latencyMs = Math.round(performance.now() - t0);
      const tokens = res.usage?.prompt_tokens ?? 0;
      for (const d of res.data) {
        const text = texts[d.index];
        const m = misses.get(text);
        if (!m || !Array.isArray(d.embedding))
          return { ok: false, error: `embeddings from ${spec.name}: malformed response (index ${d.index})` };
        for (const i of m.at) vectors[i] = d.embedding;
        const meta: BatchItemMeta = { key: m.key, model: spec.name, modelId, stage, promptHash: sha256Hex(text), repeat: 0 };
        await this.record(meta, {
          status: 'ok',
          text: JSON.stringify(d.embedding),
          attempts: 1,
          latencyMs,
          inputTokens: Math.round(tokens / texts.length),
          outputTokens: 0,
        });
      }
      this.count(counters, 'inputTokens', tokens);
    } else {
      this.count(counters, 'cached');
    }
    if (vectors.some((v) => v === null))
      return { ok: false, error: `embeddings from ${spec.name}: the response left some texts without a vector` };
    return { ok: true, vectors: vectors as number[][], cached };
  }

  private failed(counters: CallCounters, error: string, attempts: number): ChatResult {
    this.count(counters, 'failed');
    return { ok: false, error, attempts };
  }

  private async offline(spec: ModelSpec, req: ChatRequest, stage: string, counters: CallCounters): Promise<ChatResult> {
    const provider = this.offlineProvider(spec.name);
    if (!provider) {
      return this.failed(
        counters,
        `no offline handler registered for simulated model ${spec.name}; pass offlineHandlers to createLlmClient`,
        0,
      );
    }
    if (!spec.active) return this.failed(counters, `model ${spec.name} is inactive: ${spec.inactiveReason ?? 'disabled'}`, 0);
    const t0 = performance.now();
    try {
      const messages = req.messages.map((m) => ({ role: m.role, content: this.flatten(m.content) }));
      const prompt: ProviderPrompt = { ...req, stage, messages };
      const r = await provider.callApi(prompt, req.context);
      const md = r.metadata ? { metadata: r.metadata } : {};
      const usage = { inputTokens: 0, outputTokens: 0 };
      return { ok: true, text: r.output, cached: false, usage, latencyMs: performance.now() - t0, ...md };
    } catch (err) {
      return this.failed(counters, `offline handler for ${spec.name} failed: ${(err as Error).message}`, 1);
    }
  }

  private readonly providers = new Map<string, Provider>();

  private offlineProvider(name: string): Provider | undefined {
    let p = this.providers.get(name);
    const given = this.o.offlineHandlers?.[name];
    if (!p && given) this.providers.set(name, (p = offlineProvider(given)));
    return p;
  }

  /** Context check, then batch or live sending; records the outcome durably before returning it. */
  private async send(
    spec: ModelSpec,
    req: ChatRequest,
    params: Record<string, unknown>,
    meta: BatchItemMeta & Pick<CallRecord, 'sample' | 'role' | 'attempt'>,
    sample: string | undefined,
    attempt: number,
  ): Promise<ChatResult> {
    const messages = req.messages.map((m) => ({ role: m.role, content: this.flatten(m.content) }));
    const reserve = Number(params.max_completion_tokens ?? params.max_tokens ?? 0) || 0;
    let inputBound = TOKENS_PER_REPLY;
    for (const m of req.messages) inputBound += TOKENS_PER_MESSAGE + this.boundOf(m.content);
    if (spec.contextWindow && inputBound + reserve > spec.contextWindow) {
      const exact = this.exactTokens(req.messages) + reserve;
      if (exact > spec.contextWindow) {
        const error = `context overflow (${exact} tokens > window ${spec.contextWindow})`;
        await this.record(meta, { status: 'failed', error, attempts: 0, latencyMs: 0, inputTokens: exact, outputTokens: 0 });
        return { ok: false, error, attempts: 0 };
      }
    }
    const body: Record<string, unknown> = { ...params, model: meta.modelId, messages };
    if (req.responseFormat) body.response_format = req.responseFormat;
    // An independent sample (a case's, or a repeat's) asks for one by its own seed, so repeats and
    // cases differ on servers that honour it; so does a fresh attempt after a rejected answer. A
    // seed the model's params fix wins.
    if ((sample !== undefined || meta.repeat > 0 || attempt > 0) && body.seed === undefined) {
      body.seed = sampleSeed(attempt > 0 ? `${sample ?? ''}\u0000fresh:${attempt}` : (sample ?? ''), meta.repeat);
    }

    if (spec.batch || this.batchStages.has(meta.stage)) return this.viaBatch(spec, meta, body);

    const expectedOut = req.expectedOutputTokens ?? spec.expectedOutputTokens ?? this.o.expectedOutputTokens ?? 512;
    const tpmCost = Math.ceil(inputBound / 4) + (reserve || expectedOut);
    const t0 = performance.now();
    const { result: last, attempts } = await this.retrying(spec.name, async (): Promise<AttemptResult> => {
      const rep = this.pickReplica(spec);
      await rep.sem.acquire();
      try {
        await rep.rpm?.take(1);
        await rep.tpm?.take(tpmCost);
        return await chatAttempt(this.sdkFor(rep.baseURL, spec), body, spec.timeoutMs ?? this.o.timeoutMs ?? 600_000);
      } finally {
        rep.sem.release();
      }
    });
    const latencyMs = Math.round(performance.now() - t0);
    if (last.ok) {
      const a = last as Extract<AttemptResult, { ok: true }>;
      const fr = a.finishReason ? { finishReason: a.finishReason } : {};
      await this.record(meta, {
        status: 'ok',
        text: a.text,
        attempts,
        latencyMs,
        inputTokens: a.inputTokens,
        outputTokens: a.outputTokens,
        ...fr,
      });
      return {
        ok: true,
        text: a.text,
        cached: false,
        usage: { inputTokens: a.inputTokens, outputTokens: a.outputTokens },
        latencyMs,
        ...fr,
      };
    }
    const f = last as Extract<AttemptResult, { ok: false }>;
    const error = this.redactKeys(
      f.retryable ? `${f.reason} after ${attempts} attempt${attempts === 1 ? '' : 's'}` : `${f.reason} (not retried)`,
    );
    await this.record(meta, { status: 'failed', error, attempts, latencyMs, inputTokens: 0, outputTokens: 0 });
    return { ok: false, error, attempts };
  }

  private async viaBatch(spec: ModelSpec, meta: BatchItemMeta, body: Record<string, unknown>): Promise<ChatResult> {
    const runner = this.batches();
    const t0 = performance.now();
    const out = await runner.request(this.pickReplica(spec).baseURL, meta, body);
    if (out.ok)
      return {
        ok: true,
        text: out.text,
        cached: false,
        usage: { inputTokens: out.inputTokens, outputTokens: out.outputTokens },
        latencyMs: Math.round(performance.now() - t0),
      };
    return { ok: false, error: this.redactKeys(out.reason), attempts: 1 };
  }

  private batches(): BatchRunner {
    this.batchRunner ??= new BatchRunner({
      cacheDir: this.o.cacheDir,
      policy: { ...DEFAULT_BATCH, ...this.o.batch },
      sdkFor: (baseURL) => {
        const spec = [...this.models.values()].find((m) => m.baseURLs?.includes(baseURL));
        return this.sdkFor(baseURL, spec);
      },
      withRetries: (what, op) => this.withRetries(what, op),
      record: (meta, o: BatchOutcome) =>
        this.record(
          meta,
          o.ok
            ? {
                status: 'ok',
                text: o.text,
                attempts: 1,
                latencyMs: 0,
                inputTokens: o.inputTokens,
                outputTokens: o.outputTokens,
                batchId: o.batchId,
              }
            : {
                status: 'failed',
                error: this.redactKeys(o.reason),
                attempts: 1,
                latencyMs: 0,
                inputTokens: 0,
                outputTokens: 0,
                batchId: o.batchId,
              },
        ),
      log: this.log,
    });
    return this.batchRunner;
  }

  /**
   * The client's one retry loop: `attempt` until it succeeds, fails for good, or the policy's
   * attempts run out, waiting with backoff, jitter and Retry-After between attempts.
   */
  private async retrying<R extends { ok: true } | ({ ok: false } & AttemptFailure)>(
    label: string,
    attempt: () => Promise<R>,
  ): Promise<{ result: R; attempts: number }> {
    const max = this.retryPolicy.maxAttempts;
    for (let n = 1; ; n++) {
      const result = await attempt();
      if (result.ok || !result.retryable || n >= max) return { result, attempts: n };
      const wait = retryDelayMs(this.retryPolicy, n, result, this.random);
      this.log(`llm: ${label} ${result.reason}; attempt ${n + 1}/${max} in ${wait} ms`);
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** A throwing API operation (embeddings, batch upload, create, poll, download) under the same retry loop. */
  private async withRetries<T>(what: string, op: () => Promise<T>): Promise<T> {
    let value: T | undefined;
    const { result, attempts } = await this.retrying(what, async (): Promise<{ ok: true } | ({ ok: false } & AttemptFailure)> => {
      try {
        value = await op();
        return { ok: true };
      } catch (err) {
        return { ok: false, ...classifyError(err) };
      }
    });
    if (!result.ok) throw new Error(this.redactKeys(`${what}: ${result.reason} after ${attempts} attempt(s)`));
    return value as T;
  }

  private record(
    meta: BatchItemMeta,
    r: Pick<
      CallRecord,
      'status' | 'attempts' | 'latencyMs' | 'inputTokens' | 'outputTokens' | 'error' | 'text' | 'batchId' | 'finishReason'
    >,
  ): Promise<void> {
    return this.store.append({ ...meta, ...r, ts: new Date().toISOString() });
  }

  private pickReplica(spec: ModelSpec): Replica {
    const modelId = spec.modelId ?? spec.name;
    let reps = this.replicas.get(spec.name);
    if (!reps) {
      // Replicas are shared by models that send the same id to the same server.
      reps = (spec.baseURLs ?? []).map((baseURL) => {
        const shared = [...this.replicas.values()].flat().find((r) => r.baseURL === baseURL && r.modelId === modelId);
        if (shared) return shared;
        const r: Replica = {
          baseURL,
          modelId,
          sem: new Semaphore(spec.concurrency ?? DEFAULT_CONCURRENCY),
          rpm: spec.rpm ? new TokenBucket(spec.rpm) : null,
          tpm: spec.tpm ? new TokenBucket(spec.tpm) : null,
        };
        return r;
      });
      if (!reps.length) throw new Error(`llm client: model ${spec.name} is active but has no base URL`);
      this.replicas.set(spec.name, reps);
    }
    if (reps.length === 1) return reps[0];
    let best = reps[this.rr++ % reps.length];
    for (const r of reps) if (r.sem.inUse < best.sem.inUse) best = r;
    return best;
  }

  private sdkFor(baseURL: string, spec: ModelSpec | undefined): OpenAI {
    // The key is read now, at call time, so a rotated key takes effect without a restart.
    const apiKey = (spec?.apiKeyEnv && this.env[spec.apiKeyEnv]) || '';
    const id = `${baseURL}\u0000${apiKey}`;
    let sdk = this.sdks.get(id);
    if (!sdk) this.sdks.set(id, (sdk = makeSdk({ baseURL, apiKey, fetch: this.o.fetch })));
    return sdk;
  }

  private redactKeys(text: string): string {
    const secrets = [...this.models.values()].map((m) => (m.apiKeyEnv ? this.env[m.apiKeyEnv] : undefined));
    return redact(text, secrets);
  }

  private flatten(content: string | ContentPart[]): string {
    if (typeof content === 'string') return content;
    let s = '';
    for (const p of content) {
      if (p.type === 'text') s += p.text;
      else {
        const b = this.blobs.get(p.blob);
        if (!b)
          throw new Error(`llm client: blob ${p.blob.slice(0, 12)}… is not registered with this client; create it with client.blob(text)`);
        s += b.text;
      }
    }
    return s;
  }

  private boundOf(content: string | ContentPart[]): number {
    if (typeof content === 'string') return tokenUpperBound(content);
    let n = 0;
    for (const p of content) n += p.type === 'text' ? tokenUpperBound(p.text) : (this.blobs.get(p.blob)?.bytes ?? 0);
    return n;
  }

  private exactTokens(messages: readonly ChatMessage[]): number {
    let n = TOKENS_PER_REPLY;
    for (const m of messages) {
      n += TOKENS_PER_MESSAGE;
      if (typeof m.content === 'string') n += countTokens(m.content);
      else
        for (const p of m.content) {
          if (p.type === 'text') n += countTokens(p.text);
          else {
            const b = this.blobs.get(p.blob);
            if (!b) throw new Error(`llm client: blob ${p.blob.slice(0, 12)}… is not registered with this client`);
            b.tokens ??= countTokens(b.text); // counted once per blob, like its hash
            n += b.tokens;
          }
        }
    }
    return n;
  }

  /**
   * A miss in estimate mode: counted once per distinct request (a second identical request is
   * what the cache would serve), and answered by the stand-in when one is named, so that what
   * follows it is estimated too.
   */
  private async estimate(
    spec: ModelSpec,
    stage: string,
    req: ChatRequest,
    params: Record<string, unknown>,
    key: string,
    counters: CallCounters,
  ): Promise<ChatResult> {
    const seen = this.estimated.get(key);
    if (seen !== undefined) {
      this.count(counters, 'cached');
      return { ok: true, text: seen, cached: true, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0 };
    }
    // A prompt over the window is refused before sending in a real run: no request, no answer.
    const reserve = Number(params.max_completion_tokens ?? params.max_tokens ?? 0) || 0;
    const tokens = this.exactTokens(req.messages) + reserve;
    if (spec.contextWindow && tokens > spec.contextWindow) {
      this.estimateRow(spec, stage).overflows++;
      return { ok: false, error: `context overflow (${tokens} tokens > window ${spec.contextWindow})`, attempts: 0 };
    }
    const standInName = this.o.estimateStandIn?.(req);
    const standIn = standInName ? this.models.get(standInName) : undefined;
    let text: string | null = null;
    if (standIn && standIn.provider === 'offline') {
      const r = await this.offline(standIn, { ...req, model: standIn.name }, stage, zeroCounters());
      if (r.ok) text = r.text;
    }
    this.addEstimate(spec, stage, req, params, text);
    if (text === null) return { ok: false, error: 'estimate only: not sent', attempts: 0 };
    this.estimated.set(key, text);
    return { ok: true, text, cached: false, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0 };
  }

  private addEstimate(
    spec: ModelSpec,
    stage: string,
    req: ChatRequest,
    params: Record<string, unknown>,
    answer: string | null = null,
  ): void {
    const inputTokens = this.exactTokens(req.messages);
    const reserve = Number(params.max_completion_tokens ?? params.max_tokens ?? 0) || 0;
    // A stand-in's answer has the shape of the real one (a tree, a score grid), so its length is
    // the better guess unless the model or request says how long its answers run.
    const declared = req.expectedOutputTokens ?? spec.expectedOutputTokens ?? this.o.expectedOutputTokens;
    const outputTokens = declared ?? (answer !== null ? countTokens(answer) : reserve ? Math.min(reserve, 512) : 512);
    const row = this.estimateRow(spec, stage);
    const cost = this.costOf(spec, inputTokens, outputTokens);
    row.calls++;
    row.inputTokens += inputTokens;
    row.outputTokens += outputTokens;
    row.costUsd += cost;
    this.countUsage(this.countersOf(stage), inputTokens, outputTokens, cost);
  }

  private estimateRow(spec: ModelSpec, stage: string): EstimateRow {
    const id = `${stage}\u0000${spec.name}`;
    let row = this.estimates.get(id);
    const priced = !!spec.price && (spec.price.inputPerMTok > 0 || spec.price.outputPerMTok > 0);
    if (!row)
      this.estimates.set(
        id,
        (row = { stage, model: spec.name, calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, priced, overflows: 0 }),
      );
    return row;
  }

  private costOf(spec: ModelSpec, inputTokens: number, outputTokens: number): number {
    if (!spec.price) return 0;
    return (inputTokens * spec.price.inputPerMTok + outputTokens * spec.price.outputPerMTok) / 1e6;
  }

  /** The one place counters change: a stage's and the run's together (no allocation: a hot path). */
  private count(c: CallCounters, field: keyof CallCounters, n = 1): void {
    c[field] += n;
    this.total[field] += n;
  }

  private countUsage(c: CallCounters, inputTokens: number, outputTokens: number, cost: number): void {
    this.count(c, 'inputTokens', inputTokens);
    this.count(c, 'outputTokens', outputTokens);
    this.count(c, 'estimatedCostUsd', cost);
  }

  private countersOf(stage: string): CallCounters {
    let c = this.stageCounters.get(stage);
    if (!c) this.stageCounters.set(stage, (c = zeroCounters()));
    return c;
  }
}

/** An offline provider from either form: a Provider as is, a handler function wrapped. */
export function offlineProvider(h: OfflineHandler | Provider): Provider {
  if (typeof h !== 'function') return h;
  return {
    async callApi(prompt, context): Promise<ProviderResponse> {
      void context;
      return { output: await h(prompt) };
    },
  };
}

/** Where the client keeps its files, for the runner's store layout and for `llmCallsRelation`. */
export function llmCacheLayout(cacheDir: string): { calls: string; batches: string } {
  return { calls: join(cacheDir, 'calls'), batches: join(cacheDir, 'batches') };
}
