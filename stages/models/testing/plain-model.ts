/**
 * A model for tests and benchmarks that answers every prompt of the benchmark the way a small
 * chat model would — in the required format, without knowing the case — so a run against a
 * local OpenAI-compatible server goes end to end with known request counts. `style` changes how
 * many steps and questions it gives, so two "models" get different numbers.
 *
 * Prompts are told apart by their template text (loadTemplate), as a server would see them.
 */
import type { ChatBody } from '../../../pipeline/llm/testing/fake-openai-server.ts';
import { loadTemplate, type PromptId } from '../../prompts/templates.ts';
import { PROMPT_IDS } from '../../prompts/prompt-registry.ts';

export type PromptKind = PromptId | 'unknown';

const KINDS: readonly PromptId[] = PROMPT_IDS;
const prefixes = KINDS.map((id) => {
  const t = loadTemplate(id, 'en').text;
  return [id, t.slice(0, Math.min(t.indexOf('{') < 0 ? 200 : t.indexOf('{'), 200))] as const;
});

/** Which prompt a request carries (its first message). */
export function promptKind(body: Pick<ChatBody, 'messages'>): PromptKind {
  const first = body.messages[0]?.content ?? '';
  // Prompts 5 and 8 share their opening: the longest matching prefix wins.
  let best: PromptKind = 'unknown';
  let len = 0;
  for (const [id, p] of prefixes) if (first.startsWith(p) && p.length > len) [best, len] = [id, p.length];
  return best;
}

export interface PlainStyle {
  /** Steps in a single-turn answer. */
  steps: number;
  /** Questions the doctor asks before concluding. */
  questions: number;
}

export function plainAnswer(body: ChatBody, style: PlainStyle = { steps: 2, questions: 2 }): string {
  const kind = promptKind(body);
  switch (kind) {
    case 'single-turn-inference': {
      const steps = Array.from(
        { length: style.steps },
        (_, i) => `${i + 1}. The patient's finding ${i + 1} meets the guideline's criterion ${i + 1}.`,
      );
      return `### Clinical Decision Process:\n${steps.join('\n')}\n### Clinical Decision Outcome: Manage according to the guideline's recommendation.`;
    }
    case 'multi-turn-inference': {
      const asked = body.messages.filter((m) => m.role === 'assistant').length;
      return asked < style.questions
        ? `Does the patient have finding number ${asked + 1}?`
        : "Final Conclusion: Manage according to the guideline's recommendation.";
    }
    case 'multi-turn-patient-environment':
      return body.messages.filter((m) => m.role === 'user').length % 2 ? 'Yes.' : 'No.';
    case 'single-turn-step-level-consistency-scoring':
    case 'multi-turn-step-level-consistency-scoring': {
      const text = body.messages[0].content;
      // "labeled sequentially from R1 to R<m>": the prompt's own statement of the sizes.
      const m = Number(/from R1 to R(\d+)/.exec(text)?.[1] ?? 0);
      const n = Number(/from C1 to C(\d+)/.exec(text)?.[1] ?? 0);
      const lines = Array.from({ length: m }, (_, i) =>
        Array.from({ length: n }, (_, j) => `R${i + 1}-C${j + 1}: ${i === j ? 4 : 2}`).join(', '),
      );
      return lines.join('\n');
    }
    case 'outcome-accuracy-scoring':
      return '4';
    default:
      // Anything else (a `cdp models --check` probe, say) gets a plain short answer.
      return 'OK.';
  }
}
