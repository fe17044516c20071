/**
 * The lexical tree-walker baseline (`simulated-lexical-walker`): a model-free reader that knows
 * the guideline's reasoning tree and reads the case with string matching only. It shows how far
 * literal matching of conditions against the case text goes, below any LLM that understands it.
 *
 * - Single-turn (Prompt 4): from the root, each decision node's condition is answered from the
 *   vignette text in the prompt (vignette-answer.ts: numeric thresholds via the construction
 *   stage's parser, else lexical overlap with negation, else "no" when the vignette does not
 *   say), the matching branch is taken, and the leaf's conclusion is the outcome. Its steps are
 *   its walk, one "<question> <Yes|No> — <fact>" line per node. From the call's context it takes
 *   the guideline's tree and the vignette only, never the case's path.
 * - Multi-turn doctor (Prompt 6): the doctor sees only the clinical inquiry goal, so at each node
 *   it first tries to answer the condition from the goal text by the same rules; when the goal
 *   decides it (numeric or lexical route), it takes that branch without asking, otherwise it
 *   asks the node's reference question and follows the patient's answer. With a goal that
 *   states no findings it asks every node on its way, like the oracle.
 * Calls without a context (or a tree) get the same honest failures as the oracle's.
 */
import type { Provider } from '../../pipeline/llm/types.ts';
import type { ReasoningTree, TreeNodeJson } from '../construct/types.ts';
import { isLeafNode } from '../construct/tree-walk.ts';
import { finalConclusion, notApplicableSingleTurn, singleTurnAnswer, stepLine, DOCTOR_NOT_DETERMINABLE } from './answer-writing.ts';
import { doctorTurns, isDoctorCall, agentProvider, type DoctorTurns } from './unit-view.ts';
import { doctorQuestion } from './doctor-question.ts';
import { answerFromVignette, type VignetteAnswer } from './vignette-answer.ts';

export const WALKER_NAME = 'simulated-lexical-walker';

const MAX_DEPTH = 10_000;

export interface WalkStep extends VignetteAnswer {
  node_index: number;
  condition: string;
}

export interface Walk {
  steps: WalkStep[];
  /** The leaf's conclusion ('' when the walk ended at a malformed node). */
  conclusion: string;
  leaf_index: number | null;
}

export function lexicalWalk(tree: ReasoningTree, vignette: string): Walk {
  const steps: WalkStep[] = [];
  let node: TreeNodeJson | undefined = tree.decision_tree;
  while (node !== undefined && !isLeafNode(node) && steps.length < MAX_DEPTH) {
    const condition = node.description ?? '';
    const a = answerFromVignette(condition, vignette);
    steps.push({ node_index: node.index, condition, ...a });
    node = a.answer === 'yes' ? node.yes : node.no;
  }
  if (node === undefined || !isLeafNode(node)) return { steps, conclusion: '', leaf_index: null };
  return { steps, conclusion: node.conclusion ?? '', leaf_index: node.index };
}

export function walkerSingleTurn(tree: ReasoningTree, vignette: string): string {
  const walk = lexicalWalk(tree, vignette);
  return singleTurnAnswer(
    walk.steps.map((s) => stepLine(s.condition, s.answer, s.evidence)),
    walk.conclusion,
  );
}

/** The walker doctor's next turn: answers what the goal decides, asks the rest in tree order. */
export function walkerDoctorTurn(tree: ReasoningTree, goal: string, turns: DoctorTurns): string {
  let node: TreeNodeJson | undefined = tree.decision_tree;
  let used = 0;
  for (let depth = 0; node !== undefined && !isLeafNode(node) && depth < MAX_DEPTH; depth++) {
    const condition: string = node.description ?? '';
    const fromGoal = goal.trim() === '' ? null : answerFromVignette(condition, goal);
    let answer: 'yes' | 'no';
    if (fromGoal !== null && fromGoal.via !== 'none') answer = fromGoal.answer;
    else if (used < turns.length) answer = turns[used++]!.answer;
    else return doctorQuestion(condition) ?? finalConclusion(DOCTOR_NOT_DETERMINABLE);
    node = answer === 'yes' ? node.yes : node.no;
  }
  if (node === undefined || !isLeafNode(node)) return finalConclusion(DOCTOR_NOT_DETERMINABLE);
  return finalConclusion(node.conclusion ?? '');
}

export function createWalkerHandler(): Provider {
  return agentProvider((prompt, unit) => {
    if (isDoctorCall(prompt, unit)) {
      return unit?.tree ? walkerDoctorTurn(unit.tree, unit.goal ?? '', doctorTurns(unit)) : finalConclusion(DOCTOR_NOT_DETERMINABLE);
    }
    return unit?.tree ? walkerSingleTurn(unit.tree, unit.vignette) : notApplicableSingleTurn();
  });
}
