/**
 * The reference questioning pathway of a CDP for the multi-turn setting (Prompt 8 compares
 * it with the doctor model's questions): one yes/no question per decision step, in path order.
 * The leaf's conclusion is not a question and is not included.
 *
 * Prompt 1 asks for decision nodes written as criteria-check questions, so most descriptions
 * are used as they are (whitespace collapsed). A description that is not a question — one not
 * ending in "?" or "？" — is made one without rewording its content:
 *  - Chinese (any Han character): trailing sentence punctuation is dropped; if it already
 *    reads as a question (contains 是否, or ends in 吗, 么, 否 or 呢) "？" is appended,
 *    otherwise "吗？" ("患者妊娠" → "患者妊娠吗？").
 *  - Otherwise (English): trailing sentence punctuation is dropped; if it starts with an
 *    auxiliary verb (is, are, does, has, can, should, …) "?" is appended, otherwise it becomes
 *    "Is it true that <description>?", lower-casing the first letter only when the first word
 *    is an ordinary capitalised word (so "HbA1c", "CT" and "BMI" keep their case).
 */
import type { Cdp } from './types.ts';
import { ENGLISH_QUESTION_AUXILIARIES } from '../language/stop-words.ts';

const AUXILIARIES = new Set(ENGLISH_QUESTION_AUXILIARIES);
const HAN = /\p{Script=Han}/u;
const TRAILING_PUNCTUATION = /[\s.。;；:：!！,，、]+$/u;

export function asYesNoQuestion(description: string): string {
  const text = description.replace(/\s+/g, ' ').trim();
  if (text === '') throw new Error('asYesNoQuestion: the description is empty; a decision step needs a condition to ask about');
  if (/[?？]$/.test(text)) return text;
  const body = text.replace(TRAILING_PUNCTUATION, '');
  if (HAN.test(body)) {
    return /是否/.test(body) || /[吗么否呢]$/.test(body) ? `${body}？` : `${body}吗？`;
  }
  const firstWord = body.split(/[\s,(]/, 1)[0]!;
  if (AUXILIARIES.has(firstWord.toLowerCase())) return `${body}?`;
  const ordinaryCapitalised = /^\p{Lu}\p{Ll}+$/u.test(firstWord);
  return `Is it true that ${ordinaryCapitalised ? body[0]!.toLowerCase() + body.slice(1) : body}?`;
}

/** The yes/no question of each decision step on the path, in order. */
export function referenceQuestions(cdp: Pick<Cdp, 'cdp_id' | 'steps'>): string[] {
  return cdp.steps.map((step, i) => {
    try {
      return asYesNoQuestion(step.condition);
    } catch {
      throw new Error(
        `referenceQuestions: step ${i + 1} (node ${step.node_index}) of CDP ${cdp.cdp_id} has an empty condition; rebuild the CDP from a tree that validateTree accepts`,
      );
    }
  });
}
