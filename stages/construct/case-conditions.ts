/**
 * A case's decision conditions as the writers (real prompts' inputs, the offline stand-ins) and
 * the QC checks read them: step labels stripped and pronouns neutralised, in the CDP's language.
 */
import type { Cdp } from './types.ts';
import { neutralisePronouns, stripStepLabel } from './vignette-sentence.ts';

export function isChinese(language: string): boolean {
  return /^zh|chinese|中文/i.test(language);
}

/** The cleaned conditions the writers work from (labels stripped, pronouns neutralised). */
export function cleanConditions(cdp: Pick<Cdp, 'steps'>): string[] {
  return cdp.steps.map((s) => neutralisePronouns(stripStepLabel(s.condition)));
}
