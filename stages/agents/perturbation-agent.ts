/**
 * Perturbation agents (`simulated-omission-0.3`, `simulated-mixed-0.15-wrong-0.2`, …): the oracle
 * with controlled, seeded process deviations (perturb.ts) and, optionally, wrong outcomes. Their
 * exact step correspondence is the simulated human label the threshold and preference analyses
 * use; the `agent_plans` stage (agent-plans.stage.ts) writes it out as rows, from the agent's
 * name, the case and the tree, so the evaluation reads it as data.
 *
 * Plan of a case (one per agent × case, shared by both settings):
 * - steps: `perturb(reference conditions, rates, rng(seed, cdp_id, "steps"), { distractors:
 *   off-path conditions of the tree in preorder, skipMax })`;
 * - outcome: with probability wrongOutcomeRate (drawn from rng(seed, cdp_id, "outcome"), a
 *   separate stream so the rate never changes the step plan) another leaf conclusion of the same
 *   tree, uniformly among the distinct ones; otherwise, or when the tree has no other
 *   conclusion, the reference conclusion.
 *
 * Single-turn: the plan's steps in Prompt 4 format; a reference step states its reference
 * outcome (the reference reasoning statement, as the oracle gives it), a redundant step is
 * answered from the vignette as the lexical walker would. Multi-turn: the doctor asks the plan's
 * steps as reference questions (`asYesNoQuestion`), one per turn whatever the answers, then gives
 * the plan's conclusion. It must know the case up front — omitting or reordering a step means
 * knowing its outcome without asking — so it reads the case from the call's context; a call
 * without one gets Prompt 6's rule-11 conclusion at once, an honest failure, rather than a
 * dialogue whose plan nobody could recompute.
 */
import type { Provider } from '../../pipeline/llm/types.ts';
import type { Cdp, ReasoningTree } from '../construct/types.ts';
import { createRng } from '../stats/rng.ts';
import { finalConclusion, notApplicableSingleTurn, singleTurnAnswer, stepLine, DOCTOR_NOT_DETERMINABLE } from './answer-writing.ts';
import { isDoctorCall, agentProvider } from './unit-view.ts';
import { doctorQuestion } from './doctor-question.ts';
import { oracleStatements } from './oracle.ts';
import { perturb, type PerturbResult } from './perturb.ts';
import { caseSeed, profileFromName, type PerturbationProfile } from './perturbation-profile.ts';
import { offPathConditions, otherConclusions } from './tree-facts.ts';
import { answerFromVignette } from './vignette-answer.ts';

export interface PerturbationPlan extends PerturbResult {
  agent: string;
  cdp_id: string;
  /** Number of reference steps. */
  m: number;
  conclusion: string;
  wrongOutcome: boolean;
}

function profileOf(agent: string | PerturbationProfile): PerturbationProfile {
  return typeof agent === 'string' ? profileFromName(agent) : agent;
}

/** The plan of one case for a case object (pure; the tree supplies distractors and conclusions). */
export function planCase(profile: PerturbationProfile, cdp: Cdp, tree: ReasoningTree | undefined): PerturbationPlan {
  const reference = cdp.steps.map((s) => s.condition);
  const distractors = tree ? offPathConditions(tree, cdp) : [];
  const result = perturb(reference, profile, createRng(caseSeed(profile.seed, cdp.cdp_id, 'steps')), { distractors });
  const outcomeRng = createRng(caseSeed(profile.seed, cdp.cdp_id, 'outcome'));
  const others = tree ? otherConclusions(tree, cdp.conclusion) : [];
  const draw = outcomeRng.nextFloat();
  const wrongOutcome = draw < profile.wrongOutcomeRate && others.length > 0;
  const conclusion = wrongOutcome ? others[outcomeRng.nextInt(others.length)]! : cdp.conclusion;
  return { ...result, agent: profile.name, cdp_id: cdp.cdp_id, m: reference.length, conclusion, wrongOutcome };
}

export function perturbedSingleTurn(plan: PerturbationPlan, cdp: Cdp, vignette: string): string {
  const statements = oracleStatements(cdp, vignette);
  const lines = plan.steps.map((text, j) => {
    const ref = plan.mapping[j];
    if (ref !== null && ref !== undefined) return statements[ref]!;
    const a = answerFromVignette(text, vignette);
    return stepLine(text, a.answer, a.evidence);
  });
  return singleTurnAnswer(lines, plan.conclusion);
}

/**
 * The questions the multi-turn doctor asks for a plan, in order. A stage that uses the plan as
 * ground truth for a dialogue should check the dialogue asked exactly these (a doctor that could
 * not place the case asks none).
 */
export function questionsOf(plan: Pick<PerturbationPlan, 'steps'>): string[] {
  return plan.steps.map((s) => doctorQuestion(s) ?? '');
}

/** The doctor's turn number `asked` (0-based) of a plan: its next question, or its conclusion. */
export function perturbedDoctorTurn(plan: PerturbationPlan, asked: number): string {
  if (asked < plan.steps.length) return doctorQuestion(plan.steps[asked]!) ?? finalConclusion(DOCTOR_NOT_DETERMINABLE);
  return finalConclusion(plan.conclusion);
}

export function createPerturbationHandler(agent: string | PerturbationProfile): Provider {
  const profile = profileOf(agent);
  return agentProvider((prompt, unit) => {
    const doctor = isDoctorCall(prompt, unit);
    if (unit === null) return doctor ? finalConclusion(DOCTOR_NOT_DETERMINABLE) : notApplicableSingleTurn();
    const plan = planCase(profile, unit.cdp, unit.tree ?? undefined);
    return doctor ? perturbedDoctorTurn(plan, unit.dialogue?.length ?? 0) : perturbedSingleTurn(plan, unit.cdp, unit.vignette);
  });
}
