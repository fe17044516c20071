/**
 * Which failures are worth another attempt and how long to wait before it: exponential backoff
 * with full jitter, unless the server said how long (Retry-After / retry-after-ms).
 */
import type { RetryPolicy } from './types.ts';

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 30_000, maxRetryAfterMs: 120_000 };

export interface AttemptFailure {
  /** Short reason for the failure row, e.g. "HTTP 429", "timeout", "connection reset". */
  reason: string;
  retryable: boolean;
  /** Server-requested wait, when given. */
  retryAfterMs?: number;
}

/** Parses Retry-After (seconds or an HTTP date) and retry-after-ms; undefined when absent or unusable. */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined, nowMs = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const ra = headers.get('retry-after');
  if (ra === null) return undefined;
  const secs = Number(ra);
  if (ra.trim() !== '' && Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const at = Date.parse(ra);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : undefined;
}

/** Wait before attempt `attempt + 1` (attempt counts from 1). */
export function retryDelayMs(policy: RetryPolicy, attempt: number, failure: AttemptFailure, random: () => number = Math.random): number {
  if (failure.retryAfterMs !== undefined) return Math.min(failure.retryAfterMs, policy.maxRetryAfterMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/** HTTP statuses that a later attempt may fix. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
