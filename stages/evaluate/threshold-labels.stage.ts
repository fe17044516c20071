/**
 * Stage `threshold_labels` (paper §4.4, simulated): one unit per test case, one row per judged
 * pathway of that case (its step_scores rows): each reference step's best-match score and
 * whether the perturbation agent's plan says that match is correct (threshold-labels.ts), or why
 * the pathway is left out. No person labelled anything: every row says `simulated`.
 *
 * A case's labels depend on its scores, pathways and plans alone, so a new guideline labels only
 * its cases, and `threshold_analysis` reads these short vectors instead of every score matrix.
 */
import { rowStage } from '../../pipeline/stage.ts';
import { planIndex } from './agent-plans.ts';
import { simulatedStepLabels } from './threshold-labels.ts';

export const THRESHOLD_LABEL_COLUMNS = {
  setting: 'VARCHAR',
  judge: 'VARCHAR',
  model: 'VARCHAR',
  cdp_id: 'VARCHAR',
  /** Per reference step, C of its best-matched predicted step. */
  scores: 'DOUBLE[]',
  /** Per reference step, whether the plan maps that best match to it. */
  correct: 'BOOLEAN[]',
  /** Why the pathway has no labels (null when it has). */
  left_out: 'VARCHAR',
  simulated: 'BOOLEAN',
} as const;

export default rowStage({
  inputs: { test_cases: 'drives', step_scores: 'joined', predicted_pathways: 'joined', agent_plans: 'joined' },
  params: {},
  columns: THRESHOLD_LABEL_COLUMNS,
  // A failed case has no judged pathways: no row, and its failure is upstream's.
  seesFailedRows: true,
  // A function of the case's rows: units may run on worker threads.
  pure: true,
  run({ row, joined }) {
    if (row.error != null) return [];
    const labels = simulatedStepLabels(joined.step_scores!, joined.predicted_pathways!, planIndex(joined.agent_plans!));
    return labels.map((l) => ({ ...l, simulated: true }));
  },
});
