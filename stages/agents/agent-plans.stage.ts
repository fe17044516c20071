/**
 * Stage `agent_plans`: the ground truth of the simulated perturbation agents, as data. One row
 * per perturbation agent × case: the plan it follows on that case in both settings (planCase in
 * perturbation-agent.ts) — the steps it states, the questions it asks, the true mapping of each
 * predicted step to a reference step (null: redundant), its deviation counts (perturb.ts
 * definitions) and whether its conclusion is deliberately wrong.
 *
 * The evaluation's ground-truth stages (threshold_analysis, preference_agreement,
 * deviation_profile) read these rows as they read human label files; they never rebuild a plan.
 * Models that are not perturbation agents (real ones, the lexical walker, the patient) have no
 * plan and get no row. Cases with an error upstream are skipped; a case whose guideline has no
 * usable tree is planned without distractors or other conclusions, as the agent itself did.
 */
import { rowStage, z, type Row } from '../../pipeline/stage.ts';
import type { Cdp } from '../construct/types.ts';
import { treeOfRow } from '../tasks/unit-context.ts';
import { deviationsOf } from './perturb.ts';
import { planCase, questionsOf } from './perturbation-agent.ts';
import { isPerturbationName, profileFromName } from './perturbation-profile.ts';

export interface AgentPlansParams {
  /** Roster names of the simulated evaluated models; those that are perturbation agents get plans. */
  models: string[];
}

export const AGENT_PLAN_COLUMNS = {
  model: 'VARCHAR',
  cdp_id: 'VARCHAR',
  guideline_id: 'VARCHAR',
  steps: 'VARCHAR[]',
  questions: 'VARCHAR[]',
  mapping: 'INTEGER[]',
  m: 'INTEGER',
  conclusion: 'VARCHAR',
  wrong_outcome: 'BOOLEAN',
  omission: 'INTEGER',
  redundancy: 'INTEGER',
  skipping: 'INTEGER',
  reversal: 'INTEGER',
  simulated: 'BOOLEAN',
} as const;

/** One perturbation agent's plan for one case as a row; null for a case with an error upstream or no steps. */
export function agentPlanRow(model: string, c: Row, tree: Row | undefined): Row | null {
  if (c.error != null || !Array.isArray(c.steps)) return null;
  const cdp = c as unknown as Cdp;
  const plan = planCase(profileFromName(model), cdp, treeOfRow(tree) ?? undefined);
  const d = deviationsOf(plan.mapping, plan.m);
  return {
    model,
    cdp_id: cdp.cdp_id,
    guideline_id: cdp.guideline_id,
    steps: plan.steps,
    questions: questionsOf(plan),
    mapping: plan.mapping,
    m: plan.m,
    conclusion: plan.conclusion,
    wrong_outcome: plan.wrongOutcome,
    ...d,
    simulated: true,
  };
}

/** Every plan of these agents on these cases, agent by agent (the rows the stage writes, for tests and fixtures). */
export function agentPlanRows(models: readonly string[], cdps: readonly Row[], trees: readonly Row[]): Row[] {
  const treeOf = new Map(trees.map((t) => [String(t.guideline_id), t]));
  const agents = [...new Set(models)].filter(isPerturbationName).sort();
  return agents.flatMap((model) =>
    cdps.flatMap((c): Row[] => {
      const plan = agentPlanRow(model, c, treeOf.get(String(c.guideline_id)));
      return plan ? [plan] : [];
    }),
  );
}

/**
 * One unit per (case × simulated model), so a new case or a new agent computes only its plans.
 * The wiring crosses `models` in sorted order, giving the rows agent by agent as before; a model
 * that is no perturbation agent has no plan (no row). A case that failed upstream has none either
 * (`seesFailedRows`: no failure row is made for it; its failure is upstream's).
 */
export default rowStage<AgentPlansParams>({
  inputs: { cdps: 'drives', trees: 'joined' },
  params: { models: z.array(z.string()) },
  columns: AGENT_PLAN_COLUMNS,
  seesFailedRows: true,
  run({ row, cross, joined }, ctx) {
    if (typeof cross !== 'string') {
      const got = JSON.stringify(cross);
      throw new Error(`stage ${ctx.stage}: crosses param "models", the simulated evaluated models' names (got the element ${got})`);
    }
    if (!isPerturbationName(cross)) return [];
    // As a whole-table lookup by guideline_id would: the last tree of the guideline.
    const plan = agentPlanRow(cross, row, joined.trees.at(-1));
    return plan ? [plan] : [];
  },
});
