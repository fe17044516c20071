/**
 * Which failures are worth another attempt and how long to wait before it. Two policies:
 * - a server that is not there (connection refused or reset, 502, 503, 504: still starting,
 *   restarting, behind a proxy that has no upstream yet) is waited for, with backoff polling at
 *   least every SERVER_POLL_MS, for the model's `waitForServerMs` counted from its first such
 *   failure (availability.ts), however many attempts that takes;
 * - any other fault a later attempt may fix (429, 500, timeouts, malformed bodies) gets
 *   `maxAttempts` attempts, with exponential backoff and full jitter.
 * In both, a Retry-After / retry-after-ms the server sent sets the wait. The Retrier is the loop
 * that applies them, one per client.
 */
import { Availability } from './availability.ts';
import type { CallFailureKind, RetryPolicy } from './types.ts';

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 5,
  waitForServerMs: 300_000,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
};

/** Longest pause between two attempts at a server that is not there: a server that comes up is used within this. */
export const SERVER_POLL_MS = 10_000;

export interface AttemptFailure {
  /** Short reason for the failure row, e.g. "HTTP 429", "timeout", "connection reset". */
  reason: string;
  retryable: boolean;
  /** Server-requested wait, when given. */
  retryAfterMs?: number;
  /** What kind of failure this is; `unavailable` while the server is not there (see the file comment). */
  kind: CallFailureKind;
  /** The HTTP status, when the server answered. */
  status?: number;
  /** For a context overflow: the window the server stated. */
  window?: number;
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

/** Wait before attempt `attempt + 1` of its policy (attempt counts from 1). */
export function retryDelayMs(policy: RetryPolicy, attempt: number, failure: AttemptFailure, random: () => number = Math.random): number {
  if (failure.retryAfterMs !== undefined) return Math.min(failure.retryAfterMs, policy.maxRetryAfterMs);
  const cap = failure.kind === 'unavailable' ? Math.min(policy.maxDelayMs, SERVER_POLL_MS) : policy.maxDelayMs;
  const ceiling = Math.min(cap, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/** HTTP statuses that a later attempt may fix. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** HTTP statuses that say the server (or the one behind a proxy) is not there yet: waited for, not counted. */
export function isUnavailableStatus(status: number): boolean {
  return status === 502 || status === 503 || status === 504;
}

export interface RetrierOptions {
  /** Source of jitter; tests pass a fixed one. */
  random?: () => number;
  log?: (line: string) => void;
  /** Where the one-line-per-model "waiting for the server" progress goes (default: nowhere). */
  progress?: (line: string) => void;
  /** Turns what a throwing operation threw into a failure (openai-transport.ts: classifyError). */
  classify: (err: unknown) => AttemptFailure;
  /** Removes API keys from every line it logs and every error it throws. */
  redact?: (text: string) => string;
}

export interface RunOptions {
  /** The model's policy (its models-file `retry` over the client's); default the Retrier's. */
  policy?: RetryPolicy;
  /** The model's availability, shared by its calls; default one of this run alone. */
  availability?: Availability;
}

type Outcome = { ok: true } | ({ ok: false } & AttemptFailure);

/**
 * The client's one retry helper, shared by live chat calls, embeddings and the Batch API's
 * operations, so every request to a server waits and gives up by the same policy.
 */
export class Retrier {
  private readonly random: () => number;
  private readonly log: (line: string) => void;
  private readonly redact: (text: string) => string;
  readonly progress: (line: string) => void;

  constructor(
    readonly policy: RetryPolicy,
    private readonly o: RetrierOptions,
  ) {
    this.random = o.random ?? Math.random;
    this.log = o.log ?? (() => {});
    this.redact = o.redact ?? ((t) => t);
    this.progress = o.progress ?? (() => {});
  }

  /** The availability of a model under `policy`, for its calls to share. */
  availability(model: string, policy: RetryPolicy = this.policy): Availability {
    return new Availability(model, policy.waitForServerMs, (line) => this.progress(this.redact(line)));
  }

  /**
   * Runs `attempt` until it succeeds, fails for good, or its policy gives up: the wait budget
   * for an unavailable server, the attempt count for other faults. A failure for good as
   * `unavailable` carries the sentence that says since when.
   */
  async run<R extends Outcome>(label: string, attempt: () => Promise<R>, opts: RunOptions = {}): Promise<{ result: R; attempts: number }> {
    const policy = opts.policy ?? this.policy;
    const avail = opts.availability ?? this.availability(label, policy);
    let counted = 0;
    let waited = 0;
    for (let n = 1; ; n++) {
      const result = await attempt();
      if (result.ok) {
        avail.up();
        return { result, attempts: n };
      }
      if (result.kind === 'unavailable') {
        const left = avail.down(result.reason);
        if (left <= 0) return { result: { ...result, reason: avail.gaveUpSentence(result.reason) }, attempts: n };
        const wait = Math.min(left, retryDelayMs(policy, ++waited, result, this.random));
        this.log(this.redact(`llm: ${label} ${result.reason}; waiting for the server, attempt ${n + 1} in ${wait} ms`));
        await avail.sleep(wait);
        continue;
      }
      // The server answered, or at least was reached.
      if (result.kind !== 'timeout' && result.kind !== 'connection') avail.up();
      counted++;
      if (!result.retryable || counted >= policy.maxAttempts) return { result, attempts: n };
      const wait = retryDelayMs(policy, counted, result, this.random);
      this.log(this.redact(`llm: ${label} ${result.reason}; attempt ${counted + 1}/${policy.maxAttempts} in ${wait} ms`));
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** A throwing API operation under the same loop: its value, or an Error saying what failed after how many attempts. */
  async op<T>(what: string, op: () => Promise<T>, opts: RunOptions = {}): Promise<T> {
    let value: T | undefined;
    const { result, attempts } = await this.run(
      what,
      async (): Promise<Outcome> => {
        try {
          value = await op();
          return { ok: true };
        } catch (err) {
          return { ok: false, ...this.o.classify(err) };
        }
      },
      opts,
    );
    if (!result.ok) throw new Error(this.redact(`${what}: ${result.reason} after ${attempts} attempt(s)`));
    return value as T;
  }
}
