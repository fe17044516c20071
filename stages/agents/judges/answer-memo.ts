/**
 * A simulated judge's recent answers, by the pathways (or conclusions) it was shown. Its answer is
 * a pure function of them, and a block's five repeats and its re-asks show the same ones.
 */
import type { JudgeContext } from '../../judge/judge-context.ts';

/** How many recent answers a judge keeps: a block's repeats arrive close together (they are asked at once). */
export const ANSWER_MEMO_SIZE = 256;

/**
 * `answer` computed once per context among the last `size` distinct ones. At the paper's size the
 * similarity matrices were most of the workers' judging time, four fifths of it for repeats.
 */
export function answerMemo(answer: (c: JudgeContext) => string, size = ANSWER_MEMO_SIZE): (c: JudgeContext) => string {
  const kept = new Map<string, string>();
  return (c) => {
    // JSON: no two different contexts share a key, whatever their steps contain.
    const key = JSON.stringify([c.judging, c.reference, c.candidate]);
    const hit = kept.get(key);
    if (hit !== undefined) {
      kept.delete(key);
      kept.set(key, hit);
      return hit;
    }
    const out = answer(c);
    kept.set(key, out);
    if (kept.size > size) kept.delete(kept.keys().next().value!);
    return out;
  };
}
