/**
 * Token counts for estimates and the context check. Counting is exact (js-tiktoken,
 * o200k_base) but costly in pure JS, so callers first use the free upper bound: an o200k token
 * always covers at least one UTF-8 byte, so a text never has more tokens than bytes.
 */
import { createRequire } from 'node:module';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import type { ChatMessage } from './types.ts';

let encoder: Tiktoken | null = null;

/** Exact o200k_base token count (special-token text counted as plain text). */
export function countTokens(text: string): number {
  if (!text) return 0;
  // The ranks are a multi-megabyte module and building the encoder takes seconds: both wait
  // for the first exact count, so runs that never need one never pay.
  encoder ??= new Tiktoken(createRequire(import.meta.url)('js-tiktoken/ranks/o200k_base') as TiktokenBPE);
  return encoder.encode(text, [], []).length;
}

/** A bound no smaller than the token count: the UTF-8 byte length. */
export function tokenUpperBound(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Chat framing per message (role markers), as OpenAI's accounting adds. */
export const TOKENS_PER_MESSAGE = 4;
/** Priming tokens the server adds for the reply. */
export const TOKENS_PER_REPLY = 3;

/** Output tokens a request reserves in the window (`max_completion_tokens`, else `max_tokens`; 0 when neither). */
export function outputReserve(params: Readonly<Record<string, unknown>> | undefined): number {
  return Number(params?.max_completion_tokens ?? params?.max_tokens ?? 0) || 0;
}

/**
 * Exact prompt tokens of messages, with chat framing, as the server counts them. A blob part is
 * counted by `blobTokens` (the client's, which knows its blobs); without one, every blob must be resolved.
 */
export function messageTokens(messages: readonly ChatMessage[], blobTokens?: (id: string) => number): number {
  let n = TOKENS_PER_REPLY;
  for (const m of messages) {
    n += TOKENS_PER_MESSAGE;
    if (typeof m.content === 'string') n += countTokens(m.content);
    else
      for (const p of m.content) {
        if (p.type === 'text') n += countTokens(p.text);
        else if (blobTokens) n += blobTokens(p.blob);
        else throw new Error('messageTokens: a blob part is not resolved; count through the client, which knows its blobs');
      }
  }
  return n;
}

/**
 * The text cut after its first `max` o200k tokens (CPGBench sends at most 128K tokens of a
 * document), with its token count. A text whose byte length is within `max` is returned whole
 * without counting (`tokens` null): it cannot hold more tokens than bytes.
 */
export function firstTokens(text: string, max: number): { text: string; tokens: number | null; cut: boolean } {
  if (!(Number.isInteger(max) && max > 0)) throw new RangeError(`firstTokens: max must be a positive integer, got ${max}`);
  if (tokenUpperBound(text) <= max) return { text, tokens: null, cut: false };
  encoder ??= new Tiktoken(createRequire(import.meta.url)('js-tiktoken/ranks/o200k_base') as TiktokenBPE);
  const ids = encoder.encode(text, [], []);
  if (ids.length <= max) return { text, tokens: ids.length, cut: false };
  return { text: encoder.decode(ids.slice(0, max)), tokens: ids.length, cut: true };
}
