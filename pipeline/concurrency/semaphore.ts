/**
 * A counting semaphore: at most `limit` holders at once, served first come, first served. Used
 * for each LLM endpoint's concurrency (the run's stage slots are job-slots.ts). `acquire` returns nothing
 * when a slot is free, so the hot path of a cached LLM call allocates no promise.
 */
export class Semaphore {
  private free: number;
  private readonly waiters: (() => void)[] = [];
  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new Error(`concurrency must be at least 1, got ${limit}`);
    this.free = limit;
  }
  get inUse(): number {
    return this.limit - this.free;
  }
  acquire(): Promise<void> | void {
    if (this.free > 0 && !this.waiters.length) {
      this.free--;
      return;
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.free++;
  }
}
