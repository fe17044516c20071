/**
 * The run's job slots: at most `limit` stages run at once, and a freed slot goes to the waiting
 * stage of the highest priority (ties: the first to ask). The executor's priority is a stage's
 * critical path (`criticalPaths`): the longest chain of stages it leads to, each weighed by what it
 * cost when it last ran, as ninja schedules by its build log. First come, first served would give a
 * slot to a report leaf as readily as to the stage the rest of the run waits for (at the paper's
 * size, pathway_metrics waited behind threshold_analysis and run_facts while the statistics after
 * it could not start), and a count of the stages below left the simulated raters' pairs, whose one
 * successor is a long statistic, behind stages that feed only quick reports.
 */
export class JobSlots {
  private free: number;
  private readonly waiters: { priority: number; seq: number; resolve: () => void }[] = [];
  private seq = 0;

  constructor(
    readonly limit: number,
    /** A stage's priority: the higher, the sooner it gets a freed slot. */
    private readonly priorityOf: (stage: string) => number,
  ) {
    if (!(limit >= 1)) throw new Error(`jobs must be at least 1, got ${limit}`);
    this.free = limit;
  }

  acquire(stage: string, priority = this.priorityOf(stage)): Promise<void> | void {
    if (this.free > 0 && !this.waiters.length) {
      this.free--;
      return;
    }
    return new Promise((resolve) => this.waiters.push({ priority, seq: this.seq++, resolve }));
  }

  /**
   * The caller's slot lent out while it waits for `work` done elsewhere (a statistic's partitions
   * on the worker pool: the main thread is free, and the stages that only wait on the pool used to
   * keep the cheap ones that need it waiting), then taken back before any stage that has not
   * started: the caller holds its inputs, and finishing it lets them go.
   */
  async away<T>(work: Promise<T>): Promise<T> {
    this.release();
    try {
      return await work;
    } finally {
      await this.acquire('', Infinity);
    }
  }

  release(): void {
    if (!this.waiters.length) {
      this.free++;
      return;
    }
    let best = 0;
    for (let i = 1; i < this.waiters.length; i++) {
      const w = this.waiters[i]!,
        b = this.waiters[best]!;
      if (w.priority > b.priority || (w.priority === b.priority && w.seq < b.seq)) best = i;
    }
    this.waiters.splice(best, 1)[0]!.resolve();
  }
}

/**
 * Per stage, its weight plus the heaviest chain of selected stages below it: how long the run
 * goes on after the stage starts if nothing else held it up. A stage not weighed (it never ran
 * here) weighs `unknown`.
 */
export function criticalPaths(
  names: Iterable<string>,
  successors: (name: string) => readonly string[],
  selected: ReadonlySet<string>,
  weightOf: (name: string) => number | undefined,
  unknown = 1,
): Map<string, number> {
  const path = new Map<string, number>();
  const visit = (n: string): number => {
    const known = path.get(n);
    if (known !== undefined) return known;
    let below = 0;
    for (const c of successors(n)) if (selected.has(c)) below = Math.max(below, visit(c));
    const w = weightOf(n);
    const total = (w !== undefined && Number.isFinite(w) && w >= 0 ? w : unknown) + below;
    path.set(n, total);
    return total;
  };
  const out = new Map<string, number>();
  for (const n of names) out.set(n, visit(n));
  return out;
}
