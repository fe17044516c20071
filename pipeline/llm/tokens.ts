/**
 * Token counts for estimates and the context check. Counting is exact (js-tiktoken,
 * o200k_base) but costly in pure JS, so callers first use the free upper bound: an o200k token
 * always covers at least one UTF-8 byte, so a text never has more tokens than bytes.
 */
import { createRequire } from 'node:module';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';

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
