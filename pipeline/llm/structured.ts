/**
 * Helpers for models that answer with structure wrapped in prose: reasoning blocks to drop,
 * JSON inside fences or chatter to dig out. Pure string functions; the re-ask loop that uses
 * them lives with the client.
 */

/**
 * Removes reasoning blocks (`<think>…</think>`, also `<thinking>` and `<reasoning>`). A block
 * that was opened but never closed swallows the rest of the text only when nothing follows the
 * answer otherwise: reasoning models cut off mid-thought leave an unclosed tag, and what came
 * before it is still the answer.
 */
export function stripReasoning(text: string): string {
  let out = text.replace(/<(think|thinking|reasoning)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '');
  // Some servers strip the opening tag and leave only the closing one (the reasoning precedes it).
  const lone = out.match(/^[\s\S]*?<\/(think|thinking|reasoning)\s*>/i);
  if (lone) out = out.slice(lone[0].length);
  const open = out.search(/<(think|thinking|reasoning)\b[^>]*>/i);
  if (open >= 0) out = out.slice(0, open);
  return out.trim();
}

/** The outcome of digging JSON out of an answer. */
export type JsonExtraction = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * Finds the JSON value in a model's answer: the whole answer if it parses, else the first fenced
 * block that parses, else the first balanced {…} or […] span that parses.
 */
export function extractJson(text: string): JsonExtraction {
  const answer = stripReasoning(text);
  const tryParse = (s: string): JsonExtraction | null => {
    try {
      return { ok: true, value: JSON.parse(s) };
    } catch {
      return null;
    }
  };
  const whole = tryParse(answer);
  if (whole) return whole;
  for (const m of answer.matchAll(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/g)) {
    const fenced = tryParse(m[1].trim());
    if (fenced) return fenced;
  }
  for (let start = 0; start < answer.length; start++) {
    const c = answer[start];
    if (c !== '{' && c !== '[') continue;
    const end = balancedEnd(answer, start);
    if (end < 0) continue;
    const span = tryParse(answer.slice(start, end + 1));
    if (span) return span;
  }
  return { ok: false, problem: answer.length ? 'the answer contains no parseable JSON object or array' : 'the answer is empty' };
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
