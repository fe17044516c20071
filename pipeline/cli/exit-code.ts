/**
 * What `cdp run`'s exit code says about where the run stands (README, "The `cdp` command"):
 *
 * | code | meaning |
 * |---|---|
 * | 0 | every stage ran or was reused, and no failure row remains (a failure a stage keeps as its result, such as an unreadable answer, is a result) |
 * | 1 | a stage failed wholesale (its descendants did not run), or the warehouse could not be refreshed |
 * | 2 | refused before anything ran: a configuration problem, a bad `--set`, a store held by another run |
 * | 3 | the run is complete but failure rows remain (server, patient, … failures): `cdp run --retry-failed` asks again |
 * | 4 | nothing to evaluate: a stage that must have rows has none (`requiresRows`; e.g. QC left no test case) |
 *
 * When several apply the first of 1, 4, 3 wins: a stage that did not run makes the rest moot, and
 * a run with nothing to evaluate is not made right by retrying its failures.
 */
import type { RunSummary } from '../exec/executor.ts';

export const EXIT = { ok: 0, stageFailed: 1, refused: 2, failuresRemain: 3, nothingToEvaluate: 4 } as const;

/** Failure rows left in the run's artifacts, over every stage. */
export function failureRowsLeft(summary: Pick<RunSummary, 'stages'>): number {
  return summary.stages.reduce((n, s) => n + (s.rowsFailed ?? 0), 0);
}

export function runExitCode(summary: Pick<RunSummary, 'ok' | 'stages'>): number {
  if (!summary.ok) return EXIT.stageFailed;
  if (summary.stages.some((s) => s.empty)) return EXIT.nothingToEvaluate;
  return failureRowsLeft(summary) > 0 ? EXIT.failuresRemain : EXIT.ok;
}
