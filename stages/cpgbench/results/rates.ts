/**
 * CPGBench's rates (§2.3: "the number of correctly identified recommendations/titles divided by
 * the overall numbers belonging to certain country/region/international institute/medical
 * specialty"), per model × judge × task × grouping, with the counts beside them and two 95% CIs.
 *
 * - The denominator is every benchmark item of the group: a recommendation with a valid
 *   conversation. An item whose answer or judgement failed, or that has no judgement at all, is
 *   counted as not correct and as a failure (`failures`, of which `missing` had no row): it never
 *   leaves the denominator silently. `rate_scored` is the rate over the items judged.
 * - Tasks: content_detection (Prompt 12), title_grounding (13), adherence (14), and `average`,
 *   the mean of the three per item, so its rate is the average of the three rates (Table 1's
 *   "Average") and its CIs come from the same resamples.
 * - Groupings: overall, region, specialty, language, and the safety-critical subset (Table 3).
 * - CIs: the case bootstrap over the group's items (drawn as level counts, which is exact for 0/1
 *   values and independent of n: stages/stats/discrete-bootstrap.ts), and the cluster bootstrap
 *   over its guidelines (items of one guideline share its difficulty, stages/stats/bootstrap.ts);
 *   the cluster CI is null with one guideline and flagged `few_guidelines` under
 *   MIN_RELIABLE_GUIDELINES.
 */
import { clusterBootstrapMany, type BootstrapOptions } from '../../stats/bootstrap.ts';
import { discreteBootstrap } from '../../stats/discrete-bootstrap.ts';

export const TASKS = ['content_detection', 'title_grounding', 'adherence'] as const;
export type Task = (typeof TASKS)[number];
export const GROUPINGS = ['overall', 'region', 'specialty', 'language', 'safety'] as const;
export type Grouping = (typeof GROUPINGS)[number];
export const MIN_RELIABLE_GUIDELINES = 10;
export const SAFETY_GROUP = 'safety-critical';

export interface Item {
  recommendation_id: string;
  guideline_id: string;
  region: string | null;
  specialty: string | null;
  language: string | null;
  safety_critical: boolean | null;
}

/** One (model, judge) pair's outcome per task and item: 1, 0, or null for a failure. */
export interface CellOutcomes {
  model: string;
  judge: string;
  simulated: boolean;
  outcomes: Record<Task, ReadonlyMap<string, 0 | 1 | null>>;
}

export interface RateRow {
  model: string;
  judge: string;
  simulated: boolean;
  task: Task | 'average';
  grouping: Grouping;
  group: string;
  n: number;
  correct: number;
  failures: number;
  missing: number;
  rate: number;
  rate_scored: number | null;
  ci_low: number;
  ci_high: number;
  cluster_ci_low: number | null;
  cluster_ci_high: number | null;
  guidelines: number;
  few_guidelines: boolean;
}

const UNKNOWN = '(unknown)';

/** The groups of each grouping, each with its items (sorted by id, so resamples never depend on row order). */
export function groupItems(items: readonly Item[]): { grouping: Grouping; group: string; items: Item[] }[] {
  const sorted = [...items].sort((a, b) =>
    a.recommendation_id < b.recommendation_id ? -1 : a.recommendation_id > b.recommendation_id ? 1 : 0,
  );
  const out: { grouping: Grouping; group: string; items: Item[] }[] = [{ grouping: 'overall', group: 'all', items: sorted }];
  const by = (grouping: Grouping, key: (i: Item) => string | null) => {
    const groups = new Map<string, Item[]>();
    for (const i of sorted) {
      const k = key(i);
      if (k === null) continue;
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k)!.push(i);
    }
    for (const [group, list] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) out.push({ grouping, group, items: list });
  };
  by('region', (i) => i.region ?? UNKNOWN);
  by('specialty', (i) => i.specialty ?? UNKNOWN);
  by('language', (i) => i.language ?? UNKNOWN);
  by('safety', (i) => (i.safety_critical === true ? SAFETY_GROUP : null));
  return out;
}

interface Column {
  cell: CellOutcomes;
  task: Task | 'average';
  values: Float64Array;
  correct: number;
  failures: number;
  missing: number;
  /** Σ values over the items without a failure. */
  scoredSum: number;
}

/** A task's outcomes over the sorted items: 1, 0, FAILED (null) or MISSING (no row). */
const FAILED = -1,
  MISSING = -2;
function codes(outcomes: ReadonlyMap<string, 0 | 1 | null>, items: readonly Item[]): Int8Array {
  return Int8Array.from(items, (i) => {
    const o = outcomes.get(i.recommendation_id);
    return o === undefined ? MISSING : o === null ? FAILED : o;
  });
}

function column(cell: CellOutcomes, coded: readonly Int8Array[], task: Task | 'average', at: Int32Array): Column {
  const values = new Float64Array(at.length);
  const tasks = task === 'average' ? [0, 1, 2] : [TASKS.indexOf(task)];
  let correct = 0,
    failures = 0,
    missing = 0,
    scoredSum = 0;
  for (let k = 0; k < at.length; k++) {
    let sum = 0,
      failed = false,
      absent = false;
    for (const t of tasks) {
      const o = coded[t]![at[k]!]!;
      if (o === MISSING) absent = true;
      if (o < 0) failed = true;
      else sum += o;
    }
    values[k] = sum / tasks.length;
    if (failed) failures++;
    else scoredSum += values[k]!;
    if (absent) missing++;
    if (task !== 'average' && values[k] === 1) correct++;
  }
  return { cell, task, values, correct, failures, missing, scoredSum };
}

/** Every rate row: cells × tasks (and their average) × groups. */
export function computeRates(items: readonly Item[], cells: readonly CellOutcomes[], opts: BootstrapOptions = {}): RateRow[] {
  const out: RateRow[] = [];
  if (items.length === 0) return out;
  const groups = groupItems(items);
  const all = groups[0]!.items;
  const index = new Map(all.map((i, k) => [i.recommendation_id, k]));
  const coded = cells.map((cell) => TASKS.map((t) => codes(cell.outcomes[t], all)));
  for (const g of groups) {
    const at = Int32Array.from(g.items, (i) => index.get(i.recommendation_id)!);
    const columns = cells.flatMap((cell, c) => [...TASKS, 'average' as const].map((t) => column(cell, coded[c]!, t, at)));
    if (!columns.length) continue;
    const labels = new Map<string, number>();
    const clusters = Int32Array.from(
      g.items,
      (i) => labels.get(i.guideline_id) ?? labels.set(i.guideline_id, labels.size).get(i.guideline_id)!,
    );
    // Values are 0/1 (the average in thirds): the case bootstrap by level counts (discrete-bootstrap.ts).
    const cases = columns.map((c) => discreteBootstrap(c.values, opts));
    const guidelines = labels.size;
    const clustered =
      guidelines >= 2
        ? clusterBootstrapMany(
            columns.map((c) => c.values),
            clusters,
            opts,
          )
        : null;
    columns.forEach((c, k) => out.push(rateRow(c, g, cases[k]!, clustered?.[k] ?? null, guidelines)));
  }
  return out;
}

function rateRow(
  c: Column,
  g: { grouping: Grouping; group: string; items: Item[] },
  ci: { mean: number; ciLow: number; ciHigh: number },
  cluster: { ciLow: number; ciHigh: number } | null,
  guidelines: number,
): RateRow {
  const n = g.items.length;
  const scored = n - c.failures;
  const sum = c.values.reduce((s, x) => s + x, 0);
  return {
    model: c.cell.model,
    judge: c.cell.judge,
    simulated: c.cell.simulated,
    task: c.task,
    grouping: g.grouping,
    group: g.group,
    n,
    correct: c.task === 'average' ? sum : c.correct,
    failures: c.failures,
    missing: c.missing,
    rate: ci.mean,
    rate_scored: scored > 0 ? c.scoredSum / scored : null,
    ci_low: ci.ciLow,
    ci_high: ci.ciHigh,
    cluster_ci_low: cluster?.ciLow ?? null,
    cluster_ci_high: cluster?.ciHigh ?? null,
    guidelines,
    few_guidelines: guidelines < MIN_RELIABLE_GUIDELINES,
  };
}
