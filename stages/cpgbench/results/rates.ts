/**
 * CPGBench's rates (§2.3: "the number of correctly identified recommendations/titles divided by
 * the overall numbers belonging to certain country/region/international institute/medical
 * specialty"), per model × judge × task × grouping, with the counts beside them and two 95% CIs.
 *
 * - The denominator is every benchmark item of the group (a recommendation with a valid
 *   conversation), under the project's failure policy ('worst', stages/evaluate/failure-policy.ts):
 *   an answer failure (the model answered nothing) and a missing judgement count as not correct
 *   and stay in n; a server failure (no answer exists) and an unscored item (its judge failed)
 *   leave n, since a retry can still make them results, and the row is `incomplete`. Every kind
 *   is counted beside n (`answer_failures`, `server_failures`, `unscored`, `missing_cases`), so no
 *   item leaves the denominator silently.
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
import { clusterBootstrapMany, type BootstrapOptions, type ClusterBootstrapResult } from '../../stats/bootstrap.ts';
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

/** An item's outcome for one task: judged 1 or 0, or the kind of its failure. */
export type Outcome = 0 | 1 | 'answer' | 'server' | 'unscored';

/** One (model, judge) pair's outcome per task and item (an item without one is missing). */
export interface CellOutcomes {
  model: string;
  judge: string;
  simulated: boolean;
  /** The judge's roster flag. */
  judge_simulated: boolean;
  outcomes: Record<Task, ReadonlyMap<string, Outcome>>;
}

export interface RateRow {
  model: string;
  judge: string;
  simulated: boolean;
  judge_simulated: boolean;
  task: Task | 'average';
  grouping: Grouping;
  group: string;
  /** Items in the rate: the group's, but those with a server failure or unscored. */
  n: number;
  correct: number;
  answer_failures: number;
  server_failures: number;
  unscored: number;
  missing_cases: number;
  /** Server failures or unscored items left the rate: a retry may still change it. */
  incomplete: boolean;
  rate: number;
  ci_low: number;
  ci_high: number;
  cluster_ci_low: number | null;
  cluster_ci_high: number | null;
  guidelines: number;
  few_guidelines: boolean;
}

const UNKNOWN = '(unknown)';

/** The group of `grouping` an item is in (null: in none, as a not safety-critical item of the safety subset). */
export function groupKey(
  grouping: Grouping,
  i: Partial<Pick<Item, 'region' | 'specialty' | 'language' | 'safety_critical'>>,
): string | null {
  switch (grouping) {
    case 'overall':
      return 'all';
    case 'safety':
      return i.safety_critical === true ? SAFETY_GROUP : null;
    default:
      return i[grouping] ?? UNKNOWN;
  }
}

/** The groups of each grouping, each with its items (sorted by id, so resamples never depend on row order). */
export function groupItems(items: readonly Item[]): { grouping: Grouping; group: string; items: Item[] }[] {
  const sorted = [...items].sort((a, b) =>
    a.recommendation_id < b.recommendation_id ? -1 : a.recommendation_id > b.recommendation_id ? 1 : 0,
  );
  const out: { grouping: Grouping; group: string; items: Item[] }[] = [{ grouping: 'overall', group: 'all', items: sorted }];
  const by = (grouping: Grouping) => {
    const groups = new Map<string, Item[]>();
    for (const i of sorted) {
      const k = groupKey(grouping, i);
      if (k === null) continue;
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k)!.push(i);
    }
    for (const [group, list] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) out.push({ grouping, group, items: list });
  };
  for (const grouping of GROUPINGS.slice(1)) by(grouping);
  return out;
}

interface Column {
  cell: CellOutcomes;
  task: Task | 'average';
  /** The values of the items in the rate. */
  values: Float64Array;
  /** Their guidelines' cluster labels. */
  clusters: Int32Array;
  correct: number;
  counts: Record<'answer' | 'server' | 'unscored' | 'missing', number>;
  /** Distinct guidelines among the clusters. */
  guidelines: number;
}

// An outcome coded over the sorted items: 1 or 0, or a failure kind.
const ANSWER = -1,
  SERVER = -2,
  UNSCORED = -3,
  MISSING = -4;
const CODE: Record<string, number> = { answer: ANSWER, server: SERVER, unscored: UNSCORED };
function codes(outcomes: ReadonlyMap<string, Outcome>, items: readonly Item[]): Int8Array {
  return Int8Array.from(items, (i) => {
    const o = outcomes.get(i.recommendation_id);
    return o === undefined ? MISSING : typeof o === 'number' ? o : CODE[o]!;
  });
}

/** A task's (or the average's) values over one group: failures scored by kind, outstanding items left out. */
function column(cell: CellOutcomes, coded: readonly Int8Array[], task: Task | 'average', at: Int32Array, clusterOf: Int32Array): Column {
  const tasks = task === 'average' ? [0, 1, 2] : [TASKS.indexOf(task)];
  const values: number[] = [];
  const clusters: number[] = [];
  const counts = { answer: 0, server: 0, unscored: 0, missing: 0 };
  let correct = 0;
  for (let k = 0; k < at.length; k++) {
    let sum = 0,
      server = false,
      unscored = false,
      answer = false,
      missing = false;
    for (const t of tasks) {
      const o = coded[t]![at[k]!]!;
      if (o === SERVER) server = true;
      else if (o === UNSCORED) unscored = true;
      else if (o === ANSWER) answer = true;
      else if (o === MISSING) missing = true;
      else sum += o;
    }
    if (server || unscored) {
      counts[server ? 'server' : 'unscored']++;
      continue;
    }
    if (answer) counts.answer++;
    if (missing) counts.missing++;
    const v = sum / tasks.length;
    values.push(v);
    clusters.push(clusterOf[k]!);
    if (task !== 'average' && v === 1) correct++;
  }
  const ids = Int32Array.from(clusters);
  return { cell, task, values: Float64Array.from(values), clusters: ids, correct, counts, guidelines: new Set(ids).size };
}

/** One group of a grouping: the unit a rate row is computed over (and cpg_rates' partition). */
export interface GroupRef {
  grouping: Grouping;
  group: string;
}

/**
 * Every rate row: cells × tasks (and their average) × groups; of the group `only` alone when
 * given. A group's rows depend only on its own items and the cells' outcomes on them, so the rows
 * of `only` computed from any superset of its items are the rows a call over every item gives.
 */
export function computeRates(
  items: readonly Item[],
  cells: readonly CellOutcomes[],
  opts: BootstrapOptions = {},
  only?: GroupRef,
): RateRow[] {
  const out: RateRow[] = [];
  if (items.length === 0) return out;
  const groups = groupItems(items);
  const all = groups[0]!.items;
  const index = new Map(all.map((i, k) => [i.recommendation_id, k]));
  const coded = cells.map((cell) => TASKS.map((t) => codes(cell.outcomes[t], all)));
  for (const g of only ? groups.filter((x) => x.grouping === only.grouping && x.group === only.group) : groups) {
    const at = Int32Array.from(g.items, (i) => index.get(i.recommendation_id)!);
    const labels = new Map<string, number>();
    const clusterOf = Int32Array.from(
      g.items,
      (i) => labels.get(i.guideline_id) ?? labels.set(i.guideline_id, labels.size).get(i.guideline_id)!,
    );
    const columns = cells.flatMap((cell, c) => [...TASKS, 'average' as const].map((t) => column(cell, coded[c]!, t, at, clusterOf)));
    const clusterCis = clusterCisOf(columns, opts);
    for (const c of columns) out.push(rateRow(c, g, clusterCis.get(c) ?? null, opts));
  }
  return out;
}

/**
 * The guideline-cluster CIs of a group's columns of two guidelines or more. Columns over the same
 * guideline sequence (every column without a server failure or an unscored item) share one call,
 * so their cluster sums share the resampling passes (resample-plan.ts, four vectors a pass); each
 * vector's sums do not depend on the others in the call, so the CIs are those of one call each.
 */
function clusterCisOf(columns: readonly Column[], opts: BootstrapOptions): Map<Column, ClusterBootstrapResult> {
  const batches = new Map<string, Column[]>();
  for (const c of columns) {
    if (c.guidelines < 2) continue;
    // A column without an item left out has the group's own sequence: the common case, keyed at no cost.
    const key = c.counts.server + c.counts.unscored === 0 ? 'complete' : c.clusters.join(',');
    if (!batches.has(key)) batches.set(key, []);
    batches.get(key)!.push(c);
  }
  const out = new Map<Column, ClusterBootstrapResult>();
  for (const batch of batches.values()) {
    const cis = clusterBootstrapMany(
      batch.map((c) => c.values),
      batch[0]!.clusters,
      opts,
    );
    batch.forEach((c, k) => out.set(c, cis[k]!));
  }
  return out;
}

function rateRow(c: Column, g: GroupRef, cluster: ClusterBootstrapResult | null, opts: BootstrapOptions): RateRow {
  const n = c.values.length;
  // Values are 0/1 (the average in thirds): the case bootstrap by level counts (discrete-bootstrap.ts).
  const cases = n ? discreteBootstrap(c.values, opts) : null;
  const guidelines = c.guidelines;
  const sum = c.values.reduce((s, x) => s + x, 0);
  return {
    model: c.cell.model,
    judge: c.cell.judge,
    simulated: c.cell.simulated,
    judge_simulated: c.cell.judge_simulated,
    task: c.task,
    grouping: g.grouping,
    group: g.group,
    n,
    correct: c.task === 'average' ? sum : c.correct,
    answer_failures: c.counts.answer,
    server_failures: c.counts.server,
    unscored: c.counts.unscored,
    missing_cases: c.counts.missing,
    incomplete: c.counts.server + c.counts.unscored > 0,
    rate: cases ? cases.mean : NaN,
    ci_low: cases ? cases.ciLow : NaN,
    ci_high: cases ? cases.ciHigh : NaN,
    cluster_ci_low: cluster?.ciLow ?? null,
    cluster_ci_high: cluster?.ciHigh ?? null,
    guidelines,
    few_guidelines: guidelines < MIN_RELIABLE_GUIDELINES,
  };
}
