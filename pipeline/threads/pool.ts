/**
 * A pool of worker threads for pure, CPU-bound functions (a pure stage's units, the offline
 * stand-ins' answers). The main thread plans, reads and commits; a worker only computes. Items
 * are sent in batches, at most `IN_FLIGHT` batches per worker, so what is in flight is bounded
 * by workers × IN_FLIGHT × batch whatever the queue holds. Workers start when the first task
 * judges its work worth them (task.ts), not before: a run with little to compute never pays for
 * them. A worker that dies is replaced and its batches are sent again, item by item, so an item
 * that kills its worker fails alone (with the reason) and the others are computed.
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { IN_FLIGHT, MAX_BATCH, MAX_REFS, rethrown, type FromWorker, type Pending, type Submitter, type ToWorker } from './protocol.ts';
import { TaskRunner, type TaskSpec, type TaskTuning } from './task.ts';

export interface PoolOptions {
  /** Worker threads; 1 (or less) runs every task inline on the main thread. Default: os.availableParallelism(). */
  size?: number;
  /** Replacements of dead workers before the pool gives up (every pending item then fails). Default 4 × size. */
  maxRestarts?: number;
  /** Defaults of every task's tuning (see TaskTuning). */
  tuning?: Partial<TaskTuning>;
}

interface Slot {
  worker: Worker;
  batches: Map<number, Pending[]>;
  tasks: Set<number>;
  dead: boolean;
  /** Holds an item sent alone: nothing else is sent to it until that item is back. */
  exclusive: boolean;
  /** The shared values (Pending.refs) it holds, by task, least recently sent first. */
  refs: Map<number, Map<number, true>>;
}

/**
 * Of the parent's execArgv, the profiler's flags with their values (`node --cpu-prof
 * --cpu-prof-dir DIR bin/cdp.mjs run` profiles every worker too): `--import tsx` or `--test` mean
 * nothing to a worker (its entry registers tsx).
 */
export function profilerArgs(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  execArgv.forEach((a, i) => {
    if (!/^--(cpu|heap)-prof/.test(a)) return;
    out.push(a);
    // A flag that takes a value, given apart from it ("--cpu-prof-dir DIR").
    const next = execArgv[i + 1];
    if (/^--(cpu|heap)-prof-(dir|name|interval)$/.test(a) && next !== undefined) out.push(next);
  });
  return out;
}

export class ThreadPool implements Submitter {
  readonly size: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private readonly runners = new Map<number, TaskRunner>();
  /** Items computed by released tasks, on either side (stats). */
  private readonly doneCounts = { inline: 0, threaded: 0 };
  private readonly maxRestarts: number;
  private readonly tuning: Partial<TaskTuning>;
  private restarts = 0;
  private spawned = 0;
  private nextTask = 1;
  private nextBatch = 1;
  private nextRef = 1;
  private readonly refIds = new WeakMap<object, number>();
  private flushing = false;
  private closed = false;
  private brokenBy: Error | null = null;
  /** Shared values (Pending.refs) posted to workers, for the tests and the benchmark: each crosses once per worker it is needed on, unless dropped. */
  refsSent = 0;
  /** Milliseconds from the first worker's spawn to its first message (ready), for the benchmark. */
  startupMs: number | null = null;

  constructor(opts: PoolOptions = {}) {
    const size = opts.size ?? availableParallelism();
    if (!Number.isInteger(size) || size < 1)
      throw new Error(`workers must be a whole number ≥ 1 (1 runs everything on the main thread), got ${opts.size}`);
    this.size = size;
    this.maxRestarts = opts.maxRestarts ?? 4 * size;
    this.tuning = opts.tuning ?? {};
  }

  /** Whether tasks may go to worker threads at all (size > 1). */
  get threaded(): boolean {
    return this.size > 1 && !this.closed;
  }

  /** Whether the workers are running already (a task then needs less work to use them). */
  get started(): boolean {
    return this.slots.length > 0;
  }

  /** Items worth having in flight for one task so every worker stays busy. */
  get width(): number {
    return this.threaded ? this.size * IN_FLIGHT * MAX_BATCH : 1;
  }

  /** A task: one function over many items. Close it when its items are done (its shared value is released). */
  task<I, O>(spec: TaskSpec, tuning: Partial<TaskTuning> = {}): TaskRunner<I, O> {
    const id = this.nextTask++;
    const runner = new TaskRunner<I, O>(this, id, spec, { ...this.tuning, ...tuning });
    this.runners.set(id, runner as TaskRunner);
    return runner;
  }

  /** Queues an item for the workers (TaskRunner's threaded path). */
  submit(p: Pending): void {
    if (this.brokenBy) return p.reject(this.brokenBy);
    if (this.closed) return p.reject(new Error('the worker pool is closed'));
    this.queue.push(p);
    if (!this.flushing) {
      this.flushing = true;
      // Items submitted in the same turn go out together.
      setImmediate(() => {
        this.flushing = false;
        this.dispatch();
      });
    }
  }

  /** Ends a task: its shared value is dropped by every worker that holds it. */
  release(task: number): void {
    const r = this.runners.get(task);
    if (r) {
      this.doneCounts.inline += r.counts.inline;
      this.doneCounts.threaded += r.counts.threaded;
    }
    this.runners.delete(task);
    for (const s of this.slots) {
      s.refs.delete(task);
      if (!s.dead && s.tasks.delete(task)) s.worker.postMessage({ type: 'release', task } satisfies ToWorker);
    }
  }

  /** What the pool did: its size, the workers it started (replacements included) and items by side. */
  stats(): { workers: number; started: number; restarts: number; inline: number; threaded: number } {
    let { inline, threaded } = this.doneCounts;
    for (const r of this.runners.values()) {
      inline += r.counts.inline;
      threaded += r.counts.threaded;
    }
    return { workers: this.size, started: this.spawned, restarts: this.restarts, inline, threaded };
  }

  /** Stops every worker; items still pending fail. The process can exit once this settles. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const stopped = new Error('the worker pool was closed before this item finished');
    for (const p of this.queue.splice(0)) p.reject(stopped);
    await Promise.all(
      this.slots.map(async (s) => {
        for (const batch of s.batches.values()) for (const p of batch) p.reject(stopped);
        s.batches.clear();
        s.dead = true;
        await s.worker.terminate();
      }),
    );
  }

  private dispatch(): void {
    if (!this.queue.length || this.closed) return;
    while (this.slots.filter((s) => !s.dead).length < this.size && this.restarts <= this.maxRestarts) this.spawn();
    const free = this.slots.filter((s) => !s.dead && s.batches.size < IN_FLIGHT);
    if (!free.length) return;
    const capacity = free.reduce((n, s) => n + IN_FLIGHT - s.batches.size, 0);
    for (const slot of free) {
      // An item sent alone (its batch's worker died) has its worker to itself: if it kills this
      // one too, nothing else is lost with it.
      while (slot.batches.size < IN_FLIGHT && this.queue.length && !slot.exclusive) {
        if (this.queue[0]!.alone && slot.batches.size) break;
        const batch = this.takeBatch(capacity);
        const sent = this.send(slot, batch);
        slot.exclusive = sent && batch[0]!.alone === true;
      }
    }
  }

  /** The next batch: items of the first queued item's task, an even share of the queue (at most its task's batch size). */
  private takeBatch(capacity: number): Pending[] {
    const first = this.queue[0]!;
    if (first.alone) return [this.queue.shift()!];
    const limit = Math.min(this.runners.get(first.task)?.batchSize ?? MAX_BATCH, Math.max(1, Math.ceil(this.queue.length / capacity)));
    const batch: Pending[] = [];
    for (let i = 0; i < this.queue.length && batch.length < limit;) {
      const p = this.queue[i]!;
      if (p.task === first.task && !p.alone) batch.push(...this.queue.splice(i, 1));
      else i++;
    }
    return batch;
  }

  private send(slot: Slot, batch: Pending[]): boolean {
    const task = batch[0]!.task;
    if (!slot.tasks.has(task)) {
      const r = this.runners.get(task);
      if (!r) {
        for (const p of batch) p.reject(new Error(`internal: task ${task} was released with items pending`));
        return false;
      }
      slot.tasks.add(task);
      slot.worker.postMessage({ type: 'shared', task, module: r.spec.module, fn: r.spec.fn, shared: r.spec.shared } satisfies ToWorker);
    }
    const id = this.nextBatch++;
    const refs = this.refsFor(slot, task, batch);
    try {
      slot.worker.postMessage({ type: 'batch', id, task, items: batch.map((p) => p.item), ...(refs ? { refs } : {}) } satisfies ToWorker);
    } catch (err) {
      // The worker got nothing: the values this batch brought are not there.
      for (const [ref] of refs?.values ?? []) slot.refs.get(task)?.delete(ref);
      this.refsSent -= refs?.values.length ?? 0;
      // Something in an item that structured clone refuses (a function, a class with private state).
      const why = `it could not be sent to a worker thread (${(err as Error).message}); a pure function's items are plain data`;
      for (const p of batch) p.reject(new Error(why));
      return false;
    }
    slot.batches.set(id, batch);
    slot.worker.ref();
    return true;
  }

  /**
   * The batch's shared values as the worker will hold them: each item's by id, the values the
   * worker lacks, and the ids it drops to stay within MAX_REFS (the least recently sent, never
   * one of this batch, which were all just moved to the back).
   */
  private refsFor(slot: Slot, task: number, batch: readonly Pending[]): Extract<ToWorker, { type: 'batch' }>['refs'] {
    if (!batch.some((p) => p.refs?.length)) return undefined;
    let held = slot.refs.get(task);
    if (!held) slot.refs.set(task, (held = new Map()));
    const values: [number, unknown][] = [];
    const of = batch.map((p) =>
      p.refs
        ? p.refs.map((v) => {
            let ref = this.refIds.get(v);
            if (ref === undefined) this.refIds.set(v, (ref = this.nextRef++));
            if (!held.delete(ref)) values.push([ref, v]);
            held.set(ref, true);
            return ref;
          })
        : null,
    );
    const drop: number[] = [];
    for (const ref of held.keys()) {
      if (held.size <= MAX_REFS) break;
      held.delete(ref);
      drop.push(ref);
    }
    this.refsSent += values.length;
    return { of, values, drop };
  }

  private spawn(): void {
    this.spawned++;
    const t0 = performance.now();
    const execArgv = profilerArgs(process.execArgv);
    const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), { execArgv });
    const slot: Slot = { worker, batches: new Map(), tasks: new Set(), dead: false, exclusive: false, refs: new Map() };
    this.slots.push(slot);
    worker.unref();
    worker.on('message', (m: FromWorker) => this.onMessage(slot, m, t0));
    worker.on('error', (err) => this.onDeath(slot, `it threw ${err.message}`));
    worker.on('exit', (code) => this.onDeath(slot, `it exited with code ${code}`));
  }

  private onMessage(slot: Slot, m: FromWorker, t0: number): void {
    if (m.type === 'ready') {
      this.startupMs ??= performance.now() - t0;
      return;
    }
    const batch = slot.batches.get(m.id);
    if (!batch) return;
    slot.batches.delete(m.id);
    slot.exclusive = false;
    if (!slot.batches.size) slot.worker.unref();
    if (m.type === 'task-error') for (const p of batch) p.reject(rethrown(m.error));
    else
      m.outcomes.forEach((o, i) => {
        const p = batch[i]!;
        if (o.ok) p.resolve(o.value);
        else p.reject(rethrown(o.error));
      });
    this.dispatch();
  }

  /** A dead worker's batches are sent again item by item; an item alone when its worker died fails with the reason. */
  private onDeath(slot: Slot, how: string): void {
    if (slot.dead) return;
    slot.dead = true;
    this.slots.splice(this.slots.indexOf(slot), 1);
    if (this.closed) return;
    this.restarts++;
    const retry: Pending[] = [];
    for (const batch of slot.batches.values()) {
      for (const p of batch) {
        if (p.alone) p.reject(new Error(`the worker thread computing it died (${how}); it is a failure of this item alone`));
        else retry.push({ ...p, alone: true });
      }
    }
    slot.batches.clear();
    if (this.restarts > this.maxRestarts) {
      this.brokenBy = new Error(
        `worker threads died ${this.restarts} times (last: ${how}); the run stops here — rerun with --workers 1 to compute on the main thread and see the error`,
      );
      for (const p of [...retry, ...this.queue.splice(0)]) p.reject(this.brokenBy);
      for (const s of this.slots) for (const b of s.batches.values()) for (const p of b) p.reject(this.brokenBy);
      return;
    }
    this.queue.unshift(...retry);
    this.dispatch();
  }
}
