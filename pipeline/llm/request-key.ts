/**
 * Content addresses for calls. The cache key covers what determines an answer and nothing
 * that does not: the model id, the messages, every sampling parameter, the response format
 * and the repeat index. Endpoints, keys and stage names stay out of it, so moving a model to
 * another replica or provider of the same id keeps its cache. Shared blobs enter by their own
 * hash, computed once when registered, so a 40K-token guideline is not rehashed per call.
 */
import { hash } from 'node:crypto';
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
  let s = '';
  for (const m of messages) {
    s += m.role + ':';
    if (typeof m.content === 'string') s += 's' + m.content.length + ':' + m.content;
    else for (const p of m.content) s += p.type === 'blob' ? 'b:' + p.blob : 't' + p.text.length + ':' + p.text;
    s += ';';
  }
  return sha256Hex(s);
}

/** The cache key: 64 hex characters. */
export function callKey(
  modelId: string,
  prompt: string,
  params: Record<string, unknown>,
  responseFormat: unknown,
  repeat: number,
  sample?: string,
): string {
  return callKeyCanonical(modelId, prompt, canonicalJson(params), responseFormat, repeat, sample);
}

/** `callKey` with the parameters already in canonical form (a model's defaults, computed once). */
export function callKeyCanonical(
  modelId: string,
  prompt: string,
  canonicalParams: string,
  responseFormat: unknown,
  repeat: number,
  sample?: string,
): string {
  const rf = responseFormat == null ? 'null' : canonicalJson(responseFormat);
  // A call without a sample keeps the key it always had, so existing caches stay valid.
  const tail = sample === undefined ? '' : `\u0000sample:${sample.length}:${sample}`;
  return sha256Hex(`cdp-llm-v1\u0000${modelId}\u0000${prompt}\u0000${canonicalParams}\u0000${rf}\u0000${repeat}${tail}`);
}

/**
 * The version of how a sample's seed is derived (here and in providers/live.ts). It is part of
 * every model's identity in the stages' keys, so a new rule (new seeds, new answers) recomputes
 * the units that call a model: change it whenever the seeds sent change.
 */
export const SEED_RULE = 'cdp-seed-v1';

/** The reproducible seed of one sample: 31 bits of its hash, so every server accepts it as an int. */
export function sampleSeed(sample: string, repeat: number): number {
  return parseInt(sha256Hex(`${SEED_RULE}\u0000${sample}\u0000${repeat}`).slice(0, 8), 16) & 0x7fffffff;
}
