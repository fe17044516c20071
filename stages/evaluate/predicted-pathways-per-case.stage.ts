/**
 * Stage `predicted_pathways`, one unit per test case: the case's rows of both settings (every
 * model's single-turn prediction, then every model's dialogue), made by the same functions as the
 * whole-table stage (predicted-pathways.stage.ts, which documents the conventions). A new
 * guideline's cases, or one case's new predictions, compute only those units.
 *
 * The wiring uses this module when no predictions are imported; imports are held to the whole
 * test set at once (a model the run predicts, a second line for a case, a line for no test case),
 * so with imports the wiring uses the whole-table module. The rows are the same; their order is
 * case by case here, setting by setting there (each model's rows keep the test cases' order).
 * A test case that failed upstream gets the runner's upstream failure row.
 */
import { rowStage, type Row } from '../../pipeline/stage.ts';
import { PREDICTED_PATHWAY_COLUMNS, multiTurnPathway, singleTurnPathway } from './predicted-pathways.stage.ts';

/** One test case's pathways: its cdps and narratives rows as a lookup by cdp_id would find them (the last). */
export function casePathways(joined: Record<string, readonly Row[]>): Row[] {
  const cdp = joined.cdps!.filter((c) => c.error == null).at(-1);
  const narrative = joined.narratives!.at(-1);
  return [
    ...joined.predictions_single!.map((p) => singleTurnPathway(p, cdp, narrative)),
    ...joined.dialogues_multi!.map((d) => multiTurnPathway(d, cdp)),
  ];
}

export default rowStage({
  inputs: { test_cases: 'drives', predictions_single: 'joined', dialogues_multi: 'joined', cdps: 'joined', narratives: 'joined' },
  params: {},
  columns: PREDICTED_PATHWAY_COLUMNS,
  run({ joined }) {
    return casePathways(joined);
  },
});
