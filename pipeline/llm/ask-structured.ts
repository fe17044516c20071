/**
 * Asking for structure and re-asking, within a bound, with the problems stated. Each re-ask
 * extends the conversation with the rejected answer and a user turn listing what was wrong, so
 * the attempts are distinct requests (and distinct cache entries) that a rerun replays exactly.
 *
 * When no answer is accepted, every answer of the exchange is handed to the client's `reject`:
 * none is served again, so a retry of the failure starts a fresh exchange instead of replaying
 * the refused answers. An exchange that ends accepted keeps its refused answers cached: they are
 * the conversation its accepted answer came from, and a rerun must replay it without a request.
 */
import type { AnswerFormat } from './answer-format.ts';
import { extractJson } from './structured.ts';
import type { z } from 'zod';
import { answerProblems } from './schema.ts';
import type { ChatMessage, ChatRequest, ChatResult } from './types.ts';

/** A parser's verdict; `format` ('strict' or variant labels, see answer-format.ts) says how it read an accepted answer. */
export type ParseOutcome<T> = { ok: true; value: T; format?: AnswerFormat } | { ok: false; problems: string[] };

/**
 * A parser for `askStructured`. `finishReason` is the API's finish_reason of the answer, when the
 * client reports it: a parser must reject a truncated ('length') answer rather than guess at it.
 */
export type AnswerParser<T> = (text: string, finishReason?: string) => ParseOutcome<T>;

export type StructuredResult<T> =
  | { ok: true; value: T; text: string; attempts: number; cached: boolean; format?: AnswerFormat; finishReason?: string }
  | { ok: false; error: string; problems: string[]; attempts: number; lastText?: string };

/** Anything with a chat method: the client or one of its stage views (which can also `reject`). */
export interface Chatter {
  chat(req: ChatRequest): Promise<ChatResult>;
  reject?(result: ChatResult, reason: string): Promise<void>;
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
  parse: AnswerParser<T>,
  opts: { maxAttempts?: number } = {},
): Promise<StructuredResult<T>> {
  const maxAttempts = opts.maxAttempts ?? 3;
  if (!(maxAttempts >= 1)) throw new Error(`askStructured: maxAttempts must be at least 1, got ${maxAttempts}`);
  const messages: ChatMessage[] = [...req.messages];
  let problems: string[] = [];
  let lastText: string | undefined;
  const refused: { result: ChatResult; reason: string }[] = [];
  const giveUp = async (error: string, attempts: number): Promise<StructuredResult<T>> => {
    for (const { result, reason } of refused) await client.reject?.(result, reason);
    return { ok: false, error, problems, attempts, lastText };
  };
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const r = await client.chat({ ...req, messages: [...messages] });
    if (!r.ok) return giveUp(r.error, attempt);
    lastText = r.text;
    const finishReason = finishReasonOf(r);
    const parsed = parse(r.text, finishReason);
    if (parsed.ok) {
      const extra = {
        ...(parsed.format !== undefined ? { format: parsed.format } : {}),
        ...(finishReason !== undefined ? { finishReason } : {}),
      };
      return { ok: true, value: parsed.value, text: r.text, attempts: attempt, cached: r.cached, ...extra };
    }
    problems = parsed.problems.length ? parsed.problems : ['the answer was rejected without a stated reason'];
    refused.push({ result: r, reason: problems.join('; ') });
    messages.push({ role: 'assistant', content: r.text }, { role: 'user', content: reaskMessage(problems) });
  }
  return giveUp(`no valid answer after ${maxAttempts} attempt${maxAttempts === 1 ? '' : 's'}`, maxAttempts);
}

/**
 * The answer's finish_reason, when the client reports one. Read structurally because the client's
 * result type gains the field separately (as `finishReason`, or the API's own `finish_reason`).
 */
export function finishReasonOf(r: ChatResult): string | undefined {
  const o = r as { finishReason?: unknown; finish_reason?: unknown };
  const v = o.finishReason ?? o.finish_reason;
  return typeof v === 'string' ? v : undefined;
}

/** A parser for `askStructured`: JSON dug out of the answer, then checked against a zod schema. */
export function jsonSchemaParser<T>(schema: z.ZodType<T>): AnswerParser<T> {
  return (text, finishReason) => {
    const j = extractJson(text, { finishReason });
    if (!j.ok) return { ok: false, problems: [j.problem] };
    const problems = answerProblems(j.value, schema);
    return problems.length ? { ok: false, problems } : { ok: true, value: j.value as T, format: j.format };
  };
}
