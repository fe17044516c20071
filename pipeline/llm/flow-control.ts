/**
 * Per-endpoint rate limits: token buckets for requests and tokens per minute, served first come,
 * first served. The concurrency limit beside them is the runner's one semaphore
 * (pipeline/concurrency/semaphore.ts).
 */

/**
 * A bucket holding up to `perMinute` units, refilled continuously. A take larger than the
 * capacity waits for a full bucket and then takes it all (one oversized request still goes).
 */
export class TokenBucket {
  private level: number;
  private last: number;
  private queue: { n: number; resolve: () => void }[] = [];
  private timer: NodeJS.Timeout | null = null;
  constructor(
    readonly perMinute: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(perMinute > 0)) throw new Error(`rate limit must be positive per minute, got ${perMinute}`);
    this.level = perMinute;
    this.last = now();
  }
  private refill(): void {
    const t = this.now();
    this.level = Math.min(this.perMinute, this.level + ((t - this.last) * this.perMinute) / 60_000);
    this.last = t;
  }
  take(n: number): Promise<void> | void {
    const want = Math.min(n, this.perMinute);
    if (!this.queue.length) {
      this.refill();
      if (this.level >= want) {
        this.level -= want;
        return;
      }
    }
    return new Promise((resolve) => {
      this.queue.push({ n: want, resolve });
      this.schedule();
    });
  }
  private schedule(): void {
    if (this.timer || !this.queue.length) return;
    this.refill();
    const head = this.queue[0];
    const waitMs = Math.max(1, ((head.n - this.level) * 60_000) / this.perMinute);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.refill();
      while (this.queue.length && this.level >= this.queue[0].n) {
        const q = this.queue.shift()!;
        this.level -= q.n;
        q.resolve();
      }
      this.schedule();
    }, Math.ceil(waitMs));
  }
}
