/** `cdp run --json`: one object with each stage's outcome. */
import type { RunSummary, StageResult } from '../exec/executor.ts';
import { outstandingKinds } from './run-report.ts';
import { runExitCode } from './exit-code.ts';

export function jsonSummary(s: RunSummary): string {
  const stages = s.stages.map((r: StageResult) => ({
    stage: r.stage,
    status: r.status,
    rowsComputed: r.rowsComputed,
    rowsReused: r.rowsReused,
    rowsFailed: r.rowsFailed,
    llmCalls: r.llmCalls,
    llmCached: r.llmCached,
    counters: r.counters,
    seconds: r.seconds,
    ...(r.reasons ? { reasons: r.reasons } : {}),
    ...(r.error ? { error: r.error } : {}),
    ...(r.failureReasons ? { failureReasons: r.failureReasons } : {}),
    ...(r.failureKinds ? { failureKinds: r.failureKinds } : {}),
    ...(r.covered ? { covered: r.covered } : {}),
    ...(r.empty ? { empty: r.empty } : {}),
    ...(r.partitions ? { partitions: r.partitions } : {}),
  }));
  return JSON.stringify({ stages, ok: s.ok, outstanding: outstandingKinds(s.stages), exitCode: runExitCode(s), threads: s.threads }) + '\n';
}
