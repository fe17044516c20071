/**
 * Helpers for models that answer with structure wrapped in prose: reasoning blocks to drop,
 * JSON inside fences or chatter to dig out. Pure string functions; the re-ask loop that uses
 * them lives with the client. Each accepted answer says which variants it needed
 * (answer-format.ts), so strict figures can still be computed.
 */
import { formatOf, truncationReason, type AnswerFormat, type FormatVariant } from './answer-format.ts';
import { parseLenientJson } from './lenient-json.ts';

const OPEN = /<(think|thinking|reasoning)\b[^>]*>/i;
const ONLY_REASONING = 'the answer is only reasoning: a <think> block was opened and never closed';

/** The answer without reasoning blocks, whether any were dropped, and whether nothing but reasoning was there. */
export interface ReasoningSplit {
  answer: string;
  hadReasoning: boolean;
  /** An unclosed block opened before any answer text: the model only reasoned (or was cut off doing so). */
  onlyReasoning: boolean;
}

/**
 * Splits off reasoning blocks (`<think>…</think>`, also `<thinking>` and `<reasoning>`). A block
 * that was opened but never closed swallows the rest of the text: reasoning models cut off
 * mid-thought leave an unclosed tag, and what came before it is still the answer. When nothing
 * came before it, there is no answer at all.
 */
export function readReasoning(text: string): ReasoningSplit {
  let out = text.replace(/<(think|thinking|reasoning)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '');
  let hadReasoning = out !== text;
  // Some servers strip the opening tag and leave only the closing one (the reasoning precedes it).
  const lone = out.match(/^[\s\S]*?<\/(think|thinking|reasoning)\s*>/i);
  if (lone) {
    out = out.slice(lone[0].length);
    hadReasoning = true;
  }
  let onlyReasoning = false;
  const open = out.search(OPEN);
  if (open >= 0) {
    onlyReasoning = out.slice(0, open).trim() === '';
    out = out.slice(0, open);
    hadReasoning = true;
  }
  return { answer: out.trim(), hadReasoning, onlyReasoning };
}

/** The answer without reasoning blocks (see `readReasoning`). */
export function stripReasoning(text: string): string {
  return readReasoning(text).answer;
}

/** An answer ready for a reader, or why there is nothing to read. */
export type PreparedAnswer = { ok: true; text: string; variants: FormatVariant[] } | { ok: false; reason: string };

/**
 * What every text reader does first: refuse a truncated answer (never guess at it), drop reasoning
 * blocks, normalise line ends, drop code-fence lines, and refuse an empty or reasoning-only answer.
 */
export function prepareAnswer(raw: string, finishReason?: string | null): PreparedAnswer {
  const truncated = truncationReason(finishReason);
  if (truncated) return { ok: false, reason: truncated };
  const variants: FormatVariant[] = [];
  const r = readReasoning(raw.replace(/\r\n?/g, '\n'));
  if (r.hadReasoning) variants.push('think-block');
  if (r.answer === '') {
    if (raw.trim() === '') return { ok: false, reason: 'the answer is empty' };
    if (r.onlyReasoning) return { ok: false, reason: `${ONLY_REASONING}, and no answer follows it` };
    return { ok: false, reason: 'the answer is empty once reasoning blocks are removed' };
  }
  const lines = r.answer.split('\n');
  const kept = lines.filter((l) => !/^\s*```/.test(l));
  if (kept.length !== lines.length) variants.push('fence');
  const text = kept.join('\n').trim();
  if (text === '') return { ok: false, reason: 'the answer is an empty code fence' };
  return { ok: true, text, variants };
}

/** The outcome of digging JSON out of an answer. */
export type JsonExtraction = { ok: true; value: unknown; format: AnswerFormat } | { ok: false; problem: string };

/**
 * Finds the JSON value in a model's answer: the whole answer if it parses, else the first fenced
 * block that parses, else the first top-level {…} or […] span that parses — never a value nested
 * inside a span that failed, which would be a fragment of the answer (a tree's first node) and
 * earn a misleading re-ask. Trailing commas and comments are accepted and recorded. When nothing
 * parses, the problem is the JSON error of the largest candidate, with the text near it.
 */
export function extractJson(text: string, opts: { finishReason?: string | null } = {}): JsonExtraction {
  const truncated = truncationReason(opts.finishReason);
  if (truncated) return { ok: false, problem: truncated };
  const r = readReasoning(text);
  const answer = r.answer;
  const base: FormatVariant[] = r.hadReasoning ? ['think-block'] : [];
  if (answer === '') {
    if (r.onlyReasoning) return { ok: false, problem: `${ONLY_REASONING}, and no JSON follows it` };
    return { ok: false, problem: 'the answer is empty' };
  }
  const failures: { size: number; error: string }[] = [];
  const attempt = (s: string, around: FormatVariant[], what: string): JsonExtraction | null => {
    const p = parseLenientJson(s);
    if (p.ok) return { ok: true, value: p.value, format: formatOf([...base, ...around, ...p.variants]) };
    failures.push({ size: s.length, error: `${what} is not valid JSON (even allowing trailing commas and comments): ${p.error}` });
    return null;
  };
  const edges = (start: number, end: number): FormatVariant[] => [
    ...(answer.slice(0, start).trim() ? (['preamble'] as const) : []),
    ...(answer.slice(end).trim() ? (['trailing-note'] as const) : []),
  ];

  try {
    return { ok: true, value: JSON.parse(answer), format: formatOf(base) }; // any JSON value, scalars included
  } catch {
    // not JSON as it stands; look for it inside
  }
  const whole = /^[[{][\s\S]*[\]}]$/.test(answer) ? attempt(answer, [], 'the answer') : null;
  if (whole) return whole;
  for (const m of answer.matchAll(/```[a-zA-Z]*[ \t]*\n?([\s\S]*?)```/g)) {
    const fenced = attempt(m[1].trim(), ['fence', ...edges(m.index!, m.index! + m[0].length)], 'the fenced block');
    if (fenced) return fenced;
  }
  let unclosed: string | null = null;
  for (let start = 0; start < answer.length; start++) {
    const c = answer[start];
    if (c !== '{' && c !== '[') continue;
    const end = balancedEnd(answer, start);
    if (end < 0) {
      unclosed ??= `the JSON ${c === '{' ? 'object' : 'array'} that starts with ${JSON.stringify(answer.slice(start, start + 30))} never closes`;
      break;
    }
    const span = attempt(answer.slice(start, end + 1), edges(start, end + 1), `the ${c === '{' ? 'object' : 'array'} in the answer`);
    if (span) return span;
    start = end; // skip what is nested inside the failed span
  }
  if (failures.length) return { ok: false, problem: failures.reduce((a, b) => (b.size > a.size ? b : a)).error };
  if (unclosed) return { ok: false, problem: unclosed };
  return { ok: false, problem: 'the answer contains no parseable JSON object or array' };
}

/** Index of the bracket closing the one at `start`, skipping brackets inside JSON strings; -1 if none. */
function balancedEnd(s: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}
