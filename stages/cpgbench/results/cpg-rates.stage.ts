/**
 * Stage `cpg_rates`: every rate of rates.ts — model × judge × task (and their average) ×
 * grouping (overall, region, specialty, language, safety-critical) with n, correct, the failures
 * by kind and the case and guideline-cluster bootstrap CIs (`resamples`, `seed`, `level`: 10,000, 42, 0.95).
 * Every row records the bootstrap it was computed with (`resamples`, `seed`, `level`): the
 * reports, the leaderboard's paired bootstrap and the results card read them there.
 */
import { tableStage, z } from '../../../pipeline/stage.ts';
import { computeRates } from './rates.ts';
import { OUTCOME_PARAMS, cellsOf, itemsOf, type OutcomeParams } from './outcomes.ts';

export interface CpgRatesParams extends OutcomeParams {
  resamples: number;
  seed: number;
  level: number;
}

export const RESULT_INPUTS = {
  cpg_task_inputs: 'whole',
  cpg_recommendations: 'whole',
  cpg_safety: 'whole',
  cpg_detection_judgements: 'whole',
  cpg_adherence_judgements: 'whole',
} as const;

// Both tasks' judgements are read by the same columns.
const JUDGEMENT_COLUMNS = ['model', 'judge', 'task', 'recommendation_id', 'score', 'error', 'failure_kind', 'simulated', 'judge_simulated'];

export const RESULT_READS = {
  cpg_task_inputs: ['recommendation_id', 'guideline_id', 'language', 'error'],
  cpg_recommendations: ['recommendation_id', 'region', 'specialty', 'error'],
  cpg_safety: ['recommendation_id', 'safety_critical', 'error'],
  cpg_detection_judgements: JUDGEMENT_COLUMNS,
  cpg_adherence_judgements: JUDGEMENT_COLUMNS,
};

export default tableStage<CpgRatesParams>({
  inputs: RESULT_INPUTS,
  params: {
    ...OUTCOME_PARAMS,
    resamples: z.int().min(2).max(1_000_000).default(10000),
    seed: z.int().default(42),
    level: z.number().gt(0).lt(1).default(0.95),
  },
  reads: RESULT_READS,
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
    const rows = computeRates(itemsOf(inputs), cellsOf(inputs, ctx.params), { resamples, seed, level });
    return rows.map((r) => ({ ...r, resamples, seed, level }));
  },
});
