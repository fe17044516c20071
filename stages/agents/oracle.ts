/**
 * The oracle (`simulated-oracle`): the upper bound a perfectly guideline-adherent model would
 * reach, used to check that the scoring pipeline gives a perfect pathway a perfect score.
 *
 * - Single-turn (Prompt 4): it reads the case from the call's context and answers with the reference
 *   CDP — one step per reference decision, each the reference reasoning statement itself (the
 *   offline narrative writer's statement for that step: the guideline evidence, the case fact,
 *   the criterion met or not) — and the reference conclusion as the outcome. So under any judge
 *   its steps match the reference one for one, and its single-turn PCC is the floor the other
 *   agents are measured against. (Answering "<question> Yes — <fact>" instead, as the lexical
 *   walker does, made the oracle score exactly like the walker on the sample.)
 * - Multi-turn doctor (Prompt 6): it walks the guideline's tree from the root, asking each
 *   decision node's reference question and following the branch the patient's answer to it
 *   selects; at a leaf it answers "Final Conclusion: <the leaf's conclusion>". It needs the
 *   guideline only, not the case, so with a patient that answers as the case's path says it
 *   reproduces the reference questioning pathway and conclusion exactly.
 * A call without a unit context (or a guideline without a tree) gets Prompt 4's "not applicable"
 * outcome without steps, or Prompt 6's rule-11 conclusion: honest answers that fail downstream.
 */
import type { Provider } from '../../pipeline/llm/types.ts';
import type { Cdp, ReasoningTree, TreeNodeJson } from '../construct/types.ts';
import { isLeafNode } from '../construct/tree-walk.ts';
import { finalConclusion, notApplicableSingleTurn, singleTurnAnswer, stepLine, DOCTOR_NOT_DETERMINABLE } from './answer-writing.ts';
import { doctorTurns, isDoctorCall, agentProvider, type DoctorTurns } from './unit-view.ts';
import { doctorQuestion } from './doctor-question.ts';
import { answerFromVignette } from './vignette-answer.ts';
import { writeNarrative } from './writers/narrative-writer.ts';

export const ORACLE_NAME = 'simulated-oracle';

/** The vignette clauses that support a step's reference outcome (empty when none does). */
export function supportingFacts(condition: string, outcome: 'yes' | 'no', vignette: string): string[] {
  const a = answerFromVignette(condition, vignette);
  return a.answer === outcome && a.via !== 'none' ? a.evidence : [];
}

/**
 * The oracle's statement for each reference step, in order. A step the narrative writer cannot
 * state (a path it reports as contradictory) falls back to "<question> <Yes|No> — <fact>".
 */
export function oracleStatements(cdp: Cdp, vignette: string): string[] {
  const narrative = writeNarrative(cdp).steps;
  return cdp.steps.map(
    (s, i) => narrative[i] ?? stepLine(s.condition, s.decision_outcome, supportingFacts(s.condition, s.decision_outcome, vignette)),
  );
}

export function oracleSingleTurn(cdp: Cdp, vignette: string): string {
  return singleTurnAnswer(oracleStatements(cdp, vignette), cdp.conclusion);
}

/** Depth guard for malformed trees handed in without validation. */
const MAX_DEPTH = 10_000;

/** The node reached from the root by following `answers` in order (stopping at a leaf). */
export function nodeAfter(tree: ReasoningTree, answers: ReadonlyArray<'yes' | 'no'>): TreeNodeJson | null {
  let node: TreeNodeJson | undefined = tree.decision_tree;
  for (const a of answers) {
    if (node === undefined || isLeafNode(node)) break;
    node = a === 'yes' ? node.yes : node.no;
  }
  return node ?? null;
}

/** The oracle doctor's next turn on a tree, given the dialogue so far. */
export function oracleDoctorTurn(tree: ReasoningTree, turns: DoctorTurns): string {
  if (turns.length > MAX_DEPTH) return finalConclusion(DOCTOR_NOT_DETERMINABLE);
  const node = nodeAfter(
    tree,
    turns.map((t) => t.answer),
  );
  if (node === null) return finalConclusion(DOCTOR_NOT_DETERMINABLE);
  if (isLeafNode(node)) return finalConclusion(node.conclusion ?? '');
  return doctorQuestion(node.description ?? '') ?? finalConclusion(DOCTOR_NOT_DETERMINABLE);
}

export function createOracleHandler(): Provider {
  return agentProvider((prompt, unit) => {
    if (isDoctorCall(prompt, unit)) {
      return unit?.tree ? oracleDoctorTurn(unit.tree, doctorTurns(unit)) : finalConclusion(DOCTOR_NOT_DETERMINABLE);
    }
    return unit === null ? notApplicableSingleTurn() : oracleSingleTurn(unit.cdp, unit.vignette);
  });
}
