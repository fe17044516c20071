/**
 * The client's one counters helper: a stage's counters and the run's totals change together,
 * in one place, so they cannot drift apart.
 */
import type { CallCounters } from './types.ts';

export function zeroCounters(): CallCounters {
  return { calls: 0, offline: 0, cached: 0, failed: 0, inputTokens: 0, outputTokens: 0, estimatedCostUsd: 0 };
}

export class Counters {
  private readonly stages = new Map<string, CallCounters>();
  private readonly all = zeroCounters();

  /** The live counters of a stage (created at zero); change them only through `add`. */
  of(stage: string): CallCounters {
    let c = this.stages.get(stage);
    if (!c) this.stages.set(stage, (c = zeroCounters()));
    return c;
  }

  /** Adds to a stage's counter and the total alike (no allocation: a hot path). */
  add(c: CallCounters, field: keyof CallCounters, n = 1): void {
    c[field] += n;
    this.all[field] += n;
  }

  /** Tokens used (or, estimating, that would be used) and their cost. */
  usage(c: CallCounters, inputTokens: number, outputTokens: number, costUsd: number): void {
    this.add(c, 'inputTokens', inputTokens);
    this.add(c, 'outputTokens', outputTokens);
    this.add(c, 'estimatedCostUsd', costUsd);
  }

  /** A copy of the totals over every stage. */
  total(): CallCounters {
    return { ...this.all };
  }
}
