/**
 * What each stage cost when it last ran here: the seconds it held a job slot. The job slots weigh
 * their critical paths with it (pipeline/concurrency/job-slots.ts); it is a hint, in no key, so a
 * missing or damaged file only means every stage weighs the same.
 */
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from './atomic.ts';

export function readStageSeconds(file: string): Map<string, number> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return new Map();
  }
  const out = new Map<string, number>();
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
    for (const [stage, s] of Object.entries(parsed)) if (typeof s === 'number' && Number.isFinite(s) && s >= 0) out.set(stage, s);
  return out;
}

/** The last seconds of every stage: this run's where it ran a stage, the file's for the others. */
export function writeStageSeconds(file: string, before: ReadonlyMap<string, number>, ran: ReadonlyMap<string, number>): void {
  if (!ran.size) return;
  const merged = new Map(before);
  for (const [stage, s] of ran) merged.set(stage, Math.round(s * 1000) / 1000);
  const sorted = Object.fromEntries([...merged].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  // Not fsynced: losing it to a crash costs one run's scheduling, never a result.
  writeFileAtomic(file, JSON.stringify(sorted, null, 1) + '\n', { sync: false });
}
