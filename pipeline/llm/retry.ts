/**
 * Which failures are worth another attempt and how long to wait before it: exponential backoff
 * with full jitter, unless the server said how long (Retry-After / retry-after-ms). The
 * Retrier is the loop that applies it, one per client.
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

export interface RetrierOptions {
  /** Source of jitter; tests pass a fixed one. */
  random?: () => number;
  log?: (line: string) => void;
  /** Turns what a throwing operation threw into a failure (openai-transport.ts: classifyError). */
  classify: (err: unknown) => AttemptFailure;
  /** Removes API keys from every line it logs and every error it throws. */
  redact?: (text: string) => string;
}

/**
 * The client's one retry helper, shared by live chat calls, embeddings and the Batch API's
 * operations, so every request to a server waits and gives up by the same policy.
 */
export class Retrier {
  private readonly random: () => number;
  private readonly log: (line: string) => void;
  private readonly redact: (text: string) => string;

  constructor(
    readonly policy: RetryPolicy,
    private readonly o: RetrierOptions,
  ) {
    this.random = o.random ?? Math.random;
    this.log = o.log ?? (() => {});
    this.redact = o.redact ?? ((t) => t);
  }

  /**
   * Runs `attempt` until it succeeds, fails for good, or the policy's attempts run out, waiting
   * with backoff, jitter and Retry-After between attempts.
   */
  async run<R extends { ok: true } | ({ ok: false } & AttemptFailure)>(
    label: string,
    attempt: () => Promise<R>,
  ): Promise<{ result: R; attempts: number }> {
    const max = this.policy.maxAttempts;
    for (let n = 1; ; n++) {
      const result = await attempt();
      if (result.ok || !result.retryable || n >= max) return { result, attempts: n };
      const wait = retryDelayMs(this.policy, n, result, this.random);
      this.log(this.redact(`llm: ${label} ${result.reason}; attempt ${n + 1}/${max} in ${wait} ms`));
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** A throwing API operation under the same loop: its value, or an Error saying what failed after how many attempts. */
  async op<T>(what: string, op: () => Promise<T>): Promise<T> {
    let value: T | undefined;
    const { result, attempts } = await this.run(what, async (): Promise<{ ok: true } | ({ ok: false } & AttemptFailure)> => {
      try {
        value = await op();
        return { ok: true };
      } catch (err) {
        return { ok: false, ...this.o.classify(err) };
      }
    });
    if (!result.ok) throw new Error(this.redact(`${what}: ${result.reason} after ${attempts} attempt(s)`));
    return value as T;
  }
}
