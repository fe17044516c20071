/**
 * The shapes the LLM client shares with the runner, the stages and its providers. Plain data
 * only; the client (client.ts) and the providers (providers/) give them behaviour.
 */

export type LlmRole = 'builder' | 'evaluated' | 'patient' | 'judge';

/** One row of the model roster: everything needed to call a model and to account for it. */
export interface ModelSpec {
  /** The name used everywhere in outputs and in `ChatRequest.model`. */
  name: string;
  roles: LlmRole[];
  provider: 'openai-compatible' | 'offline';
  /** Replicas of one server (`…/v1`); calls are spread over them. */
  baseURLs?: string[];
  /** Name of an environment variable holding comma-separated base URLs (overrides `baseURLs`). */
  baseURLEnv?: string;
  /** Name (never the value) of the environment variable that holds the API key. */
  apiKeyEnv?: string;
  /** The key may be absent (local servers); otherwise a missing key leaves the model inactive. */
  apiKeyOptional?: boolean;
  /** The id sent to the server; defaults to `name`. */
  modelId?: string;
  /** Default sampling parameters, merged under each request's `params`. */
  params?: Record<string, unknown>;
  /** Tokens the model accepts (input plus requested output). */
  contextWindow?: number;
  /** Requests in flight per replica. */
  concurrency?: number;
  /** Requests per minute per replica. */
  rpm?: number;
  /** Tokens per minute per replica (input estimate plus expected output). */
  tpm?: number;
  /** USD per million tokens. */
  price?: { inputPerMTok: number; outputPerMTok: number };
  /** Output tokens to assume per call when estimating (default 512). */
  expectedOutputTokens?: number;
  /** Send cache misses through the OpenAI Batch API instead of one request each. */
  batch?: boolean;
  /**
   * Requests that name a `sample` (one per case) are distinct calls, sent with a reproducible
   * per-sample `seed` (vLLM and SGLang honour it), so two cases with identical prompts get two
   * samples. Default true; false shares one answer between them (deterministic servers).
   */
  independentSamples?: boolean;
  /** Per-attempt timeout in milliseconds. */
  timeoutMs?: number;
  /** How long this model's calls wait for its server and how often other faults are retried (over the client's defaults). */
  retry?: ModelRetry;
  /** An offline agent standing in for an LLM; labelled as simulated in every output. */
  simulated?: boolean;
  /** `false` disables a model; `resolveRoster` sets it from the endpoint configuration. */
  active?: boolean;
  /** Why the model is inactive, written by `resolveRoster`. */
  inactiveReason?: string;
  /** Free text shown in roster listings (provenance, price notes). */
  note?: string;
}

/** Text inline, or a shared blob registered once with `client.blob(text)` and hashed once. */
export type ContentPart = { type: 'text'; text: string } | { type: 'blob'; blob: string };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | ContentPart[];
}

export interface ChatRequest {
  /** Roster name. */
  model: string;
  messages: ChatMessage[];
  /** Sampling parameters for this call, over the model's defaults. */
  params?: Record<string, unknown>;
  /** Sent as `response_format`. */
  responseFormat?: Record<string, unknown>;
  /** Repeat index: repeats of one prompt are distinct calls and distinct cache entries. */
  repeat?: number;
  /**
   * What this call is an independent sample of (a case id): enters the cache key and the
   * request's seed unless the model sets `independentSamples: false`.
   */
  sample?: string;
  /**
   * The role the model plays in this call: for the call log and for estimate stand-ins. Required
   * for a real model (the client refuses a call without one), so every logged call has its role.
   */
  role?: LlmRole;
  /** Stage tag for the call log; `forStage` views set it. */
  stage?: string;
  /** Output tokens to assume when estimating this call. */
  expectedOutputTokens?: number;
  /**
   * The unit's data behind this call (for a task: the case, its vignette, guideline and tree),
   * for offline providers, which may read it; live providers ignore it. Never sent to a server
   * and not part of the cache key: a real model sees only the messages. Its shape is the
   * caller's (stages/tasks/unit-context.ts documents the task stages'); the client passes it on.
   */
  context?: Readonly<Record<string, unknown>>;
}

/** Which stored call an answer is: what `reject` needs to stop serving it. */
export interface CallIdentity {
  key: string;
  model: string;
  modelId: string;
  stage: string;
  promptHash: string;
  repeat: number;
  /** Fresh attempts of this key before this answer (answers rejected earlier). */
  attempt: number;
}

export type ChatResult =
  | {
      ok: true;
      text: string;
      cached: boolean;
      usage: { inputTokens: number; outputTokens: number };
      latencyMs: number;
      /** The API's finish_reason ('stop', 'length', …) when the server gave one. */
      finishReason?: string;
      /** The stored call that gave this answer; absent for simulated (offline) and estimated answers. */
      call?: CallIdentity;
      /** What an offline provider says it used to answer (e.g. the simulated patient's route). */
      metadata?: Readonly<Record<string, unknown>>;
    }
  | CallFailure;

/**
 * Why a call has no answer, for callers that sort failures without reading sentences:
 * - `context-overflow`: the prompt with its output reservation does not fit the window — the
 *   server said so (`sent`), or the client's count did before sending; a remembered overflow is
 *   answered again without sending until the prompt, the params or the declared window change.
 * - `unavailable`: the server could not be reached or was not ready (connection refused or reset,
 *   502, 503, 504) for the model's whole wait budget (`retry.waitForServerMs`).
 * - `http`: any other error status: a 4xx at once, 429 and 500 after the model's attempts.
 * - `timeout`: no answer within the per-attempt timeout, on every attempt.
 * - `connection`: another network failure (a name that does not resolve, TLS, …).
 * - `malformed`: a 200 that is not an answer — no choices, empty content without a finish reason,
 *   a finish reason of `abort`/`error`, a body that is not JSON or ended early.
 * - `inactive`: the model is not configured (no endpoint or key); nothing was sent.
 * - `estimate`: estimate mode; nothing was sent.
 * - `batch`: a Batch API item failed, or its batch is still running (detached).
 * - `offline`: an offline handler failed or is missing.
 */
export type CallFailureKind =
  'context-overflow' | 'unavailable' | 'http' | 'timeout' | 'connection' | 'malformed' | 'inactive' | 'estimate' | 'batch' | 'offline';

/** A call without an answer: never cached as one, always with its reason. */
export interface CallFailure {
  ok: false;
  /** A readable sentence: the cause, with the server's own words when it sent any (keys redacted). */
  error: string;
  /** HTTP attempts made for this call in this run (0: nothing sent). */
  attempts: number;
  kind: CallFailureKind;
  /** Whether asking again with the same request may succeed (false for overflows, 4xx, inactive models). */
  retryable: boolean;
  /** The HTTP status of the last attempt, when there was a response. */
  status?: number;
  /** For a context overflow: the window the server stated (or the declared one, for the client's own check). */
  window?: number;
}

/**
 * A model's own retry settings (the models file's `retry`), over the client's defaults. A model
 * whose server cannot be reached or is not ready (connection refused or reset, 502, 503, 504) is
 * waited for, with backoff, for `waitForServerMs` counted from its first such failure; the other
 * faults worth retrying (429, 500, timeouts, malformed bodies) get `maxAttempts` attempts.
 */
export interface ModelRetry {
  waitForServerMs?: number;
  maxAttempts?: number;
}

/** Embeddings of several texts by one model; each text is cached on its own. */
export interface EmbedRequest {
  model: string;
  input: string[];
  stage?: string;
  /** The role the model plays (a judge, for the embedding judge): required for real models, recorded in the call log. */
  role?: LlmRole;
}

export type EmbedResult = { ok: true; vectors: number[][]; cached: number } | { ok: false; error: string; kind?: CallFailureKind };

/**
 * What a provider answers, shaped like promptfoo's ProviderResponse: `output` when it answered,
 * `error` when it did not (a failure is returned, never thrown), and what the client records
 * and counts about the call.
 */
export interface ProviderResponse {
  output?: string;
  /** Why there is no answer, with every API key already redacted. */
  error?: string;
  /** Tokens the call used (for an estimate: would use), as the server or the estimate counted them. */
  tokenUsage?: { input: number; output: number };
  /** The API's finish_reason ('stop', 'length', …) when the server gave one. */
  finishReason?: string;
  /** What an offline provider says it used to answer (e.g. the simulated patient's route). */
  metadata?: Readonly<Record<string, unknown>>;
  /** The answer is one this provider gave before (an estimate's identical request): nothing new was used. */
  cached?: boolean;
  /** Requests made for this answer: HTTP attempts of a live call, 1 for a batch item, 0 when nothing was sent. */
  attempts?: number;
  latencyMs?: number;
  /** The Batch API batch that answered. */
  batchId?: string;
  /** On an error: whether another attempt could succeed (transport faults, 429, 5xx). */
  retryable?: boolean;
  /** On an error: its kind, status and stated window (see CallFailure). */
  failure?: FailureFacts;
}

/** What a provider knows about a failure beyond its sentence. */
export interface FailureFacts {
  kind: CallFailureKind;
  status?: number;
  window?: number;
}

/**
 * The call-log identity of a request that fills a cache entry: what the call store records
 * besides the outcome. The client names it; live and batch providers record under it.
 */
export interface StoredCall {
  key: string;
  model: string;
  modelId: string;
  stage: string;
  promptHash: string;
  repeat: number;
  /** The independent sample the call is (a case id), when it keys the call. */
  sample?: string;
  role?: LlmRole;
  /** Fresh attempts of this key before this one (answers rejected earlier); absent = 0. */
  attempt?: number;
  /** The seed sent with the request, when one was. */
  seed?: number;
  /** The model's declared context window when the call was made (what a remembered overflow is keyed by). */
  contextWindow?: number;
}

/**
 * The call a provider is asked to answer: the request with every blob part resolved to text.
 * Calls the client routes past the cache also carry `call`, their params merged over the
 * model's defaults, `sample` only when it keys the call, and, in estimate mode, `inputTokens`.
 */
export interface ProviderPrompt extends ChatRequest {
  /** The cache entry the answer fills; absent for offline calls, which are never stored. */
  call?: StoredCall;
  /** The seed to send (seedOf, request-key.ts), unless the params fix one. */
  seed?: number;
  /** The messages' exact o200k count with chat framing, when the client counted it (blobs once). */
  inputTokens?: number;
  /** The messages' byte bound on their tokens (tokens.ts), measured once by the client with the prompt hash. */
  inputBound?: number;
}

/**
 * One role played by one model: live OpenAI-compatible, batch, estimate or offline (in-process)
 * providers all answer through this (promptfoo's `callApi(prompt, context)`). `context` is the
 * request's `context`: offline providers may read it, the others ignore it.
 */
export interface Provider {
  callApi(prompt: ProviderPrompt, context: Readonly<Record<string, unknown>> | undefined): Promise<ProviderResponse>;
  /**
   * An offline provider that answers from the call's context and its messages' roles alone: the
   * client gives it the messages with empty contents, wherever it runs, so a prompt it never
   * reads is neither assembled from its blobs nor copied to a worker thread with each call.
   */
  answersFromContext?: boolean;
  /** Embeddings of `texts`, in their order; only providers backed by a server have it. */
  callEmbeddingApi?(texts: readonly string[]): Promise<EmbeddingResponse>;
}

/** What `callEmbeddingApi` answers: a vector per text, or why there are none. */
export type EmbeddingResponse =
  { vectors: number[][]; tokenUsage: { input: number }; latencyMs: number; error?: undefined } | { error: string; vectors?: undefined };

/**
 * The short form of an offline provider that needs only the prompt (the construction writers,
 * the simulated judges): the client wraps it into a Provider (`offlineProvider`, providers/offline.ts).
 */
export type OfflineHandler = (prompt: ProviderPrompt) => string | Promise<string>;

export interface CallCounters {
  /** Every chat() call, including those answered by offline providers. */
  calls: number;
  /** Calls answered by offline (in-process) providers: not LLM calls, and reported apart. */
  offline: number;
  cached: number;
  failed: number;
  inputTokens: number;
  outputTokens: number;
  estimatedCostUsd: number;
}

/** One line of `cdp estimate`: what the cache misses of a stage would cost on a model. */
export interface EstimateRow {
  stage: string;
  model: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** False when the model's price is unknown (0 in the roster). */
  priced: boolean;
  /** Prompts larger than the model's context window: a real run refuses them before sending. */
  overflows: number;
  /**
   * Of the calls, those a stand-in answered in the model's place (the stages after them see the
   * stand-in's answer, not the model's), and those nothing answered (they end as failure rows in
   * the estimate): what comes after either rests on an assumption.
   */
  stoodIn: number;
  unanswered: number;
}

export interface RetryPolicy {
  /** Attempts per call, including the first, for faults other than an unavailable server. */
  maxAttempts: number;
  /**
   * How long a model's unavailable server (connection refused or reset, 502, 503, 504) is waited
   * for, from its first such failure, before its calls fail as `unavailable`.
   */
  waitForServerMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest Retry-After honoured; longer waits are capped to this. */
  maxRetryAfterMs: number;
}

export interface BatchPolicy {
  /** Misses collected for this long are submitted as one batch. */
  windowMs: number;
  /** A batch is submitted as soon as it holds this many requests. */
  maxRequests: number;
  pollIntervalMs: number;
  completionWindow: '24h';
}

export interface LlmClient {
  chat(req: ChatRequest): Promise<ChatResult>;
  /** Embeddings through the server's /embeddings endpoint, cached per text like chat calls. */
  embed(req: EmbedRequest): Promise<EmbedResult>;
  /** Registers a large shared text once; reference the returned part from messages. */
  blob(text: string): ContentPart;
  /**
   * Says that the answer of `result` was refused by its reader (a garbled or unusable answer): it
   * stays in the call log, marked rejected with `reason`, is never served again from the cache,
   * and the next identical request is a fresh attempt (a new seed). No-op for failed, simulated or
   * estimated results. Resolves once the rejection is durable.
   */
  reject(result: ChatResult, reason: string): Promise<void>;
  /** A view that tags calls with `stage` and keeps its own counters. */
  forStage(stage: string): LlmStageClient;
  /** Totals over every stage. */
  counters(): CallCounters;
  /** Per stage × model rows of the misses seen in estimate mode. */
  estimateReport(): EstimateRow[];
  /** The resolved roster (keys never included). */
  roster(): ModelSpec[];
  /** Submits pending batch requests now instead of waiting for the batch window. */
  flushBatches(): Promise<void>;
  /**
   * Waits for calls in flight and makes every completed call durable. Batches still running are
   * waited for, unless `detachBatches`: then their calls fail as "still in progress" and a later
   * run collects them by batch id.
   */
  close(opts?: { detachBatches?: boolean }): Promise<void>;
}

export interface LlmStageClient {
  readonly stage: string;
  chat(req: ChatRequest): Promise<ChatResult>;
  embed(req: EmbedRequest): Promise<EmbedResult>;
  /** See `LlmClient.reject`. */
  reject(result: ChatResult, reason: string): Promise<void>;
  blob(text: string): ContentPart;
  counters(): CallCounters;
}
