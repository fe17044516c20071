/**
 * Ground truth of the simulated perturbation agents, read back for the evaluation: the plan an
 * agent followed on a case (planCase: its true mapping of predicted to reference steps, its
 * deviations), rebuilt from the agent's name, the case and the guideline's tree — the same
 * inputs the agent had, so no side channel. Real models have no such truth: `planOf` returns
 * null for any model that is not a perturbation agent.
 *
 * A plan is only a label for a pathway that is the plan: `planMatches` checks the candidate
 * has the plan's length (single-turn: one parsed step per planned step) and, in the multi-turn
 * setting, asks exactly the plan's questions (a doctor that could not place the case asks none).
 */
import type { Row } from '../../pipeline/stage.ts';
import type { Cdp, ReasoningTree } from '../construct/types.ts';
import { planCase, questionsOf, type PerturbationPlan } from '../agents/perturbation-agent.ts';
import { isPerturbationName, profileFromName } from '../agents/perturbation-profile.ts';

export interface PlanIndex {
  cdps: Map<string, Cdp>;
  trees: Map<string, ReasoningTree>;
}

export function planIndex(cdps: readonly Row[], trees: readonly Row[]): PlanIndex {
  const treeMap = new Map<string, ReasoningTree>();
  for (const t of trees) {
    if (t.error != null || t.valid === false || typeof t.tree_json !== 'string') continue;
    treeMap.set(String(t.guideline_id), JSON.parse(t.tree_json) as ReasoningTree);
  }
  return { cdps: new Map(cdps.filter((c) => c.error == null).map((c) => [String(c.cdp_id), c as unknown as Cdp])), trees: treeMap };
}

export function planOf(index: PlanIndex, model: string, cdpId: string): PerturbationPlan | null {
  if (!isPerturbationName(model)) return null;
  const cdp = index.cdps.get(cdpId);
  if (!cdp) return null;
  return planCase(profileFromName(model), cdp, index.trees.get(cdp.guideline_id));
}

/** Why the pathway is not the plan, or null when it is. */
export function planMismatch(plan: PerturbationPlan, setting: string, candidate: readonly string[]): string | null {
  if (candidate.length !== plan.steps.length) return `the pathway has ${candidate.length} steps, the plan ${plan.steps.length}`;
  if (setting === 'multi') {
    const asked = questionsOf(plan);
    const k = asked.findIndex((q, j) => q !== candidate[j]);
    if (k >= 0) return `question ${k + 1} differs from the plan's`;
  }
  return null;
}
