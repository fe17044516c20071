/**
 * Stage `cpg_rates`: every rate of rates.ts — model × judge × task (and their average) ×
 * grouping (overall, region, specialty, language, safety-critical) with n, correct, the failures
 * by kind and the case and guideline-cluster bootstrap CIs (`resamples`, `seed`, `level`: 10,000, 42, 0.95).
 * Every row records the bootstrap it was computed with (`resamples`, `seed`, `level`): the
 * reports, the leaderboard's paired bootstrap and the results card read them there.
 *
 * Partitioned by group: a group's rows depend only on the cpg_outcomes rows of its guidelines
 * (each row is in the overall group, its region's, specialty's and language's, and the safety
 * subset's when it holds a safety-critical item), so a guideline added recomputes the five groups
 * it is in and takes the others from the memo.
 */
import { tableStage, z, type Row } from '../../../pipeline/stage.ts';
import { GROUPINGS, TASKS, computeRates, groupKey, type GroupRef } from './rates.ts';
import { fromGuidelineOutcomes } from './guideline-outcomes.ts';

export interface CpgRatesParams {
  resamples: number;
  seed: number;
  level: number;
}

/** The groups a cpg_outcomes row's items are in, as partition keys (JSON of [grouping, group]). */
function groupsOfRow(r: Row): string[] {
  const item = { region: r.region as string | null, specialty: r.specialty as string | null, language: r.language as string | null };
  const keys = (['overall', 'region', 'specialty', 'language'] as const).map((g) => JSON.stringify([g, groupKey(g, item)]));
  if (String(r.safety).includes('t')) keys.push(JSON.stringify(['safety', groupKey('safety', { safety_critical: true })]));
  return keys;
}

const TASK_RANK = new Map([...TASKS, 'average'].map((t, k) => [t, k]));
const GROUPING_RANK = new Map(GROUPINGS.map((g, k) => [g, k]));
const compare = (a: unknown, b: unknown) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);

/** The order of computeRates' rows: by grouping, group, model, judge, task. */
function rateOrder(a: Row, b: Row): number {
  return (
    GROUPING_RANK.get(a.grouping as never)! - GROUPING_RANK.get(b.grouping as never)! ||
    compare(a.group, b.group) ||
    compare(a.model, b.model) ||
    compare(a.judge, b.judge) ||
    TASK_RANK.get(String(a.task))! - TASK_RANK.get(String(b.task))!
  );
}

export default tableStage<CpgRatesParams>({
  inputs: { cpg_outcomes: 'whole' },
  params: {
    resamples: z.int().min(2).max(1_000_000).default(10000),
    seed: z.int().default(42),
    level: z.number().gt(0).lt(1).default(0.95),
  },
  // A partition's rows are a function of its rows and the params: partitions may run on worker threads.
  pure: true,
  partition: { by: { cpg_outcomes: groupsOfRow }, order: rateOrder },
  columns: {
    model: 'VARCHAR',
    judge: 'VARCHAR',
    simulated: 'BOOLEAN',
    judge_simulated: 'BOOLEAN',
    task: 'VARCHAR',
    grouping: 'VARCHAR',
    group: 'VARCHAR',
    n: 'INTEGER',
    correct: 'DOUBLE',
    answer_failures: 'INTEGER',
    server_failures: 'INTEGER',
    unscored: 'INTEGER',
    missing_cases: 'INTEGER',
    incomplete: 'BOOLEAN',
    rate: 'DOUBLE',
    ci_low: 'DOUBLE',
    ci_high: 'DOUBLE',
    cluster_ci_low: 'DOUBLE',
    cluster_ci_high: 'DOUBLE',
    guidelines: 'INTEGER',
    few_guidelines: 'BOOLEAN',
    resamples: 'INTEGER',
    seed: 'INTEGER',
    level: 'DOUBLE',
  },
  run(inputs, ctx) {
    const { resamples, seed, level } = ctx.params;
    const { items, cells } = fromGuidelineOutcomes(inputs.cpg_outcomes!);
    // Run by partition: the one group given; called whole (no partition), every group.
    const only = ctx.partition !== undefined ? groupRef(ctx.partition) : undefined;
    const rows = computeRates(items, cells, { resamples, seed, level }, only);
    return rows.map((r) => ({ ...r, resamples, seed, level }));
  },
});

function groupRef(key: string): GroupRef {
  const [grouping, group] = JSON.parse(key) as [GroupRef['grouping'], string];
  return { grouping, group };
}
