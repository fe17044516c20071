/**
 * How the offline agents write their answers, in the formats Prompts 4 and 6 ask for, so that
 * the same parsers read them as any model's (`parseSingleTurn`, `parseDoctorTurn`).
 *
 * A single-turn step is one line: the condition as a question, the outcome, and the vignette's
 * fact that decides it — "Is systolic blood pressure ≥140 mmHg? Yes — systolic blood pressure was
 * 150 mmHg." Chinese conditions are answered in Chinese ("…？是——患者症状持续4个月。"). A step
 * without a fact ends with the outcome ("… No."). Newlines inside a condition are folded, so one
 * step is one line.
 */
import { stripStepLabel } from '../construct/vignette-sentence.ts';
import { hasHan } from './text-match.ts';

/** Prompt 4's outcome when the agent cannot apply the guideline (or cannot place the case). */
export const SINGLE_TURN_NOT_APPLICABLE = 'The guideline is not applicable.';

/** Prompt 6 rule 11, word for word. */
export const DOCTOR_NOT_DETERMINABLE =
  'The guideline does not contain an explicit rule or conclusion that can be directly applied based on the available patient information.';

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Lower-cases an ordinary capitalised first word or the article "A"; acronyms ("BMI") keep their case. */
function lowerFirst(s: string): string {
  return /^(?:[A-Z][a-z]|A\s)/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s;
}

/** The condition as a question: step label dropped, "?" (or "？") added when missing. */
export function conditionQuestion(condition: string): string {
  const c = oneLine(stripStepLabel(oneLine(condition))).replace(/[:：]+$/, '');
  if (/[?？]$/.test(c)) return c;
  return hasHan(c) ? `${c.replace(/[。.]+$/, '')}？` : `${c.replace(/[.]+$/, '')}?`;
}

export function stepLine(condition: string, answer: 'yes' | 'no', evidence: readonly string[] = []): string {
  const q = conditionQuestion(condition);
  const zh = hasHan(q);
  const word = zh ? (answer === 'yes' ? '是' : '否') : answer === 'yes' ? 'Yes' : 'No';
  const facts = evidence.map(oneLine).filter(Boolean);
  if (facts.length === 0) return `${q} ${word}${zh ? '。' : '.'}`;
  if (zh) return `${q}${word}——${facts.join('；')}`;
  const text = facts.map((f, i) => (i === 0 ? lowerFirst(f) : f)).join('; ');
  return `${q} ${word} — ${/[.!。]$/.test(text) ? text : `${text}.`}`;
}

/** A whole Prompt 4 answer. With no steps it still parses as far as it can and fails downstream. */
export function singleTurnAnswer(steps: readonly string[], outcome: string): string {
  const lines = ['### Clinical Decision Process:', ...steps.map((s, i) => `${i + 1}. ${oneLine(s)}`)];
  lines.push(`### Clinical Decision Outcome: ${oneLine(outcome) || SINGLE_TURN_NOT_APPLICABLE}`);
  return lines.join('\n');
}

export function notApplicableSingleTurn(): string {
  return singleTurnAnswer([], SINGLE_TURN_NOT_APPLICABLE);
}

export function finalConclusion(conclusion: string): string {
  return `Final Conclusion: ${oneLine(conclusion) || DOCTOR_NOT_DETERMINABLE}`;
}
