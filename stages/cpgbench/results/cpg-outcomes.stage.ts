/**
 * Stage `cpg_outcomes`: the rates' inputs, guideline by guideline (guideline-outcomes.ts): per
 * guideline its benchmark items (cpg_task_inputs rows without an error, with their region,
 * specialty, language and safety selection) and every (model, judge) pair's outcome per task on
 * each (outcomes.ts: judged 1 or 0, or the kind of its failure). The pairs are those the rows name
 * and every pair of the run's roster a judge scores, so each guideline's row lists the same pairs.
 *
 * Partitioned by guideline: a guideline's row depends on its own rows of each input alone, so a
 * guideline added (or re-judged) computes its row and the others come from the memo. The whole
 * tables are read once here; cpg_rates, cpg_specialty_tests and the leaderboard read these rows.
 */
import { tableStage, type Row } from '../../../pipeline/stage.ts';
import { OUTCOME_PARAMS, cellsOf, itemsOf, withRosterCells, type OutcomeParams } from './outcomes.ts';
import { GUIDELINE_OUTCOME_COLUMNS, guidelineOutcomeRows } from './guideline-outcomes.ts';

export const RESULT_INPUTS = {
  cpg_task_inputs: 'whole',
  cpg_recommendations: 'whole',
  cpg_safety: 'whole',
  cpg_detection_judgements: 'whole',
  cpg_adherence_judgements: 'whole',
} as const;

// Both tasks' judgements are read by the same columns.
const JUDGEMENT_COLUMNS = [
  'model',
  'judge',
  'task',
  'recommendation_id',
  'guideline_id',
  'score',
  'error',
  'failure_kind',
  'simulated',
  'judge_simulated',
];

export const RESULT_READS = {
  cpg_task_inputs: ['recommendation_id', 'guideline_id', 'language', 'error'],
  cpg_recommendations: ['recommendation_id', 'guideline_id', 'region', 'specialty', 'error'],
  cpg_safety: ['recommendation_id', 'guideline_id', 'safety_critical', 'error'],
  cpg_detection_judgements: JUDGEMENT_COLUMNS,
  cpg_adherence_judgements: JUDGEMENT_COLUMNS,
};

// Every row of these inputs names its guideline (a runner's failure row copies it from the driving row).
const byGuideline = (r: Row) => String(r.guideline_id);

export default tableStage<OutcomeParams>({
  inputs: RESULT_INPUTS,
  params: OUTCOME_PARAMS,
  reads: RESULT_READS,
  // A function of its rows and the roster: partitions may run on worker threads.
  pure: true,
  partition: {
    by: Object.fromEntries(Object.keys(RESULT_INPUTS).map((name) => [name, byGuideline])),
    order: (a, b) => (String(a.guideline_id) < String(b.guideline_id) ? -1 : String(a.guideline_id) > String(b.guideline_id) ? 1 : 0),
  },
  columns: GUIDELINE_OUTCOME_COLUMNS,
  run(inputs, ctx) {
    return guidelineOutcomeRows(itemsOf(inputs), withRosterCells(cellsOf(inputs, ctx.params), ctx.params));
  },
});
