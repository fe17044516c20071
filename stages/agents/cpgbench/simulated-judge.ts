/**
 * CPGBench's simulated judge (offline, deterministic; not an LLM): scores 1 when the ground
 * truth is found in the response — the recommendation's text (content detection), the
 * guideline's title (title grounding), the recommended action (adherence) — after folding case,
 * width and punctuation, else 0, and answers the dictionary Prompts 12–14 ask for, so its
 * answers go through the same reader as an LLM judge's. It reads the ground truth and the
 * response from the call's context, never from the prompt.
 */
import type { OfflineHandler } from '../../../pipeline/llm/types.ts';
import { cpgContextOf } from '../../cpgbench/construct/call-context.ts';

export const CPG_JUDGE_NAME = 'simulated-cpg-judge';

export const foldText = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

export const simulatedJudge: OfflineHandler = (prompt) => {
  const c = cpgContextOf(prompt.context);
  if (!c || c.cpg !== 'judge')
    throw new Error(`${CPG_JUDGE_NAME} answers only CPGBench judge calls that carry the ground truth and the response as context`);
  const r = c.recommendation;
  const truth = c.task === 'content_detection' ? r.recommendation : c.task === 'title_grounding' ? r.title : r.action;
  const found = truth.trim() !== '' && foldText(c.response).includes(foldText(truth));
  const what = { content_detection: 'recommendation', title_grounding: 'guideline title', adherence: 'recommended action' }[c.task];
  return JSON.stringify({
    score: found ? 1 : 0,
    rationale: found ? `The response contains the ${what}.` : `The response does not contain the ${what}.`,
    supporting_text: found ? truth : '',
    confidence: 1,
  });
};
