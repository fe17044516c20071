/**
 * What an offline agent reads from a call: the unit's rows in the request's context
 * (stages/tasks/unit-context.ts), never the rendered prompt. The one thing taken from the
 * messages is their layout (stages/prompts/dialogue-messages.ts): a doctor's chat opens with its
 * system message (Prompt 6), a single-turn call has none, so an agent called without a context
 * still answers in the right format. So it declares `answersFromContext`: the client hands it the
 * messages' roles without their text.
 */
import type { Provider, ProviderPrompt, ProviderResponse } from '../../pipeline/llm/types.ts';
import { unitContextOf, type UnitContext } from '../tasks/unit-context.ts';

export type { UnitContext } from '../tasks/unit-context.ts';

/** The doctor's earlier questions with the patient's answers, as the walking agents use them. */
export type DoctorTurns = Array<{ question: string; answer: 'yes' | 'no' }>;

export function isDoctorCall(prompt: Pick<ProviderPrompt, 'messages'>, unit: UnitContext | null): boolean {
  return unit?.dialogue !== undefined || prompt.messages[0]?.role === 'system';
}

export function doctorTurns(unit: UnitContext | null): DoctorTurns {
  return (unit?.dialogue ?? []).map((t) => ({ question: t.question, answer: t.answer === 'Yes' ? 'yes' : 'no' }));
}

/** An offline agent as a provider: `answer` gets the prompt and the call's unit context (or null). */
export function agentProvider(answer: (prompt: ProviderPrompt, unit: UnitContext | null) => string | ProviderResponse): Provider {
  return {
    answersFromContext: true,
    async callApi(prompt, context) {
      const r = answer(prompt, unitContextOf(context));
      return typeof r === 'string' ? { output: r } : r;
    },
  };
}
