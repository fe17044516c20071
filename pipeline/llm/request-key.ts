/**
 * Content addresses for calls. The cache key covers what determines an answer and nothing
 * that does not: the model id, the messages, every sampling parameter, the response format,
 * the repeat index, the sample (when it keys the call) and the seed sent (seedOf). Endpoints, keys and stage names stay out of it, so moving a model to
 * another replica or provider of the same id keeps its cache. Shared blobs enter by their own
 * hash, computed once when registered, so a 40K-token guideline is not rehashed per call.
 */
import { hash } from 'node:crypto';
import { tokenUpperBound, TOKENS_PER_MESSAGE, TOKENS_PER_REPLY } from './tokens.ts';
import type { ChatMessage } from './types.ts';

export function sha256Hex(s: string): string {
  // One-shot hashing: no Hash object per call, which matters when replaying a million hits.
  return hash('sha256', s, 'hex');
}

/** JSON with object keys sorted at every depth, so equal values hash equally. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return '[' + v.map(canonicalJson).join(',') + ']';
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalJson(o[k])).join(',') + '}';
}

/**
 * Hash of the messages alone (the `prompt_hash` of the call log). The encoding is
 * length-prefixed — `role:` then `s<len>:<text>` for string content or `b:<blob hash>` /
 * `t<len>:<text>` per part, then `;` — so no content can forge a message boundary.
 */
export function promptHash(messages: readonly ChatMessage[]): string {
  return promptIdentity(messages, () => 0).hash;
}

/**
 * The prompt hash and, from the same pass over the messages, the prompt's byte bound on its
 * tokens with chat framing (tokens.ts; a blob counts its registered size, `blobBytes`): a call's
 * prompt is read once for its key, its context check and its rate limits.
 */
export function promptIdentity(messages: readonly ChatMessage[], blobBytes: (id: string) => number): { hash: string; bound: number } {
  let s = '';
  let bound = TOKENS_PER_REPLY;
  for (const m of messages) {
    bound += TOKENS_PER_MESSAGE;
    s += m.role + ':';
    if (typeof m.content === 'string') {
      s += 's' + m.content.length + ':' + m.content;
      bound += tokenUpperBound(m.content);
    } else
      for (const p of m.content) {
        if (p.type === 'blob') {
          s += 'b:' + p.blob;
          bound += blobBytes(p.blob);
        } else {
          s += 't' + p.text.length + ':' + p.text;
          bound += tokenUpperBound(p.text);
        }
      }
    s += ';';
  }
  return { hash: sha256Hex(s), bound };
}

/**
 * The cache key: 64 hex characters. `seed` is the seed the call's first attempt is sent with
 * (seedOf; undefined when none is sent or the params fix one, which the params then key).
 *
 * Version 2 (`cdp-llm-v2`) keys the seed: since every sampled call now carries one, an answer
 * cached under version 1 — when judge repeat 0 and outcome calls went without a seed — is not
 * served as if it had been sent with one; a store's calls from before are asked once more.
 */
export function callKey(
  modelId: string,
  prompt: string,
  params: Record<string, unknown>,
  responseFormat: unknown,
  repeat: number,
  sample?: string,
  seed?: number,
): string {
  return callKeyCanonical(modelId, prompt, canonicalJson(params), responseFormat, repeat, sample, seed);
}

/** `callKey` with the parameters already in canonical form (a model's defaults, computed once). */
export function callKeyCanonical(
  modelId: string,
  prompt: string,
  canonicalParams: string,
  responseFormat: unknown,
  repeat: number,
  sample?: string,
  seed?: number,
): string {
  const rf = responseFormat == null ? 'null' : canonicalJson(responseFormat);
  const s = sample === undefined ? '' : `\u0000sample:${sample.length}:${sample}`;
  const sd = seed === undefined ? '-' : String(seed);
  return sha256Hex(`cdp-llm-v2\u0000${modelId}\u0000${prompt}\u0000${canonicalParams}\u0000${rf}\u0000${repeat}${s}\u0000seed:${sd}`);
}

/**
 * The version of which calls get which seed (seedOf). It is part of every model's identity in
 * the stages' keys, so a new rule (new seeds, new answers) recomputes the units that call a
 * model: change it whenever the seeds sent change. v2: every sampled call carries a seed (v1:
 * only samples, repeats > 0 and fresh attempts).
 */
export const SEED_RULE = 'cdp-seed-v2';

/**
 * The reproducible seed of one sample: 31 bits of its hash, so every server accepts it as an
 * int. Its derivation is unchanged since v1, so a case's seed is the one it always had.
 */
export function sampleSeed(sample: string, repeat: number): number {
  return parseInt(sha256Hex(`cdp-seed-v1\u0000${sample}\u0000${repeat}`).slice(0, 8), 16) & 0x7fffffff;
}

/** What a call is a sample of, for its seed: its `sample` (a case) when that keys it, else its own prompt. */
export interface SeedUnit {
  sample?: string;
  promptHash: string;
  repeat: number;
  /** Fresh attempts before this one (answers rejected earlier). */
  attempt: number;
}

/**
 * The seed a call is sent with, so every sampled call can be reproduced: derived from its unit
 * (the sample, else the prompt) and repeat, and from its fresh attempt, so a retry after a
 * rejected answer is another sample. None when the params fix a seed (that one is sent) or when
 * the call is greedy (temperature 0) and neither a sample, a repeat nor a fresh attempt asks for
 * a distinct draw. An unset temperature counts as sampled: servers' defaults are above 0.
 */
export function seedOf(params: Readonly<Record<string, unknown>>, u: SeedUnit): number | undefined {
  if (params.seed !== undefined) return undefined;
  if (params.temperature === 0 && u.sample === undefined && u.repeat === 0 && u.attempt === 0) return undefined;
  const unit = u.sample ?? `prompt:${u.promptHash}`;
  return sampleSeed(u.attempt > 0 ? `${unit}\u0000fresh:${u.attempt}` : unit, u.repeat);
}
