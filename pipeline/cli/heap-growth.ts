/**
 * How far V8 lets a heap grow past what survived its last full collection before it collects
 * again. Left to itself V8 lets a heap grow to several times its live size: in a run at the
 * paper's size the main thread's heap reached 2.07 GB over 450 MB live and a worker's 0.89 GB over
 * 72 MB, so the run's peak RSS was mostly garbage not yet collected. At 25 % each heap stays
 * within 1.25× its live size, for more full collections (bench/RESULTS.md, the scale section,
 * gives the peak RSS and CPU with and without). V8's flags belong to the process: set before the
 * run starts a worker thread, this holds for the workers too.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 25;

export function limitHeapGrowth(percent = HEAP_GROWING_PERCENT): void {
  if (!Number.isInteger(percent) || percent < 1) throw new RangeError(`heap growth: expected a whole percent ≥ 1, got ${percent}`);
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
