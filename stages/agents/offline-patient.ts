/**
 * The offline patient (`simulated-patient`, Prompt 7): answers each doctor question "Yes" or
 * "No" from the case, deterministically, and records how it decided.
 *
 * 1. Path (`via: 'path'`): the question asks about a decision on the case's reference path.
 *    A step matches when the question equals its reference question or its condition (ignoring
 *    case, spacing and the final question mark), or when the Dice coefficient of their content
 *    tokens (text-match.ts) is at least PATH_MATCH_MIN_DICE (0.75) and both mention the same
 *    numbers (a question about "BMI ≥ 30" never matches a step about "BMI ≥ 25", whose answer may
 *    differ; the vignette's value decides it instead). The threshold is strict on purpose: a
 *    false path match answers with certainty from the wrong step ("chronic kidney disease" vs
 *    "chronic heart disease" share 2 of 3 tokens, Dice 0.67), while a missed one still falls
 *    back to the vignette, which states every path step. The best-scoring step wins, the earlier one
 *    on ties; an exact match beats any score. The answer is the step's decision outcome, flipped
 *    when exactly one of question and condition is negated ("Is the patient not pregnant?").
 * 2. Vignette (`via: 'vignette'`): otherwise the vignette answers it as the lexical walker would
 *    (numeric value, or a clause covering three quarters of the question's content tokens).
 * 3. Default (`via: 'default'`): otherwise "No" — what the case does not state is absent.
 * It reads the case, the vignette and the question from the call's context and reports in its
 * response metadata how it decided (`via`, and `node` for a path match), which the dialogue
 * keeps in its transcript. Without a context it knows no case and answers "No" (default).
 */
import type { Provider } from '../../pipeline/llm/types.ts';
import type { Cdp } from '../construct/types.ts';
import { asYesNoQuestion } from '../construct/reference-questions.ts';
import { agentProvider } from './unit-view.ts';
import { contentTokens, dice, isNegated, normaliseQuestion, numbersOf } from './text-match.ts';
import { answerFromVignette } from './vignette-answer.ts';

export const PATIENT_NAME = 'simulated-patient';
export const PATH_MATCH_MIN_DICE = 0.75;

export interface PatientDecision {
  answer: 'Yes' | 'No';
  via: 'path' | 'vignette' | 'default';
  /** The matched path step's node index (for 'path'). */
  node_index?: number;
}

function sameNumbers(a: string, b: string): boolean {
  const x = numbersOf(a).sort();
  const y = numbersOf(b).sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

function referenceQuestionOf(condition: string): string | null {
  try {
    return asYesNoQuestion(condition);
  } catch {
    return null;
  }
}

/** The path step a question asks about, or null. */
export function matchPathStep(cdp: Pick<Cdp, 'steps'>, question: string): { step: number; exact: boolean } | null {
  const q = normaliseQuestion(question);
  const qTokens = contentTokens(question);
  let best: { step: number; score: number } | null = null;
  for (let i = 0; i < cdp.steps.length; i++) {
    const condition = cdp.steps[i]!.condition;
    const ref = referenceQuestionOf(condition);
    if (q === normaliseQuestion(condition) || (ref !== null && q === normaliseQuestion(ref))) return { step: i, exact: true };
    if (!sameNumbers(question, condition)) continue;
    const score = dice(qTokens, contentTokens(condition));
    if (score >= PATH_MATCH_MIN_DICE && (best === null || score > best.score)) best = { step: i, score };
  }
  return best && { step: best.step, exact: false };
}

export function answerQuestion(cdp: Pick<Cdp, 'steps'> | null, vignette: string, question: string): PatientDecision {
  if (cdp !== null) {
    const match = matchPathStep(cdp, question);
    if (match !== null) {
      const step = cdp.steps[match.step]!;
      const flip = !match.exact && isNegated(question) !== isNegated(step.condition);
      const yes = (step.decision_outcome === 'yes') !== flip;
      return { answer: yes ? 'Yes' : 'No', via: 'path', node_index: step.node_index };
    }
  }
  const fromVignette = answerFromVignette(question, vignette);
  if (fromVignette.via !== 'none') return { answer: fromVignette.answer === 'yes' ? 'Yes' : 'No', via: 'vignette' };
  return { answer: 'No', via: 'default' };
}

export function createPatientHandler(): Provider {
  return agentProvider((_prompt, unit) => {
    const d = answerQuestion(unit?.cdp ?? null, unit?.vignette ?? '', unit?.question ?? '');
    return { output: d.answer, metadata: { via: d.via, node: d.node_index ?? null } };
  });
}
