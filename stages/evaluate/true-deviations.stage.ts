/**
 * Stage `true_deviations` (simulated ground truth): one unit per test case, one row per pathway
 * of that case that is usable and exactly its perturbation agent's plan (agent-plans.ts), with
 * the plan's true process deviations (perturb.ts definitions) and whether its conclusion was
 * deliberately wrong. Real models and other simulated agents have no plan: no row.
 *
 * A case's rows depend on its pathways and plans alone, so a new guideline computes only its
 * cases', and `deviation_profile` sums these short rows instead of reading every pathway's steps
 * and every plan.
 */
import { rowStage, type Row } from '../../pipeline/stage.ts';
import { planIndex, planMismatch, planOf } from './agent-plans.ts';

export const TRUE_DEVIATION_COLUMNS = {
  setting: 'VARCHAR',
  model: 'VARCHAR',
  cdp_id: 'VARCHAR',
  omission: 'INTEGER',
  redundancy: 'INTEGER',
  skipping: 'INTEGER',
  reversal: 'INTEGER',
  wrong_outcome: 'BOOLEAN',
  simulated: 'BOOLEAN',
} as const;

/** The rows of these pathways that are their agents' plans, in the pathways' order. */
export function trueDeviations(pathways: readonly Row[], plans: readonly Row[]): Row[] {
  const index = planIndex(plans);
  const out: Row[] = [];
  for (const p of pathways) {
    if (p.usable !== true) continue;
    const plan = planOf(index, String(p.model), String(p.cdp_id));
    if (!plan || planMismatch(plan, String(p.setting), (p.candidate as string[]) ?? [])) continue;
    const c = plan.deviations;
    out.push({
      setting: p.setting,
      model: p.model,
      cdp_id: p.cdp_id,
      omission: c.omission,
      redundancy: c.redundancy,
      skipping: c.skipping,
      reversal: c.reversal,
      wrong_outcome: plan.wrongOutcome,
      simulated: true,
    });
  }
  return out;
}

export default rowStage({
  inputs: { test_cases: 'drives', predicted_pathways: 'joined', agent_plans: 'joined' },
  params: {},
  columns: TRUE_DEVIATION_COLUMNS,
  // A failed case has no pathways: no row, and its failure is upstream's.
  seesFailedRows: true,
  // A function of the case's rows: units may run on worker threads.
  pure: true,
  run({ row, joined }) {
    if (row.error != null) return [];
    return trueDeviations(joined.predicted_pathways!, joined.agent_plans!);
  },
});
