/**
 * The cpg_rates rows as the CPGBench reports read them: typed, looked up by cell, with the
 * default judge (the first real judge of the run's order, else the simulated one:
 * stages/report/judges.ts) and the models in board order (real models first, each group by
 * its overall average, best first).
 */
import type { Row } from '../../../pipeline/stage.ts';
import { defaultJudge } from '../../report/judges.ts';
import type { ModelRef } from '../../roster/model-ref.ts';
import { TASKS, type RateRow, type Task } from '../results/rates.ts';

export const TASK_LABEL: Record<Task | 'average', string> = {
  content_detection: 'Content detection',
  title_grounding: 'Title grounding',
  adherence: 'Adherence',
  average: 'Average',
};
export const REPORT_TASKS = [...TASKS, 'average'] as const;

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : typeof x === 'bigint' ? Number(x) : null);

export function rateRows(rows: readonly Row[]): RateRow[] {
  return rows.map((r) => ({
    model: String(r.model),
    judge: String(r.judge),
    simulated: r.simulated === true,
    judge_simulated: r.judge_simulated === true,
    task: String(r.task) as RateRow['task'],
    grouping: String(r.grouping) as RateRow['grouping'],
    group: String(r.group),
    n: num(r.n) ?? 0,
    correct: num(r.correct) ?? 0,
    answer_failures: num(r.answer_failures) ?? 0,
    server_failures: num(r.server_failures) ?? 0,
    unscored: num(r.unscored) ?? 0,
    missing_cases: num(r.missing_cases) ?? 0,
    incomplete: r.incomplete === true,
    rate: num(r.rate) ?? NaN,
    ci_low: num(r.ci_low) ?? NaN,
    ci_high: num(r.ci_high) ?? NaN,
    cluster_ci_low: num(r.cluster_ci_low),
    cluster_ci_high: num(r.cluster_ci_high),
    guidelines: num(r.guidelines) ?? 0,
    few_guidelines: r.few_guidelines === true,
  }));
}

export type Lookup = (model: string, task: string, grouping: string, group: string) => RateRow | undefined;

/** Cells of one judge. */
export function lookup(rows: readonly RateRow[], judge: string | null): Lookup {
  const at = new Map(rows.filter((r) => r.judge === judge).map((r) => [JSON.stringify([r.model, r.task, r.grouping, r.group]), r]));
  return (model, task, grouping, group) => at.get(JSON.stringify([model, task, grouping, group]));
}

/** The report's judge: the first real LLM judge of the run's order present in the rows, else a simulated one (the specs' flags). */
export const reportJudge = (rows: readonly RateRow[], judges: readonly ModelRef[]) =>
  defaultJudge(
    rows.map((r) => r.judge),
    judges.map((j) => ({ name: j.name, kind: 'llm' as const, simulated: j.simulated })),
  );

/** Real models, then simulated ones; each by its overall average under `judge`, best first, then by name. */
export function boardOrder(rows: readonly RateRow[], judge: string | null): string[] {
  const at = lookup(rows, judge);
  const models = [...new Set(rows.filter((r) => r.judge === judge).map((r) => r.model))];
  const sim = (m: string) => rows.some((r) => r.model === m && r.simulated);
  const avg = (m: string) => at(m, 'average', 'overall', 'all')?.rate ?? -1;
  return models.sort((a, b) => Number(sim(a)) - Number(sim(b)) || avg(b) - avg(a) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Groups of a grouping, in the rows' order of first appearance (rates.ts sorts them). */
export const groupsOf = (rows: readonly RateRow[], grouping: string) => [
  ...new Set(rows.filter((r) => r.grouping === grouping).map((r) => r.group)),
];

/** 'all' (every model simulated), 'some' or 'none'. */
export function simulatedShare(rows: readonly RateRow[]): 'all' | 'some' | 'none' {
  const models = new Set(rows.map((r) => r.model));
  const sim = new Set(rows.filter((r) => r.simulated).map((r) => r.model));
  return models.size === 0 || sim.size === 0 ? 'none' : sim.size === models.size ? 'all' : 'some';
}

export const SIMULATED_TITLE = {
  all: ' — simulated stand-ins, not LLM results',
  some: ' — includes simulated stand-ins',
  none: '',
} as const;

/** The bootstrap settings the cpg_rates rows record (cpg-rates.stage.ts), which every statement of them reads. */
export interface RecordedBootstrap {
  resamples: number;
  seed: number;
  level: number;
}

/**
 * The one bootstrap the rows were computed with, for a statistic that must resample as they did
 * (the leaderboard's paired differences); null without rows. Rows of one cpg_rates artifact share
 * their stage's params, so rows that disagree or lack one come from somewhere else: an error.
 */
export function recordedBootstrap(rows: readonly Row[]): RecordedBootstrap | null {
  if (!rows.length) return null;
  const one = (column: keyof RecordedBootstrap) => {
    const values = [...new Set(rows.map((r) => num(r[column])))];
    if (values.length !== 1 || values[0] === null)
      throw new Error(
        `cpg_rates rows record ${values.length > 1 ? `several values of '${column}' (${values.join(', ')})` : `no '${column}'`}; the rows of one cpg_rates run share one bootstrap: run \`cdp --config cpgbench.config.ts run cpg_rates\``,
      );
    return values[0]!;
  };
  return { resamples: one('resamples'), seed: one('seed'), level: one('level') };
}
