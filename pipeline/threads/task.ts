/**
 * One function over many items, on the pool's workers or inline. A task starts inline, timing
 * its items' CPU time, and moves to the workers once the work it sees coming is worth what they
 * cost to start (`coldMs`; bench/threads.bench.ts measures the start-up) or, with
 * the workers already running, worth a message (`warmMs`). With a known number of items it
 * projects from the first few; without one, it moves after spending that much inline. Which
 * thread computes an item never changes its result: the function must be pure.
 */
import { moduleExport } from './module-export.ts';
import { MAX_BATCH, type Pending, type Submitter } from './protocol.ts';

export interface TaskSpec {
  /** The module holding the function: an absolute path or a file URL (TypeScript is fine). */
  module: string;
  /** Its exported function `(item, shared) => result`, pure: its result depends on its arguments only. */
  fn: string;
  /** What every item shares, sent to each worker once (structured clone: plain data). */
  shared?: unknown;
  /** How many items the task will have, when known. */
  expected?: number;
  /**
   * The sum of the weights its items will be run with (`run(item, weight)`), when they are not
   * all 1: a task of unequal items (a stage's partitions, weighed by rows) projects its work
   * from the weight timed inline. Default `expected`.
   */
  weight?: number;
}

export interface TaskTuning {
  /** Items timed inline before projecting (with `expected`). Default 8. */
  probe: number;
  /**
   * Projected (or spent) inline milliseconds of CPU that justify starting the workers. Default
   * 5000: starting two workers costs about a second of CPU and their memory (bench/RESULTS.md,
   * threads), and the bundled sample's largest task (the stand-ins' answers, 2.4 s) stays inline.
   */
  coldMs: number;
  /** The same with the workers running already (a worker still loads the task's module). Default 200. */
  warmMs: number;
  /** A batch's target duration on a worker: message costs stay small beside it. Default 15; 0 sends each item alone. */
  batchMs: number;
}

const DEFAULTS: TaskTuning = { probe: 8, coldMs: 5000, warmMs: 200, batchMs: 15 };

type Fn = (item: unknown, shared: unknown, refs?: readonly object[]) => unknown;

export class TaskRunner<I = unknown, O = unknown> {
  private readonly tuning: TaskTuning;
  private fn$: Promise<Fn> | null = null;
  private inlineMs = 0;
  private inlineItems = 0;
  private inlineWeight = 0;
  private threadedNow = false;
  /** Items computed by each side, for the run's facts and the tests. */
  readonly counts = { inline: 0, threaded: 0 };

  constructor(
    private readonly pool: Submitter,
    readonly id: number,
    readonly spec: TaskSpec,
    tuning: Partial<TaskTuning>,
  ) {
    this.tuning = { ...DEFAULTS, ...tuning };
  }

  /** Items per batch: about `batchMs` of work at the cost measured inline. */
  get batchSize(): number {
    if (this.tuning.batchMs <= 0) return 1;
    if (!this.inlineItems || this.inlineMs <= 0) return MAX_BATCH;
    const mean = this.inlineMs / this.inlineItems;
    return Math.max(1, Math.min(MAX_BATCH, Math.round(this.tuning.batchMs / mean)));
  }

  /** Whether items go to the workers now. */
  get threaded(): boolean {
    return this.threadedNow;
  }

  /**
   * The item's result; which side computes it is decided when its turn comes, from the items
   * timed so far. `weight`: how much work the item is beside the others (see TaskSpec.weight).
   * `refs`: objects it shares with other items, handed to the function as its third argument and
   * sent to each worker once (Pending.refs).
   */
  async run(item: I, weight = 1, refs?: readonly object[]): Promise<O> {
    // Even a task bound for the workers loads its function here: it may be run inline first.
    const fn = this.threadedNow || !this.pool.threaded ? null : await this.load();
    if (!this.threadedNow && this.worthThreads()) this.threadedNow = true;
    if (!this.threadedNow) return this.inline(fn ?? (await this.load()), item, weight, refs);
    this.counts.threaded++;
    return new Promise<O>((resolve, reject) => {
      const p: Pending = { task: this.id, item, resolve: resolve as (v: unknown) => void, reject, ...(refs ? { refs } : {}) };
      this.pool.submit(p);
    });
  }

  /** The task is done: workers drop its shared value. */
  close(): void {
    this.pool.release(this.id);
  }

  private worthThreads(): boolean {
    if (!this.pool.threaded) return false;
    const { probe, coldMs, warmMs } = this.tuning;
    const bar = this.pool.started ? warmMs : coldMs;
    if (bar <= 0) return true;
    if (this.spec.expected === undefined) return this.inlineMs > bar;
    if (this.inlineItems < Math.min(probe, this.spec.expected)) return false;
    const left = (this.spec.weight ?? this.spec.expected) - this.inlineWeight;
    return (this.inlineMs / Math.max(this.inlineWeight, 1e-9)) * left > bar;
  }

  private load(): Promise<Fn> {
    const { module, fn } = this.spec;
    return (this.fn$ ??= moduleExport<Fn>(module, fn));
  }

  private inline(fn: Fn, item: I, weight: number, refs: readonly object[] | undefined): Promise<O> {
    this.counts.inline++;
    // CPU time, not wall time: on a loaded machine wall time would overstate the work. Timed
    // before anything is awaited, so the next item's turn decides from this one's cost.
    const t0 = process.cpuUsage();
    try {
      return Promise.resolve(fn(item, this.spec.shared, refs) as O);
    } catch (err) {
      return Promise.reject(err as Error);
    } finally {
      const d = process.cpuUsage(t0);
      this.inlineMs += (d.user + d.system) / 1000;
      this.inlineItems++;
      this.inlineWeight += weight;
    }
  }
}
