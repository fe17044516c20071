/**
 * One question to the builder model: a CPGBench template rendered (the document travels as a
 * blob, hashed once however many prompts carry it), sent, read by its parser and re-asked with
 * the problems stated up to `maxAttempts` (askStructured). Returns the value, or the reason there
 * is none, with the template used and the attempts made.
 */
import { askStructured, type AnswerParser, type StageLlm } from '../../../pipeline/stage.ts';
import { loadTemplate, type TemplateId } from '../../prompts/templates.ts';
import { promptMessage } from '../../prompts/prompt-message.ts';

export type BuilderAnswer<T> =
  | { ok: true; value: T; template: string; attempts: number; format?: string }
  | { ok: false; error: string; template: string; attempts: number };

export interface BuilderQuestion<T> {
  id: TemplateId;
  language: string;
  vars: Record<string, string>;
  /** Placeholders whose values are sent as blobs (the document). */
  shared?: string[];
  parse: AnswerParser<T>;
}

export async function askBuilder<T>(llm: StageLlm, builder: string, q: BuilderQuestion<T>, maxAttempts: number): Promise<BuilderAnswer<T>> {
  const t = loadTemplate(q.id, q.language);
  const message = promptMessage(llm, t, q.vars, q.shared ?? []);
  const r = await askStructured(llm, { model: builder, messages: [message], role: 'builder' }, q.parse, { maxAttempts });
  if (!r.ok)
    return {
      ok: false,
      error: `${builder}, ${t.identity}: ${r.error}${r.problems.length ? ` (${r.problems.join('; ')})` : ''}`,
      template: t.identity,
      attempts: r.attempts,
    };
  return { ok: true, value: r.value, template: t.identity, attempts: r.attempts, format: r.format };
}
