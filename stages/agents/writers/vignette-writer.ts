/**
 * The offline (simulated) case-vignette writer: a deterministic stand-in for Prompt 2 so the
 * bundled sample runs end to end without an LLM. It follows the prompt's rules mechanically:
 * one past-tense sentence per decision step, affirmative for yes and negative for no (rule 1);
 * numeric indicators get a concrete value inside/outside the threshold and consistent across
 * steps (rules 2–4, via the numeric-value chooser); no step numbers or pathway language
 * (rule 7); no gendered pronouns (rule 9); a final sentence stating the clinical focus
 * (rule 10); nothing added beyond the steps (rule 12). Its output is always labelled with the
 * generator name `simulated-vignette-writer` so nobody mistakes it for an LLM's.
 */
import { chooseValues, writeValuesInto, type NumericPlan } from '../../construct/numeric-chooser.ts';
import type { Cdp, ClinicalFocus } from '../../construct/types.ts';
import { declarativeEn, declarativeZh, VALUE_MARK, type StepSentence } from '../../construct/vignette-sentence.ts';
import { cleanConditions, isChinese } from '../../construct/case-conditions.ts';

export const VIGNETTE_GENERATOR = 'simulated-vignette-writer';

export interface VignetteResult {
  vignette: string;
  generator: string;
  /** Defects that make the vignette unreliable (a contradictory path, a value that cannot be chosen). */
  problems: string[];
  /** Steps rendered with the generic fallback sentence (grammatical but stilted). */
  notes: string[];
}

export interface StepFacts {
  /** One sentence per step, in step order (duplicates kept, so index = step). */
  sentences: StepSentence[];
  plan: NumericPlan;
}

const ZH_FOCUS: Record<ClinicalFocus, string> = {
  diagnosis: '诊断',
  classification: '分类',
  screening: '筛查',
  management: '管理',
};

/** The required closing sentence (Prompt 2, rule 10). */
export function focusSentence(focus: ClinicalFocus, language: string): string {
  return isChinese(language) ? `本病例的临床问题涉及${ZH_FOCUS[focus]}。` : `The clinical question concerns ${focus}.`;
}

/** The per-step case facts both offline writers state. */
export function stepFacts(cdp: Pick<Cdp, 'steps' | 'language'>): StepFacts {
  const conditions = cleanConditions(cdp);
  const plan = chooseValues(conditions.map((condition, i) => ({ condition, decision_outcome: cdp.steps[i]!.decision_outcome })));
  // Each condition is rendered in its own language, whatever the CDP's label says.
  const sentences = conditions.map((condition, i) => {
    const written = writeValuesInto(plan, i, condition, VALUE_MARK);
    const numeric = written.includes(VALUE_MARK);
    const outcome = cdp.steps[i]!.decision_outcome;
    return /[\u3400-\u9fff]/.test(condition) ? declarativeZh(written, outcome, numeric) : declarativeEn(written, outcome, numeric);
  });
  return { sentences, plan };
}

export function writeVignette(cdp: Cdp): VignetteResult {
  if (cdp.steps.length === 0) {
    return {
      vignette: focusSentence(cdp.focus, cdp.language),
      generator: VIGNETTE_GENERATOR,
      problems: [`cdp ${cdp.cdp_id} has no decision steps, so the vignette states only the focus; check the path enumeration`],
      notes: [],
    };
  }
  const { sentences, plan } = stepFacts(cdp);
  const notes = sentences.flatMap((s, i) =>
    s.fallback ? [`step ${i + 1} ("${cdp.steps[i]!.condition}") used the fallback sentence`] : [],
  );
  // Two steps on the same indicator produce the same sentence; say it once.
  const unique = [...new Set(sentences.map((s) => s.text))];
  const zh = isChinese(cdp.language);
  const body = unique.join(zh ? '' : ' ');
  return {
    vignette: `${body}${zh ? '' : ' '}${focusSentence(cdp.focus, cdp.language)}`,
    generator: VIGNETTE_GENERATOR,
    problems: plan.problems.map((p) => `cdp ${cdp.cdp_id}: ${p}`),
    notes,
  };
}
