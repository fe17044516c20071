/**
 * `cdp run --workers N --workers-threshold MS`: the run's worker threads. One pool per run,
 * shared by the runner (pure stages' units) and the LLM client (the offline stand-ins); it starts
 * no thread until some stage's work is worth it, and is closed when the run ends.
 */
import { InvalidArgumentError } from 'commander';
import { ThreadPool } from '../threads/pool.ts';

export function workersOption(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1)
    throw new InvalidArgumentError(`expected a whole number ≥ 1 (1 computes on the main thread), got "${v}"`);
  return n;
}

export function thresholdOption(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`expected milliseconds ≥ 0, got "${v}"`);
  return n;
}

/** The run's pool: --workers, else the config's `workers`, else the machine's cores. */
export function runThreads(o: { workers?: number; workersThreshold?: number }, configWorkers: number | undefined): ThreadPool {
  const t = o.workersThreshold;
  const tuning = t === undefined ? {} : { coldMs: t, warmMs: Math.min(t, 200) };
  return new ThreadPool({ size: o.workers ?? configWorkers, tuning });
}
