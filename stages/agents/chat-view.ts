/**
 * The offline agents' reading of a chat request, following the message layout of
 * stages/prompts/dialogue-messages.ts:
 * - single-turn: no system message; the user message(s) hold Prompt 4;
 * - doctor: system = Prompt 6, then its own questions (assistant) and the patient's answers
 *   (user), in order;
 * - patient: system = Prompt 7, then the doctor's questions (user) and its own answers
 *   (assistant); the last user message is the question to answer.
 * Answers are read with the task parser; one it cannot read counts as "No" for the walking
 * agents, the same default the offline patient uses for what a case does not state.
 */
import type { ChatMessage, ChatRequest } from '../../pipeline/llm/types.ts';
import { parsePatientAnswer } from '../tasks/parse-patient-answer.ts';
import { messageText } from './agent-context.ts';

export interface DoctorView {
  system: string;
  /** The doctor's earlier questions with the patient's answers ('yes' | 'no'). */
  turns: Array<{ question: string; answer: 'yes' | 'no' }>;
}

export interface PatientView {
  system: string;
  question: string;
}

export function isMultiTurn(req: Pick<ChatRequest, 'messages'>): boolean {
  return req.messages[0]?.role === 'system';
}

export function singleTurnPrompt(req: Pick<ChatRequest, 'messages'>): string {
  return req.messages.filter((m) => m.role === 'user').map(messageText).join('\n\n');
}

export function doctorView(messages: readonly ChatMessage[]): DoctorView {
  const system = messages[0]?.role === 'system' ? messageText(messages[0]) : '';
  const turns: DoctorView['turns'] = [];
  let pending: string | null = null;
  for (const m of messages.slice(system === '' ? 0 : 1)) {
    if (m.role === 'assistant') pending = messageText(m);
    else if (m.role === 'user' && pending !== null) {
      const parsed = parsePatientAnswer(messageText(m));
      turns.push({ question: pending, answer: parsed.ok && parsed.answer === 'Yes' ? 'yes' : 'no' });
      pending = null;
    }
  }
  return { system, turns };
}

export function patientView(messages: readonly ChatMessage[]): PatientView {
  const system = messages[0]?.role === 'system' ? messageText(messages[0]) : '';
  const users = messages.filter((m) => m.role === 'user');
  return { system, question: users.length ? messageText(users[users.length - 1]!) : '' };
}
