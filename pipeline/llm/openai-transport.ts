/**
 * One attempt at a chat completion through the `openai` package, with the SDK's own retries
 * off (the client retries, so it can count attempts, honour Retry-After and record failures),
 * and every way a request can fail turned into a short reason.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { nodeFetch } from './node-fetch.ts';
import { isRetryableStatus, parseRetryAfter, type AttemptFailure } from './retry.ts';

export type AttemptResult =
  { ok: true; text: string; inputTokens: number; outputTokens: number; finishReason?: string } | ({ ok: false } & AttemptFailure);

export interface SdkOptions {
  baseURL: string;
  apiKey: string;
  fetch?: typeof fetch;
}

export function makeSdk(o: SdkOptions): OpenAI {
  return new OpenAI({ baseURL: o.baseURL, apiKey: o.apiKey || 'not-needed', maxRetries: 0, fetch: o.fetch ?? nodeFetch });
}

/** Reads the answer out of a chat-completions body; a body without one is malformed. */
export function answerOf(body: unknown): AttemptResult {
  type Body = {
    choices?: { message?: { content?: unknown }; finish_reason?: unknown }[];
    usage?: { prompt_tokens?: number; completion_tokens?: number };
  };
  const b = body as Body | null;
  const content = b?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') return { ok: false, reason: 'malformed response: no choices[0].message.content', retryable: true };
  const fr = b?.choices?.[0]?.finish_reason;
  const usage = { inputTokens: b?.usage?.prompt_tokens ?? 0, outputTokens: b?.usage?.completion_tokens ?? 0 };
  return { ok: true, text: content, ...usage, ...(typeof fr === 'string' ? { finishReason: fr } : {}) };
}

export async function chatAttempt(sdk: OpenAI, body: Record<string, unknown>, timeoutMs: number): Promise<AttemptResult> {
  try {
    const res = await sdk.chat.completions.create(body as never, { timeout: timeoutMs, maxRetries: 0 });
    return answerOf(res);
  } catch (err) {
    return { ok: false, ...classifyError(err) };
  }
}

/** A short, retry-aware description of anything the SDK or fetch can throw. */
export function classifyError(err: unknown): AttemptFailure {
  if (err instanceof APIConnectionTimeoutError) return { reason: 'timeout', retryable: true };
  if (err instanceof APIConnectionError) {
    const cause = (err as { cause?: { code?: string; message?: string; cause?: { code?: string } } }).cause;
    const code = cause?.code ?? cause?.cause?.code;
    if (code === 'ERR_TRUNCATED_BODY') return { reason: 'truncated response: connection closed mid-body', retryable: true };
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return { reason: 'connection reset', retryable: true };
    if (code === 'ECONNREFUSED') return { reason: 'connection refused', retryable: true };
    return { reason: `connection error${code ? ` (${code})` : ''}: ${cause?.message ?? err.message}`, retryable: true };
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    const detail = err.message.replace(/^\d{3}\s*/, '').slice(0, 200);
    return {
      reason: `HTTP ${err.status}${detail && !isRetryableStatus(err.status) ? `: ${detail}` : ''}`,
      retryable: isRetryableStatus(err.status),
      retryAfterMs: parseRetryAfter(err.headers as Headers | undefined),
    };
  }
  const e = err as { name?: string; message?: string; code?: string; cause?: { code?: string } };
  if (e?.name === 'SyntaxError') return { reason: 'malformed response: body is not JSON', retryable: true };
  const code = e?.code ?? e?.cause?.code;
  if (e?.message === 'terminated' || code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')
    return { reason: 'truncated response: connection closed mid-body', retryable: true };
  if (e?.name === 'AbortError' || e?.name === 'TimeoutError') return { reason: 'timeout', retryable: true };
  return { reason: `unexpected error: ${e?.message ?? String(err)}`, retryable: true };
}
