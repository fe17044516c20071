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
import { tableStage, z, type Row } from '../../pipeline/stage.ts';
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

export function agentPlanRows(models: readonly string[], cdps: readonly Row[], trees: readonly Row[]): Row[] {
  const treeOf = new Map(trees.map((t) => [String(t.guideline_id), t]));
  const agents = [...new Set(models)].filter(isPerturbationName).sort();
  const out: Row[] = [];
  for (const model of agents) {
    const profile = profileFromName(model);
    for (const c of cdps) {
      if (c.error != null || !Array.isArray(c.steps)) continue;
      const cdp = c as unknown as Cdp;
      const plan = planCase(profile, cdp, treeOfRow(treeOf.get(cdp.guideline_id)) ?? undefined);
      const d = deviationsOf(plan.mapping, plan.m);
      out.push({
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
      });
    }
  }
  return out;
}

export default tableStage<AgentPlansParams>({
  inputs: { cdps: 'whole', trees: 'whole' },
  params: { models: z.array(z.string()) },
  columns: AGENT_PLAN_COLUMNS,
  run({ cdps, trees }, ctx) {
    if (!Array.isArray(ctx.params.models)) {
      const got = JSON.stringify(ctx.params.models);
      throw new Error(`stage ${ctx.stage}: param "models" must list the simulated evaluated models' names (got ${got})`);
    }
    return agentPlanRows(ctx.params.models, cdps, trees);
  },
});
