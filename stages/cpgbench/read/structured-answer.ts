/**
 * The structure in a CPGBench writer's or judge's answer: the JSON value the shared reader
 * (pipeline/llm/structured.ts: reasoning blocks, fences, preambles, trailing notes, trailing
 * commas and comments) digs out, else a Python literal of a dict or list ('python-literal'),
 * which is how a model answers when asked for a "dictionary". A truncated answer is refused.
 * When neither reads, the problem is the JSON reader's (what a re-ask should fix).
 */
import { extractJson, type FormatVariant, prepareAnswer, variantsOf } from '../../../pipeline/stage.ts';
import { literalEnd, parsePythonLiteral } from './python-literal.ts';

export type StructuredAnswer = { ok: true; value: unknown; variants: FormatVariant[] } | { ok: false; problem: string };

export function readStructuredAnswer(text: string, finishReason?: string | null): StructuredAnswer {
  const json = extractJson(text, { finishReason });
  if (json.ok) return { ok: true, value: json.value, variants: variantsOf(json.format) };
  const prepared = prepareAnswer(text, finishReason);
  if (!prepared.ok) return { ok: false, problem: json.problem };
  const answer = prepared.text;
  for (let start = 0; start < answer.length; start++) {
    const c = answer[start];
    if (c !== '{' && c !== '[') continue;
    const end = literalEnd(answer, start);
    if (end < 0) break;
    const lit = parsePythonLiteral(answer.slice(start, end + 1));
    if (lit.ok && typeof lit.value === 'object' && lit.value !== null) {
      const variants: FormatVariant[] = [...prepared.variants, 'python-literal'];
      if (answer.slice(0, start).trim()) variants.push('preamble');
      if (answer.slice(end + 1).trim()) variants.push('trailing-note');
      return { ok: true, value: lit.value, variants };
    }
    start = end;
  }
  return { ok: false, problem: json.problem };
}
