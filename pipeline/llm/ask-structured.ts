/**
 * Asking for structure and re-asking, within a bound, with the problems stated. Each re-ask
 * extends the conversation with the rejected answer and a user turn listing what was wrong, so
 * the attempts are distinct requests (and distinct cache entries) that a rerun replays exactly.
 */
import { extractJson } from './structured.ts';
import { validateSchema, type Schema } from './schema.ts';
import type { ChatMessage, ChatRequest, ChatResult } from './types.ts';

export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; problems: string[] };

export type StructuredResult<T> =
  | { ok: true; value: T; text: string; attempts: number; cached: boolean }
  | { ok: false; error: string; problems: string[]; attempts: number; lastText?: string };

/** Anything with a chat method: the client or one of its stage views. */
export interface Chatter {
  chat(req: ChatRequest): Promise<ChatResult>;
}

/** The user turn sent after a rejected answer. */
export function reaskMessage(problems: readonly string[]): string {
  return (
    'Your previous answer could not be used:\n' +
    problems.map((p) => `- ${p}`).join('\n') +
    '\nPlease answer again with the complete corrected output only, in the required format.'
  );
}

/**
 * Sends `req`, parses the answer with `parse`, and re-asks up to `maxAttempts` answers in all.
 * A transport failure (the call itself failed) ends the loop at once: re-asking cannot fix it.
 */
export async function askStructured<T>(
  client: Chatter,
  req: ChatRequest,
  parse: (text: string) => ParseOutcome<T>,
  opts: { maxAttempts?: number } = {},
): Promise<StructuredResult<T>> {
  const maxAttempts = opts.maxAttempts ?? 3;
  if (!(maxAttempts >= 1)) throw new Error(`askStructured: maxAttempts must be at least 1, got ${maxAttempts}`);
  const messages: ChatMessage[] = [...req.messages];
  let problems: string[] = [];
  let lastText: string | undefined;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const r = await client.chat({ ...req, messages: [...messages] });
    if (!r.ok) return { ok: false, error: r.error, problems, attempts: attempt, lastText };
    lastText = r.text;
    const parsed = parse(r.text);
    if (parsed.ok) return { ok: true, value: parsed.value, text: r.text, attempts: attempt, cached: r.cached };
    problems = parsed.problems.length ? parsed.problems : ['the answer was rejected without a stated reason'];
    messages.push({ role: 'assistant', content: r.text }, { role: 'user', content: reaskMessage(problems) });
  }
  return { ok: false, error: `no valid answer after ${maxAttempts} attempt${maxAttempts === 1 ? '' : 's'}`, problems, attempts: maxAttempts, lastText };
}

/** A parser for `askStructured`: JSON dug out of the answer, then checked against a schema. */
export function jsonSchemaParser<T = unknown>(schema: Schema): (text: string) => ParseOutcome<T> {
  return (text) => {
    const j = extractJson(text);
    if (!j.ok) return { ok: false, problems: [j.problem] };
    const problems = validateSchema(j.value, schema);
    return problems.length ? { ok: false, problems } : { ok: true, value: j.value as T };
  };
}
