/**
 * Simulated threshold labels (paper §4.4, Figure 4) from the perturbation agents' true step
 * mappings (the agent_plans table, agent-plans.ts): for each reference step i of a judged pathway, its best-matched predicted step j*
 * (the highest C[i][j]; ties to the earliest j), the score C[i][j*], and whether that match is
 * correct — the plan maps predicted step j* to reference step i. These stand in for the
 * paper's human labels; they are labels of a simulation, never of a person.
 *
 * Left out, with the reason counted: pathways of models that are not perturbation agents (no
 * ground truth), empty pathways (n = 0: no best match to label), and pathways that are not the
 * agent's plan (planMismatch).
 */
import type { Row } from '../../pipeline/stage.ts';
import { planMismatch, planOf, type AgentPlan, type PlanIndex } from './agent-plans.ts';

export interface StepLabel {
  setting: string;
  judge: string;
  model: string;
  cdp_id: string;
  reference_step: number;
  best_candidate: number;
  score: number;
  human: boolean;
}

/** Labels of one m×n matrix (rows of C) against a plan's mapping. */
export function labelsFromMapping(
  C: readonly (readonly number[])[],
  mapping: readonly (number | null)[],
): { reference_step: number; best_candidate: number; score: number; correct: boolean }[] {
  return C.flatMap((row, i) => {
    if (row.length === 0) return [];
    let best = 0;
    for (let j = 1; j < row.length; j++) if (row[j]! > row[best]!) best = j;
    return [{ reference_step: i, best_candidate: best, score: row[best]!, correct: mapping[best] === i }];
  });
}

export function simulatedStepLabels(
  stepScores: readonly Row[],
  pathways: readonly Row[],
  index: PlanIndex,
): { labels: StepLabel[]; skipped: Record<string, number> } {
  const candidateOf = new Map(pathways.map((p) => [JSON.stringify([p.setting, p.model, p.cdp_id]), (p.candidate as string[]) ?? []]));
  const labels: StepLabel[] = [];
  const skipped: Record<string, number> = {};
  const skip = (why: string) => (skipped[why] = (skipped[why] ?? 0) + 1);
  const plans = new Map<string, AgentPlan | null>();
  for (const r of stepScores) {
    if (r.error != null) {
      skip('failure row');
      continue;
    }
    const model = String(r.model),
      cdpId = String(r.cdp_id),
      setting = String(r.setting);
    const planKey = JSON.stringify([model, cdpId]);
    if (!plans.has(planKey)) plans.set(planKey, planOf(index, model, cdpId));
    const plan = plans.get(planKey)!;
    if (!plan) {
      skip('no ground truth (not a perturbation agent, or case unknown)');
      continue;
    }
    if (r.n === 0) {
      skip('empty pathway');
      continue;
    }
    const candidate = candidateOf.get(JSON.stringify([setting, model, cdpId]));
    if (!candidate) {
      skip('pathway not in predicted_pathways');
      continue;
    }
    if (planMismatch(plan, setting, candidate)) {
      skip('pathway differs from the plan');
      continue;
    }
    for (const l of labelsFromMapping(r.C as number[][], plan.mapping)) {
      labels.push({
        setting,
        judge: String(r.judge),
        model,
        cdp_id: cdpId,
        reference_step: l.reference_step,
        best_candidate: l.best_candidate,
        score: l.score,
        human: l.correct,
      });
    }
  }
  return { labels, skipped };
}
