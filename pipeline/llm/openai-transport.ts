/**
 * One attempt at a chat completion, and every way a request can fail turned into a short reason
 * and its kind (the client retries, so it can count attempts, honour Retry-After and record
 * failures). An error status keeps the server's own words whatever the body's shape
 * (server-error.ts).
 *
 * Chat calls are POSTed directly (http-post.ts), not through the `openai` SDK: measured against
 * an instant local server (bench/llm-client.bench.ts), the SDK's per-request work — its Headers,
 * URL and AbortSignal objects, request-option encoding and the debug details it formats even with
 * logging off — costs about 100 µs of main-thread CPU per call, three times a plain node:http
 * request, and held a DAG to under a third of the server's rate. The SDK stays for embeddings,
 * files and the Batch API (`makeSdk`), few requests each; its subclass here hands an error's whole
 * body on, since the SDK reads only OpenAI's nested `error` object and reports anything else as
 * "status code (no body)".
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { post, type PostAnswer, type PostTarget } from './http-post.ts';
import { sdkFetch } from './sdk-fetch.ts';
import { isRetryableStatus, isUnavailableStatus, parseRetryAfter, type AttemptFailure } from './retry.ts';
import { readServerError, trimMessage } from './server-error.ts';

export type AttemptResult =
  { ok: true; text: string; inputTokens: number; outputTokens: number; finishReason?: string } | ({ ok: false } & AttemptFailure);

export interface SdkOptions {
  baseURL: string;
  apiKey: string;
  fetch?: typeof fetch;
}

/** The body of an error response, as the SDK parsed it (an object when it was JSON, else its text). */
const RAW_BODY = Symbol('cdp raw error body');

class CdpOpenAI extends OpenAI {
  protected override makeStatusError(status: number, error: object, message: string | undefined, headers: Headers): APIError {
    const err = super.makeStatusError(status, error, message, headers);
    (err as unknown as Record<symbol, unknown>)[RAW_BODY] = error ?? message;
    return err;
  }
}

export function makeSdk(o: SdkOptions): OpenAI {
  return new CdpOpenAI({ baseURL: o.baseURL, apiKey: o.apiKey || 'not-needed', maxRetries: 0, fetch: o.fetch ?? sdkFetch });
}

const malformed = (what: string): AttemptResult => ({
  ok: false,
  reason: `malformed response: ${what}`,
  retryable: true,
  kind: 'malformed',
});

/**
 * Reads the answer out of a chat-completions body. What the model said is an answer, even when
 * it ran out of tokens (`finish_reason: 'length'`, empty content included) or was filtered: its
 * reader decides. A body the server cut short or filled wrongly is not: no choices, no message,
 * empty content with no finish reason or a plain 'stop', a finish reason of `abort` or `error` (vLLM's aborted
 * request, a gateway's failed upstream), or an error object in a 200.
 */
export function answerOf(body: unknown): AttemptResult {
  type Body = {
    choices?: { message?: { content?: unknown }; finish_reason?: unknown }[];
    usage?: { prompt_tokens?: number; completion_tokens?: number };
    error?: unknown;
    object?: unknown;
  };
  if (typeof body === 'string') return malformed(`the body is not JSON (${JSON.stringify(trimMessage(body, 60))})`);
  const b = body as Body | null;
  if (!b || typeof b !== 'object') return malformed('the body is not a JSON object');
  if (b.error !== undefined || b.object === 'error') return malformed(`a 200 carrying an error: ${readServerError(b).message}`);
  const choice = Array.isArray(b.choices) ? b.choices[0] : undefined;
  if (!choice) return malformed('no choices');
  const fr = typeof choice.finish_reason === 'string' ? choice.finish_reason : undefined;
  if (fr === 'abort' || fr === 'error') return malformed(`finish_reason "${fr}": the server gave up on the request`);
  const content = choice.message?.content;
  const usage = { inputTokens: b.usage?.prompt_tokens ?? 0, outputTokens: b.usage?.completion_tokens ?? 0 };
  if (content === null || content === undefined || content === '') {
    // Cut at max_tokens (a reasoning model that spent them all thinking) or filtered: the model's
    // doing, for its reader to refuse; asking again would give the same.
    if (fr === 'length' || fr === 'content_filter') return { ok: true, text: '', ...usage, finishReason: fr };
    return malformed(fr ? `empty content (finish_reason "${fr}")` : 'empty content and no finish_reason');
  }
  if (typeof content !== 'string') return malformed('choices[0].message.content is not text');
  return { ok: true, text: content, ...usage, ...(fr ? { finishReason: fr } : {}) };
}

/** Where a model's chat requests go and the headers they carry (its key read when made). */
export interface ChatEndpoint {
  target: PostTarget;
  headers: Record<string, string>;
}

export function chatHeaders(apiKey: string): Record<string, string> {
  return { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${apiKey || 'not-needed'}` };
}

/** One chat request: `body` is the JSON text of the chat-completions body, made once per call. */
export async function chatAttempt(ep: ChatEndpoint, body: string, timeoutMs: number): Promise<AttemptResult> {
  let a: PostAnswer;
  try {
    a = await post(ep.target, ep.headers, body, timeoutMs);
  } catch (err) {
    return { ok: false, ...classifyError(err) };
  }
  if (a.status < 200 || a.status >= 300) return { ok: false, ...statusFailure(a.status, a.body.toString('utf8'), { get: a.header }) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(a.body.toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed response: the body is not JSON', retryable: true, kind: 'malformed' };
  }
  return answerOf(parsed);
}

/** An error status: the server's words, and whether it is an overflow, a server not there, or worth another attempt. */
function statusFailure(status: number, raw: unknown, headers: { get(name: string): string | null } | undefined): AttemptFailure {
  const said = readServerError(raw);
  const words = said.message && !/^status code \(no body\)$/.test(said.message) ? `: ${said.message}` : '';
  const retryAfterMs = parseRetryAfter(headers);
  const base = { status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  if (status >= 400 && status < 500 && said.overflow)
    return {
      ...base,
      reason: `HTTP ${status}${words}`,
      retryable: false,
      kind: 'context-overflow',
      ...(said.window ? { window: said.window } : {}),
    };
  if (isUnavailableStatus(status)) return { ...base, reason: `HTTP ${status}${words}`, retryable: true, kind: 'unavailable' };
  return { ...base, reason: `HTTP ${status}${words}`, retryable: isRetryableStatus(status), kind: 'http' };
}

/** A short, retry-aware description of anything the SDK or fetch can throw. */
export function classifyError(err: unknown): AttemptFailure {
  if (err instanceof APIConnectionTimeoutError) return { reason: 'timeout', retryable: true, kind: 'timeout' };
  if (err instanceof APIConnectionError) {
    const cause = (err as { cause?: { code?: string; message?: string; cause?: { code?: string } } }).cause;
    const code = cause?.code ?? cause?.cause?.code;
    if (code === 'ERR_TRUNCATED_BODY')
      return { reason: 'truncated response: connection closed mid-body', retryable: true, kind: 'malformed' };
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return { reason: 'connection reset', retryable: true, kind: 'unavailable' };
    if (code === 'ECONNREFUSED') return { reason: 'connection refused', retryable: true, kind: 'unavailable' };
    return { reason: `connection error${code ? ` (${code})` : ''}: ${cause?.message ?? err.message}`, retryable: true, kind: 'connection' };
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    const raw = (err as unknown as Record<symbol, unknown>)[RAW_BODY];
    return statusFailure(err.status, raw !== undefined ? raw : err.message.replace(/^\d{3}\s*/, ''), err.headers as Headers | undefined);
  }
  const e = err as { name?: string; message?: string; code?: string; cause?: { code?: string } };
  if (e?.name === 'SyntaxError') return { reason: 'malformed response: the body is not JSON', retryable: true, kind: 'malformed' };
  const code = e?.code ?? e?.cause?.code;
  if (code === 'ERR_TRUNCATED_BODY' || e?.message === 'terminated')
    return { reason: 'truncated response: connection closed mid-body', retryable: true, kind: 'malformed' };
  // Before any answer: the server closed the connection (restarting, or not ready to serve).
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET')
    return { reason: 'connection reset', retryable: true, kind: 'unavailable' };
  if (code === 'ECONNREFUSED') return { reason: 'connection refused', retryable: true, kind: 'unavailable' };
  if (code === 'ETIMEDOUT' || e?.name === 'AbortError' || e?.name === 'TimeoutError')
    return { reason: 'timeout', retryable: true, kind: 'timeout' };
  if (code) return { reason: `connection error (${code}): ${e?.message ?? String(err)}`, retryable: true, kind: 'connection' };
  return { reason: `unexpected error: ${e?.message ?? String(err)}`, retryable: true, kind: 'connection' };
}
