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
import { planMismatch, planOf, type PlanIndex } from './agent-plans.ts';

/**
 * One judged pathway's labels: the score C[i][j*] of each reference step's best match and whether
 * the plan maps j* to i, in step order; or, when the pathway cannot be labelled, why (`left_out`).
 */
export interface PathwayLabels {
  setting: string;
  judge: string;
  model: string;
  cdp_id: string;
  scores: number[] | null;
  correct: boolean[] | null;
  left_out: string | null;
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

/** The labels of each step_scores row of one case (or of any rows), in their order. */
export function simulatedStepLabels(stepScores: readonly Row[], pathways: readonly Row[], index: PlanIndex): PathwayLabels[] {
  const candidateOf = new Map(pathways.map((p) => [JSON.stringify([p.setting, p.model, p.cdp_id]), (p.candidate as string[]) ?? []]));
  return stepScores.map((r) => {
    const model = String(r.model),
      cdpId = String(r.cdp_id),
      setting = String(r.setting);
    const at = { setting, judge: String(r.judge), model, cdp_id: cdpId };
    const leftOut = (why: string): PathwayLabels => ({ ...at, scores: null, correct: null, left_out: why });
    if (r.error != null) return leftOut('failure row');
    const plan = planOf(index, model, cdpId);
    if (!plan) return leftOut('no ground truth (not a perturbation agent, or case unknown)');
    if (r.n === 0) return leftOut('empty pathway');
    const candidate = candidateOf.get(JSON.stringify([setting, model, cdpId]));
    if (!candidate) return leftOut('pathway not in predicted_pathways');
    if (planMismatch(plan, setting, candidate)) return leftOut('pathway differs from the plan');
    const labels = labelsFromMapping(r.C as number[][], plan.mapping);
    return { ...at, scores: labels.map((l) => l.score), correct: labels.map((l) => l.correct), left_out: null };
  });
}
