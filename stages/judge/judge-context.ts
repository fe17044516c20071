/**
 * The context the judging code attaches to each judge call (`ChatRequest.context`): the two
 * pathways (one reference block, steps as the judge is shown them) or the two conclusions the
 * prompt was rendered from. Offline judges answer from it; live judges ignore it and it is never
 * sent, so an LLM judge sees the prompt only.
 */
export type JudgeContext =
  { judging: 'steps'; reference: string[]; candidate: string[] } | { judging: 'outcome'; reference: string; candidate: string };

/** The judge context of a call; a call without one (or a malformed one) is an error naming what to pass. */
export function judgeContextOf(context: Readonly<Record<string, unknown>> | undefined, judge: string): JudgeContext {
  const c = context as Partial<{ judging: unknown; reference: unknown; candidate: unknown }> | undefined;
  const steps = c?.judging === 'steps' && Array.isArray(c.reference) && Array.isArray(c.candidate);
  const outcome = c?.judging === 'outcome' && typeof c.reference === 'string' && typeof c.candidate === 'string';
  if (!steps && !outcome) {
    throw new Error(
      `${judge} answers step-scoring and outcome-scoring calls from their context ({ judging: 'steps' | 'outcome', reference, candidate }); ` +
        'call it through judgeStepScores or judgeOutcome, which attach it',
    );
  }
  return c as JudgeContext;
}
