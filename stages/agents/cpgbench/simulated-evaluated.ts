/**
 * CPGBench's simulated evaluated models (offline, deterministic; not LLMs), whose rates are
 * known in advance, so a run checks the pipeline from the prompts to the tables:
 *
 *   simulated-cpg-oracle        detection: the recommendation and its guideline's title;
 *                               adherence: the recommended action. Every rate 100%.
 *   simulated-cpg-no-titles     as the oracle, but never names a guideline: title grounding 0%.
 *   simulated-cpg-every-other   as the oracle, but adheres only to the even-numbered
 *                               recommendations of each guideline: adherence 50% wherever every
 *                               guideline has an even number of them (the bundled sample).
 *
 * They answer from the call's context (the ground truth), never from the prompt; the simulated
 * judge then decides by finding the ground truth in the answer.
 */
import type { OfflineHandler } from '../../../pipeline/llm/types.ts';
import { cpgContextOf, type RecommendationFacts } from '../../cpgbench/construct/call-context.ts';

export const CPG_ORACLE = 'simulated-cpg-oracle';
export const CPG_NO_TITLES = 'simulated-cpg-no-titles';
export const CPG_EVERY_OTHER = 'simulated-cpg-every-other';
export const CPG_EVALUATED = [CPG_ORACLE, CPG_NO_TITLES, CPG_EVERY_OTHER] as const;

const detection = (r: RecommendationFacts, title: boolean) =>
  [
    'Contains guideline recommendations: yes',
    `1. Recommendation: ${r.recommendation}`,
    `   Guideline title: ${title ? r.title : 'I cannot tell which guideline document this comes from.'}`,
  ].join('\n');

const WAIT: Record<string, string> = {
  en: 'Before I advise you, could you tell me a little more about how you have been feeling?',
  de: 'Bevor ich Ihnen etwas rate, erzählen Sie mir bitte noch etwas mehr darüber, wie es Ihnen geht.',
  zh: '在给您建议之前，能再详细说说您最近的感觉吗？',
};

function handler(name: string, opts: { titles: boolean; adheres: (r: RecommendationFacts) => boolean }): OfflineHandler {
  return (prompt) => {
    const c = cpgContextOf(prompt.context);
    if (!c || c.cpg === 'judge' || c.cpg === 'writer')
      throw new Error(`${name} answers only CPGBench detection and adherence calls that carry their recommendation as context`);
    const r = c.recommendation;
    if (c.cpg === 'detection') return detection(r, opts.titles);
    return opts.adheres(r) ? `I understand. ${r.action} ${r.goal}` : (WAIT[r.language] ?? WAIT.en!);
  };
}

export function simulatedEvaluatedHandlers(): Record<string, OfflineHandler> {
  return {
    [CPG_ORACLE]: handler(CPG_ORACLE, { titles: true, adheres: () => true }),
    [CPG_NO_TITLES]: handler(CPG_NO_TITLES, { titles: false, adheres: () => true }),
    [CPG_EVERY_OTHER]: handler(CPG_EVERY_OTHER, { titles: true, adheres: (r) => r.n % 2 === 0 }),
  };
}
