/**
 * One patient answer of a dialogue: the patient model is asked the doctor's question, its reply
 * read by parsePatientAnswer; an unreadable reply is re-asked once as a follow-up naming the
 * reader's reason (patient-reask.ts). A second unreadable reply is refused (`llm.reject`), so a
 * replay of the dialogue (`cdp run --retry-failed`) takes everything before it from the call
 * cache and asks only that re-ask afresh. `turns` are the transcript's patient turns (a re-asked
 * answer shows as two).
 */
import type { ChatResult, StageLlm } from '../../pipeline/stage.ts';
import type { ChatMessage } from '../prompts/dialogue-messages.ts';
import { parsePatientAnswer, type PatientAnswer } from './parse-patient-answer.ts';
import { patientReask } from './patient-reask.ts';
import type { TranscriptTurn } from './transcript-turn.ts';

export type PatientTurn =
  | { kind: 'answered'; answer: 'Yes' | 'No'; turns: TranscriptTurn[] }
  | { kind: 'unreadable'; reason: string; turns: TranscriptTurn[] }
  | { kind: 'failed-call'; error: string; reask: boolean; turns: TranscriptTurn[] };

export interface PatientAsk {
  model: string;
  asked: ChatMessage[];
  question: string;
  language: string;
  sample: string;
  context: Readonly<Record<string, unknown>>;
}

// What an offline patient says it used to answer (its route through the case); null for real models.
function patientTurn(r: ChatResult & { ok: true }, a: PatientAnswer): TranscriptTurn {
  return {
    role: 'patient',
    text: r.text,
    parsed: a.ok ? a.answer : null,
    via: typeof r.metadata?.via === 'string' ? r.metadata.via : null,
    node: typeof r.metadata?.node === 'number' ? r.metadata.node : null,
    format: a.ok ? a.format : null,
  };
}

export async function askPatient(llm: StageLlm, q: PatientAsk): Promise<PatientTurn> {
  const call = (messages: ChatMessage[]) => llm.chat({ model: q.model, messages, role: 'patient', sample: q.sample, context: q.context });
  const turns: TranscriptTurn[] = [];
  const p = await call(q.asked);
  if (!p.ok) return { kind: 'failed-call', error: p.error, reask: false, turns };
  const answer = parsePatientAnswer(p.text, p.finishReason);
  turns.push(patientTurn(p, answer));
  if (answer.ok) return { kind: 'answered', answer: answer.answer, turns };
  // One re-ask naming the problem; a second unreadable reply is the patient's failure.
  const again = await call(patientReask(q.asked, p.text, answer.reason, q.question, q.language));
  if (!again.ok) return { kind: 'failed-call', error: again.error, reask: true, turns };
  const second = parsePatientAnswer(again.text, again.finishReason);
  turns.push(patientTurn(again, second));
  if (second.ok) return { kind: 'answered', answer: second.answer, turns };
  // Refused answers are not served again: a recompute of this dialogue asks afresh.
  await llm.reject(again, `patient answer unreadable: ${second.reason}`);
  return { kind: 'unreadable', reason: second.reason, turns };
}
