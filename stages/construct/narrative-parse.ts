/**
 * Reads a reasoning-narrative answer (Prompt 3): a JSON array of statements, one per decision step
 * of the reference CDP and one for the conclusion. The JSON is dug out of fences, preambles and
 * reasoning blocks, with trailing commas and comments allowed (extractJson); a truncated answer
 * (finish_reason "length") is refused as such. Faults: no JSON, not an array, a statement that is
 * not a non-empty string, or the wrong number of statements. Accepted answers record `format`.
 */
import { type AnswerFormat, extractJson } from '../../pipeline/stage.ts';

export type NarrativeParse = { ok: true; steps: string[]; format: AnswerFormat } | { ok: false; problems: string[] };

/** `expected` is the number of statements: the CDP's decision steps plus one for the conclusion. */
export function parseNarrative(text: string, expected: number, finishReason?: string | null): NarrativeParse {
  if (!Number.isInteger(expected) || expected < 1) {
    throw new RangeError(`parseNarrative: expected = ${expected} statements must be an integer ≥ 1 (steps + 1 for the conclusion)`);
  }
  const j = extractJson(text, { finishReason });
  if (!j.ok) return { ok: false, problems: [j.problem] };
  if (!Array.isArray(j.value)) {
    const got = j.value === null ? 'null' : typeof j.value === 'object' ? 'an object' : `a ${typeof j.value}`;
    return { ok: false, problems: [`the answer must be a JSON array of ${expected} statements (strings), but is ${got}`] };
  }
  const problems: string[] = [];
  j.value.forEach((s, k) => {
    if (typeof s !== 'string') problems.push(`statement ${k + 1} is ${s === null ? 'null' : `a ${typeof s}`}, not a string`);
    else if (s.trim() === '') problems.push(`statement ${k + 1} is empty`);
  });
  if (j.value.length !== expected) {
    problems.push(`expected ${expected} statements (one per decision step and one for the conclusion), got ${j.value.length}`);
  }
  return problems.length ? { ok: false, problems } : { ok: true, steps: j.value as string[], format: j.format };
}
