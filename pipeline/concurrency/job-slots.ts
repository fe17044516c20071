/**
 * The run's job slots: at most `limit` stages run at once, and a freed slot goes to the waiting
 * stage with the most stages downstream of it (ties: the first to ask). First come, first served
 * would give a slot to a report leaf as readily as to the stage the rest of the run waits for
 * (at the paper's size, pathway_metrics waited behind threshold_analysis and run_facts while the
 * statistics after it could not start).
 */
export class JobSlots {
  private free: number;
  private readonly waiters: { priority: number; seq: number; resolve: () => void }[] = [];
  private seq = 0;

  constructor(
    readonly limit: number,
    /** A stage's priority: how many stages are downstream of it. */
    private readonly priorityOf: (stage: string) => number,
  ) {
    if (!(limit >= 1)) throw new Error(`jobs must be at least 1, got ${limit}`);
    this.free = limit;
  }

  acquire(stage: string): Promise<void> | void {
    if (this.free > 0 && !this.waiters.length) {
      this.free--;
      return;
    }
    return new Promise((resolve) => this.waiters.push({ priority: this.priorityOf(stage), seq: this.seq++, resolve }));
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

/** Per stage, how many of the selected stages are downstream of it (its descendants). */
export function downstreamCounts(
  names: Iterable<string>,
  successors: (name: string) => readonly string[],
  selected: ReadonlySet<string>,
): Map<string, number> {
  const below = new Map<string, Set<string>>();
  const visit = (n: string): Set<string> => {
    let s = below.get(n);
    if (s) return s;
    below.set(n, (s = new Set()));
    for (const c of successors(n)) {
      if (!selected.has(c)) continue;
      s.add(c);
      for (const d of visit(c)) s.add(d);
    }
    return s;
  };
  const out = new Map<string, number>();
  for (const n of names) out.set(n, visit(n).size);
  return out;
}
