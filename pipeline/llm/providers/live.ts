/**
 * The live provider: one model on an OpenAI-compatible server, one request per call. A call
 * goes to the least busy of the model's replicas, waits for a slot of that replica's semaphore
 * and for its rpm/tpm buckets (flow-control.ts), and is sent through the `openai` SDK
 * (openai-transport.ts) under the client's retry helper (retry.ts) with the model's own retry
 * policy (its models-file `retry` over the client's) and availability (one wait for a server that
 * is not there, shared by the model's calls), and the model's per-attempt timeout. Its outcome is
 * recorded (the client's call store) before it is answered; a failure carries its kind and status
 * and a sentence with the server's words, every API key redacted. Embeddings go the same way.
 */
import type OpenAI from 'openai';
import { Semaphore } from '../../concurrency/semaphore.ts';
import { TokenBucket } from '../flow-control.ts';
import { postTarget } from '../http-post.ts';
import { chatAttempt, chatHeaders, makeSdk, type AttemptResult, type ChatEndpoint } from '../openai-transport.ts';
import type { Availability } from '../availability.ts';
import { DEFAULT_RETRY, type AttemptFailure, type Retrier, type RunOptions } from '../retry.ts';
import { redact } from '../roster.ts';
import { outputReserve, tokenUpperBound, TOKENS_PER_MESSAGE, TOKENS_PER_REPLY } from '../tokens.ts';
import type { EmbeddingResponse, ModelSpec, Provider, ProviderPrompt, ProviderResponse, RetryPolicy, StoredCall } from '../types.ts';

/** Requests in flight per replica when the model declares no concurrency (stages/models/stage-width.ts sizes stages by it too). */
export const DEFAULT_CONCURRENCY = 8;
/** Per-attempt timeout when neither the model nor the client sets one: long generations are normal. */
export const DEFAULT_TIMEOUT_MS = 600_000;

/** One server of a model id: its concurrency slots and its rate buckets. */
export interface Replica {
  baseURL: string;
  modelId: string;
  sem: Semaphore;
  rpm: TokenBucket | null;
  tpm: TokenBucket | null;
}

/**
 * The servers of one client. A replica is shared by every roster name that sends the same model
 * id to the same base URL, so two names for one deployment share its limits (the first name's
 * limits make it); an SDK client is shared by every call with the same base URL and key.
 */
export class Endpoints {
  private readonly replicas = new Map<string, Replica>();
  private readonly sdks = new Map<string, OpenAI>();
  private readonly chats = new Map<string, ChatEndpoint>();

  constructor(private readonly o: { env: NodeJS.ProcessEnv; fetch?: typeof fetch }) {}

  replica(spec: ModelSpec, baseURL: string): Replica {
    const modelId = spec.modelId ?? spec.name;
    const id = `${baseURL}\u0000${modelId}`;
    let r = this.replicas.get(id);
    if (!r)
      this.replicas.set(
        id,
        (r = {
          baseURL,
          modelId,
          sem: new Semaphore(spec.concurrency ?? DEFAULT_CONCURRENCY),
          rpm: spec.rpm ? new TokenBucket(spec.rpm) : null,
          tpm: spec.tpm ? new TokenBucket(spec.tpm) : null,
        }),
      );
    return r;
  }

  /** The model's API key, read now: a rotated key takes effect without a restart. */
  apiKey(spec: ModelSpec | undefined): string {
    return (spec?.apiKeyEnv && this.o.env[spec.apiKeyEnv]) || '';
  }

  /** Where a chat request to `baseURL` goes, with the model's key as it is now. */
  chat(baseURL: string, spec: ModelSpec): ChatEndpoint {
    const apiKey = this.apiKey(spec);
    const id = `${baseURL}\u0000${apiKey}`;
    let ep = this.chats.get(id);
    if (!ep) this.chats.set(id, (ep = { target: postTarget(`${baseURL}/chat/completions`), headers: chatHeaders(apiKey) }));
    return ep;
  }

  sdk(baseURL: string, spec: ModelSpec | undefined): OpenAI {
    const apiKey = this.apiKey(spec);
    const id = `${baseURL}\u0000${apiKey}`;
    let sdk = this.sdks.get(id);
    if (!sdk) this.sdks.set(id, (sdk = makeSdk({ baseURL, apiKey, fetch: this.o.fetch })));
    return sdk;
  }
}

/**
 * The chat-completions body of a call, for a live request or a batch line alike: the params, the
 * model id, the messages, the response format, and the seed the client chose (seedOf,
 * request-key.ts) unless the params fix one.
 */
export function chatBody(prompt: ProviderPrompt, modelId: string): Record<string, unknown> {
  const body: Record<string, unknown> = { ...prompt.params, model: modelId, messages: prompt.messages };
  if (prompt.responseFormat) body.response_format = prompt.responseFormat;
  if (prompt.seed !== undefined && body.seed === undefined) body.seed = prompt.seed;
  return body;
}

export interface LiveProviderOptions {
  spec: ModelSpec;
  endpoints: Endpoints;
  retry: Retrier;
  /** Makes an outcome durable before it is answered; prompts without `call` are not recorded. */
  record?: (call: StoredCall, r: ProviderResponse) => Promise<void>;
  /** Removes API keys from errors (default: this model's own key). */
  redact?: (text: string) => string;
  /** Per-attempt timeout when the model sets none (default 10 minutes). */
  timeoutMs?: number;
  /** Output tokens a call is assumed to use against the tpm bucket when neither request nor model says (default 512). */
  expectedOutputTokens?: number;
}

export class LiveProvider implements Provider {
  readonly spec: ModelSpec;
  private readonly modelId: string;
  private readonly timeoutMs: number;
  private readonly redact: (text: string) => string;
  private replicas: Replica[] | null = null;
  private rr = 0;
  /** The client's retry policy with the model's own `retry` over it. */
  readonly policy: RetryPolicy;
  /** Shared by the model's calls: one wait for a server that is not there, one progress line. */
  readonly availability: Availability;

  constructor(private readonly o: LiveProviderOptions) {
    this.spec = o.spec;
    this.modelId = o.spec.modelId ?? o.spec.name;
    this.timeoutMs = o.spec.timeoutMs ?? o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.redact = o.redact ?? ((text) => redact(text, [o.endpoints.apiKey(o.spec)]));
    this.policy = modelPolicy(o.retry.policy, o.spec);
    this.availability = o.retry.availability(o.spec.name, this.policy);
  }

  async callApi(prompt: ProviderPrompt, _context?: Readonly<Record<string, unknown>>): Promise<ProviderResponse> {
    const { spec } = this;
    const body = JSON.stringify(chatBody(prompt, this.modelId));
    const tpmCost = spec.tpm ? this.tpmCost(prompt) : 0;
    const t0 = performance.now();
    const { result, attempts } = await this.o.retry.run(
      spec.name,
      async (): Promise<AttemptResult> => {
        const rep = this.pickReplica();
        await rep.sem.acquire();
        try {
          await rep.rpm?.take(1);
          await rep.tpm?.take(tpmCost);
          return await chatAttempt(this.o.endpoints.chat(rep.baseURL, spec), body, this.timeoutMs);
        } finally {
          rep.sem.release();
        }
      },
      this.runOptions(),
    );
    const latencyMs = Math.round(performance.now() - t0);
    let r: ProviderResponse;
    if (result.ok) {
      r = { output: result.text, tokenUsage: { input: result.inputTokens, output: result.outputTokens }, attempts, latencyMs };
      if (result.finishReason) r.finishReason = result.finishReason;
    } else {
      const failure = {
        kind: result.kind,
        ...(result.status ? { status: result.status } : {}),
        ...(result.window ? { window: result.window } : {}),
      };
      r = { error: this.redact(failureSentence(spec.name, result, attempts)), retryable: result.retryable, attempts, latencyMs, failure };
    }
    if (prompt.call && this.o.record) await this.o.record(prompt.call, r);
    return r;
  }

  private runOptions(): RunOptions {
    return (this.run ??= { policy: this.policy, availability: this.availability });
  }
  private run: RunOptions | undefined;

  /** Embeddings of `texts` in one request (floats), under the same replicas, limits and retries as chat calls. */
  async callEmbeddingApi(texts: readonly string[]): Promise<EmbeddingResponse> {
    const { spec } = this;
    const label = `embeddings from ${spec.name}`;
    const t0 = performance.now();
    type Res = { data?: { embedding?: unknown; index: number }[]; usage?: { prompt_tokens?: number } };
    let res: Res;
    try {
      res = await this.o.retry.op(
        label,
        async () => {
          const rep = this.pickReplica();
          await rep.sem.acquire();
          try {
            await rep.rpm?.take(1);
            // Floats, not the SDK's default base64: local servers (vLLM, llama.cpp) differ in base64 support.
            return (await this.o.endpoints
              .sdk(rep.baseURL, spec)
              .embeddings.create(
                { model: this.modelId, input: [...texts], encoding_format: 'float' },
                { timeout: this.timeoutMs, maxRetries: 0 },
              )) as Res;
          } finally {
            rep.sem.release();
          }
        },
        this.runOptions(),
      );
    } catch (err) {
      return { error: this.redact((err as Error).message) };
    }
    const latencyMs = Math.round(performance.now() - t0);
    const vectors: (number[] | undefined)[] = texts.map(() => undefined);
    for (const d of res.data ?? []) {
      if (!Array.isArray(d.embedding) || !(d.index >= 0 && d.index < texts.length))
        return { error: `${label}: malformed response (index ${d.index})` };
      vectors[d.index] = d.embedding as number[];
    }
    if (vectors.some((v) => v === undefined)) return { error: `${label}: the response left some texts without a vector` };
    return { vectors: vectors as number[][], tokenUsage: { input: res.usage?.prompt_tokens ?? 0 }, latencyMs };
  }

  /** The replica the next request goes to: the least busy, ties taken in turn. */
  pickReplica(): Replica {
    let reps = this.replicas;
    if (!reps) {
      reps = (this.spec.baseURLs ?? []).map((baseURL) => this.o.endpoints.replica(this.spec, baseURL));
      if (!reps.length)
        throw new Error(
          `llm client: model ${this.spec.name} is active but has no base URL; give it baseURL or baseURLEnv in the models file`,
        );
      this.replicas = reps;
    }
    if (reps.length === 1) return reps[0];
    let best = reps[this.rr++ % reps.length];
    for (const r of reps) if (r.sem.inUse < best.sem.inUse) best = r;
    return best;
  }

  /** What a call takes from the tpm bucket: a rough input count (bytes / 4) plus the output it reserves or is expected to use. */
  private tpmCost(prompt: ProviderPrompt): number {
    let inputBound = prompt.inputBound ?? TOKENS_PER_REPLY;
    if (prompt.inputBound === undefined)
      for (const m of prompt.messages) inputBound += TOKENS_PER_MESSAGE + (typeof m.content === 'string' ? tokenUpperBound(m.content) : 0);
    const expected = prompt.expectedOutputTokens ?? this.spec.expectedOutputTokens ?? this.o.expectedOutputTokens ?? 512;
    return Math.ceil(inputBound / 4) + (outputReserve(prompt.params) || expected);
  }
}

/** The client's policy with a model's `retry` settings over it. */
export function modelPolicy(base: RetryPolicy = DEFAULT_RETRY, spec: Pick<ModelSpec, 'retry'>): RetryPolicy {
  const own = spec.retry;
  if (!own) return base;
  return {
    ...base,
    ...(own.maxAttempts !== undefined ? { maxAttempts: own.maxAttempts } : {}),
    ...(own.waitForServerMs !== undefined ? { waitForServerMs: own.waitForServerMs } : {}),
  };
}

/**
 * The failure sentence of a call that got no answer: the cause with the server's words, and what
 * was tried — "HTTP 400 from judge-a: bad parameter foo (not retried)", "HTTP 500 from judge-a
 * after 5 attempts: …", "context overflow: judge-a's server refused the prompt (window 8192):
 * HTTP 400: This model's maximum context length is 8192 tokens. …".
 */
export function failureSentence(model: string, f: AttemptFailure, attempts: number): string {
  if (f.kind === 'context-overflow') {
    const w = f.window ? ` (window ${f.window})` : '';
    return `context overflow: ${model}'s server refused the prompt${w}: ${f.reason} (not retried)`;
  }
  if (f.kind === 'unavailable') return `${f.reason}; ${attempts} attempt${attempts === 1 ? '' : 's'}`;
  const [head, ...rest] = f.reason.split(': ');
  const words = rest.length ? `: ${rest.join(': ')}` : '';
  if (!f.retryable) return `${head} from ${model}${words} (not retried)`;
  return `${head} from ${model} after ${attempts} attempt${attempts === 1 ? '' : 's'}${words}`;
}
