/**
 * Whether a model's server is reachable, as its calls find out: from the first "not there"
 * failure (connection refused or reset, 502, 503, 504) until any answer, the model is
 * unavailable, and its calls wait for it — together, for one budget counted from that first
 * failure, so a server that stays down costs the budget once, not once per call. While it waits,
 * one progress line per model says which model and since when, repeated at most every
 * PROGRESS_EVERY_MS; it says so again when the model answers, and when the budget runs out.
 */

/** How often the progress line of a model still unavailable is repeated. */
export const PROGRESS_EVERY_MS = 10_000;

/** "4 min 5 s", "12 s", "800 ms". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
}

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);

export class Availability {
  /** Wall-clock time of the first failure of the current outage; null while the server answers. */
  private since: number | null = null;
  private lastPrinted = -Infinity;
  private gaveUp = false;
  private waiting = 0;

  constructor(
    readonly model: string,
    private readonly budgetMs: number,
    private readonly progress: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** When the current outage began (ms since the epoch), or null. */
  get downSince(): number | null {
    return this.since;
  }

  /** The server answered (anything but "not there"): the outage, if any, is over. */
  up(): void {
    if (this.since === null) return;
    this.progress(`llm: ${this.model} is answering again after ${formatDuration(this.now() - this.since)} unavailable`);
    this.since = null;
    this.gaveUp = false;
    this.lastPrinted = -Infinity;
  }

  /**
   * A call found the server not there. Returns how long it may still wait for it (≤ 0: the
   * budget is spent and the call fails now).
   */
  down(reason: string): number {
    const t = this.now();
    this.since ??= t;
    const left = this.budgetMs - (t - this.since);
    if (left <= 0) {
      if (!this.gaveUp && this.budgetMs > 0)
        this.progress(
          `llm: ${this.model} still unavailable after ${formatDuration(this.budgetMs)} (since ${clock(this.since)} UTC): ${reason}; ` +
            'its calls fail as unavailable until it answers again',
        );
      this.gaveUp = true;
      return left;
    }
    if (t - this.lastPrinted >= PROGRESS_EVERY_MS) {
      this.lastPrinted = t;
      const others = this.waiting > 0 ? `; ${this.waiting + 1} calls waiting` : '';
      this.progress(
        `llm: ${this.model} unavailable since ${clock(this.since)} UTC (${formatDuration(t - this.since)}): ${reason}; ` +
          `waiting up to ${formatDuration(this.budgetMs)} for it${others}`,
      );
    }
    return left;
  }

  /** The sentence a call's failure gives once the budget is spent. */
  gaveUpSentence(reason: string): string {
    const since = this.since ?? this.now();
    const budget = `its wait budget is ${formatDuration(this.budgetMs)}`;
    return `${this.model} unavailable since ${clock(since)} UTC (for ${formatDuration(this.now() - since)}; ${budget}): ${reason}`;
  }

  /** Counts the calls sleeping before another attempt, for the progress line. */
  async sleep(ms: number): Promise<void> {
    this.waiting++;
    try {
      await new Promise((r) => setTimeout(r, ms));
    } finally {
      this.waiting--;
    }
  }
}
