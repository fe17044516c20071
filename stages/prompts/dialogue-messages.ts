/**
 * How Prompts 6 and 7 drive the multi-turn setting. Each side is a separate chat:
 *
 * - Doctor (model under test): system = Prompt 6 rendered with the case's clinical inquiry goal
 *   and the guideline; then its own questions as `assistant` turns and the patient's answers as
 *   `user` turns. Its first call carries the system message alone — the paper gives the doctor
 *   everything in Prompt 6 and adds no opening user message, so neither do we.
 * - Patient (environment): system = Prompt 7 rendered with the case vignette; the doctor's
 *   questions arrive as `user` turns and its own earlier answers are `assistant` turns.
 *
 * A dialogue is stored once, as the doctor/patient exchange, and each side's view is derived
 * from it, so the two chats can never disagree about what was said. Turns hold the parsed
 * question and the parsed "Yes"/"No" (parse-doctor-turn.ts, parse-patient-answer.ts), not the raw
 * replies: reasoning blocks are not replayed to either side, and the patient hears only the
 * question, never the doctor's surrounding prose.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** One exchange; `answer` is absent while the patient has not yet replied. */
export interface DialogueTurn {
  question: string;
  answer?: string;
}

/** Messages for the doctor's next call: after every answered turn, it is the doctor's move. */
export function doctorMessages(systemPrompt: string, turns: readonly DialogueTurn[]): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'system', content: systemPrompt }];
  turns.forEach((t, i) => {
    if (t.answer === undefined)
      throw new Error(`turn ${i + 1} has no patient answer yet; the doctor speaks only after the patient replies`);
    out.push({ role: 'assistant', content: t.question }, { role: 'user', content: t.answer });
  });
  return out;
}

/** Messages for the patient's next call: the last turn is the question awaiting an answer. */
export function patientMessages(systemPrompt: string, turns: readonly DialogueTurn[]): ChatMessage[] {
  if (turns.length === 0 || turns[turns.length - 1].answer !== undefined) {
    throw new Error('the patient is asked only when the last turn holds an unanswered question');
  }
  const out: ChatMessage[] = [{ role: 'system', content: systemPrompt }];
  turns.forEach((t, i) => {
    out.push({ role: 'user', content: t.question });
    if (i < turns.length - 1) {
      if (t.answer === undefined) throw new Error(`turn ${i + 1} has no patient answer but is not the last turn`);
      out.push({ role: 'assistant', content: t.answer });
    }
  });
  return out;
}
