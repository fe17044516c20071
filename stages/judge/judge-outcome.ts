/**
 * Outcome accuracy (paper §4.1, Prompt 9): the judge scores how far the candidate's final
 * conclusion matches the reference conclusion on 1–5, and the answer counts as correct when the
 * score reaches `cutoff`. The paper reports accuracy without stating the cut-off; the default 4
 * is the prompt's "largely consistent, with only minor differences in wording or detail" or
 * better, while 3 ("overlap partially but differ in important aspects") is not correct.
 *
 * One call (repeat index `repeat`, default 0); an invalid answer is re-asked up to `maxReasks`
 * times with the reason stated, then the pair fails with that reason. An empty candidate
 * conclusion (the model gave none) is scored 1, not correct, without a call.
 */
import type { JudgeContext } from './judge-context.ts';
import { askStructured, type Chatter, type ParseOutcome } from '../../pipeline/stage.ts';
import { loadTemplate, renderTemplate, type Template } from '../prompts/templates.ts';
import { parseOutcomeScore } from './parse-outcome-score.ts';
import { recordingCalls, type CallRef } from './call-refs.ts';

export const DEFAULT_OUTCOME_CUTOFF = 4;

export interface JudgeOutcomeOptions {
  client: Chatter;
  judge: string;
  reference: string;
  candidate: string;
  /** Lowest score counted as correct (default 4). */
  cutoff?: number;
  maxReasks?: number;
  repeat?: number;
  language?: string;
  templatesRoot?: string;
  params?: Record<string, unknown>;
}

/**
 * `callRefs`: the stored calls behind the answers, re-asks included (none for offline judges);
 * `template`: the identity of the Prompt 9 template sent (absent when no call was made).
 */
export type OutcomeResult =
  | { ok: true; score: 1 | 2 | 3 | 4 | 5; correct: boolean; calls: number; problems: string[]; callRefs: CallRef[]; template?: string }
  | { ok: false; reason: string; calls: number; problems: string[]; callRefs: CallRef[]; template?: string };

const templateCache = new Map<string, Template>();

export async function judgeOutcome(o: JudgeOutcomeOptions): Promise<OutcomeResult> {
  const cutoff = o.cutoff ?? DEFAULT_OUTCOME_CUTOFF;
  if (!(cutoff >= 1 && cutoff <= 5)) throw new RangeError(`judgeOutcome: cutoff = ${cutoff} must be in [1, 5] (the scale of Prompt 9)`);
  const maxReasks = o.maxReasks ?? 2;
  if (!Number.isInteger(maxReasks) || maxReasks < 0) throw new RangeError(`judgeOutcome: maxReasks = ${maxReasks} must be an integer ≥ 0`);
  if (o.reference.trim() === '')
    throw new RangeError(
      'judgeOutcome: the reference conclusion is empty; every reference CDP ends in a conclusion, so check the cdps input',
    );
  if (o.candidate.trim() === '') {
    return {
      ok: true,
      score: 1,
      correct: 1 >= cutoff,
      calls: 0,
      problems: ['empty candidate conclusion: scored 1 without a judge call'],
      callRefs: [],
    };
  }

  const language = o.language ?? 'en';
  const key = `${language}\0${o.templatesRoot ?? ''}`;
  let t = templateCache.get(key);
  if (!t) {
    t = loadTemplate('outcome-accuracy-scoring', language, o.templatesRoot ? { root: o.templatesRoot } : {});
    templateCache.set(key, t);
  }
  const prompt = renderTemplate(t, { Reference_Conclusion: o.reference.trim(), Candidate_Conclusion: o.candidate.trim() });
  // The two conclusions as data, for offline judges (judge-context.ts).
  const outcomeContext: JudgeContext = { judging: 'outcome', reference: o.reference.trim(), candidate: o.candidate.trim() };

  const problems: string[] = [];
  const callRefs: CallRef[] = [];
  const repeat = o.repeat ?? 0;
  const parse = (text: string, finishReason?: string): ParseOutcome<1 | 2 | 3 | 4 | 5> => {
    const p = parseOutcomeScore(text, finishReason);
    if (p.ok) return { ok: true, value: p.score, format: p.format };
    problems.push(`answer ${problems.length + 1} rejected: ${p.reason}`);
    return { ok: false, problems: [p.reason] };
  };
  const r = await askStructured(
    recordingCalls(o.client, repeat, callRefs),
    {
      model: o.judge,
      role: 'judge',
      messages: [{ role: 'user', content: prompt }],
      context: outcomeContext,
      repeat,
      ...(o.params ? { params: o.params } : {}),
      expectedOutputTokens: 4,
    },
    parse,
    { maxAttempts: maxReasks + 1 },
  );
  if (!r.ok) {
    const last = r.problems.length ? `: ${r.problems.join('; ')}` : '';
    return {
      ok: false,
      reason: `outcome judge ${o.judge}: ${r.error}${last}`,
      calls: r.attempts,
      problems,
      callRefs,
      template: t.identity,
    };
  }
  return { ok: true, score: r.value, correct: r.value >= cutoff, calls: r.attempts, problems, callRefs, template: t.identity };
}
