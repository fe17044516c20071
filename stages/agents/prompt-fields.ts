/**
 * Reads back the values a rendered prompt was filled with (the guideline, the case vignette,
 * the clinical inquiry goal), so an offline agent that sees only the prompt text can tell which
 * case it is asked about. A template is literal text around its placeholders; a rendered prompt
 * is that text with each placeholder replaced, so it splits at the literal pieces.
 *
 * The literal text between two placeholders could in principle occur inside a value (a
 * guideline holding "## Case Vignette:"), so every split point is offered, in order, and the
 * caller keeps the first whose values it recognises. Line endings are normalised and values
 * are trimmed; leading and trailing whitespace of the whole prompt is ignored.
 *
 * Every language folder under the templates root is tried (a zh translation, when added, is
 * read the same way); a prompt that matches no template yields no split, and callers fall back
 * to searching the prompt for the texts they know.
 */
import { readdirSync } from 'node:fs';
import { DEFAULT_TEMPLATES_ROOT, loadTemplate, type PromptId, type Template } from '../prompts/templates.ts';

export type PromptFields = Record<string, string>;

interface Pattern {
  /** Literal text before, between and after the placeholders (length = names + 1). */
  pieces: string[];
  names: string[];
}

const cache = new Map<string, Pattern[]>();

function patternOf(t: Template): Pattern {
  const pieces: string[] = [];
  const names: string[] = [];
  let last = 0;
  const declared = new Set(t.placeholders);
  for (const m of t.text.matchAll(/\{([A-Za-z][A-Za-z0-9_]*)\}/g)) {
    if (!declared.has(m[1]!)) continue;
    pieces.push(t.text.slice(last, m.index));
    names.push(m[1]!);
    last = m.index! + m[0].length;
  }
  pieces.push(t.text.slice(last));
  return { pieces: pieces.map((p) => p.replace(/\r\n/g, '\n')), names };
}

function patternsFor(id: PromptId, root: string): Pattern[] {
  const key = `${root}\u0000${id}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let languages: string[];
  try {
    languages = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    languages = ['en'];
  }
  const seen = new Set<string>();
  const out: Pattern[] = [];
  for (const lang of languages.sort()) {
    let t: Template;
    try {
      t = loadTemplate(id, lang, { root });
    } catch {
      continue;
    }
    if (seen.has(t.identity)) continue;
    seen.add(t.identity);
    out.push(patternOf(t));
  }
  cache.set(key, out);
  return out;
}

function occurrences(text: string, piece: string, from: number, to: number): number[] {
  const out: number[] = [];
  if (piece === '') return [from];
  for (let i = text.indexOf(piece, from); i >= 0 && i + piece.length <= to; i = text.indexOf(piece, i + 1)) out.push(i);
  return out;
}

function splitsOf(text: string, p: Pattern): PromptFields[] {
  const head = p.pieces[0]!.trimStart();
  const tail = p.pieces[p.pieces.length - 1]!.trimEnd();
  if (!text.startsWith(head) || !text.endsWith(tail) || head.length + tail.length > text.length) return [];
  const out: PromptFields[] = [];
  const end = text.length - tail.length;
  // Depth-first over the split points of each middle piece; templates have at most two placeholders.
  const walk = (k: number, pos: number, acc: string[]) => {
    if (k === p.names.length - 1) {
      out.push(Object.fromEntries(p.names.map((n, i) => [n, (i === k ? text.slice(pos, end) : acc[i]!).trim()])));
      return;
    }
    const piece = p.pieces[k + 1]!;
    for (const at of occurrences(text, piece, pos, end)) walk(k + 1, at + piece.length, [...acc, text.slice(pos, at)]);
  };
  if (p.names.length === 0) return text.trim() === p.pieces[0]!.trim() ? [{}] : [];
  walk(0, head.length, []);
  return out;
}

/** Every way `prompt` splits as a rendering of prompt `id` (empty when it is not one). */
export function promptFields(id: PromptId, prompt: string, root: string = DEFAULT_TEMPLATES_ROOT): PromptFields[] {
  const text = prompt.replace(/\r\n?/g, '\n').trim();
  return patternsFor(id, root).flatMap((p) => splitsOf(text, p));
}
