/**
 * The question an offline doctor asks for a decision condition: the reference question
 * (`asYesNoQuestion`, the same text Prompt 8's reference questioning pathway holds), made safe
 * for Prompt 6's format — one question mark run, at the end. A description with a question mark
 * inside ("Fever? (≥38 °C)") would otherwise read as two questions; its inner marks become
 * commas. An empty description cannot be asked and yields null.
 */
import { asYesNoQuestion } from '../construct/reference-questions.ts';

export function doctorQuestion(condition: string): string | null {
  let q: string;
  try {
    q = asYesNoQuestion(condition);
  } catch {
    return null;
  }
  const runs = q.match(/[?？]+/g) ?? [];
  if (runs.length <= 1) return q;
  const body = q.replace(/[?？]+$/, '').replace(/[?？]+/g, ',');
  return `${body}${/[？]$/.test(q) ? '？' : '?'}`;
}
