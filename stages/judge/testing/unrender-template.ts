/**
 * The inverse of renderTemplate for templates whose placeholders each occur once (Prompt 9):
 * given the rendered prompt, returns the value of each placeholder. Test support: a scripted
 * judge behind a local server reads the two conclusions back out of an outcome-scoring prompt
 * with it. (Offline judges answer from the call's context instead: judge-context.ts.)
 *
 * Ambiguity: the fixed text between two placeholders is searched for from the left, so a value
 * that itself contains that whole separator (e.g. a reference conclusion holding the line
 * "## Candidate Clinical Conclusion:") is cut at its first copy. No real conclusion does.
 */
import type { Template } from '../../prompts/templates.ts';

export function unrenderTemplate(t: Template, prompt: string): Record<string, string> | null {
  const parts: Array<{ text: string } | { name: string }> = [];
  const re = /\{([A-Za-z][A-Za-z0-9_]*)\}/g;
  const declared = new Set(t.placeholders);
  let last = 0;
  for (const m of t.text.matchAll(re)) {
    if (!declared.has(m[1])) continue;
    parts.push({ text: t.text.slice(last, m.index) }, { name: m[1] });
    last = m.index + m[0].length;
  }
  parts.push({ text: t.text.slice(last) });
  const names = parts.flatMap((p) => ('name' in p ? [p.name] : []));
  if (new Set(names).size !== names.length) {
    throw new Error(
      `template ${t.identity} uses a placeholder more than once; unrenderTemplate reads back only templates whose placeholders occur once (Prompt 9)`,
    );
  }

  const head = (parts[0] as { text: string }).text;
  const tail = (parts[parts.length - 1] as { text: string }).text;
  if (!prompt.startsWith(head) || !prompt.endsWith(tail) || prompt.length < head.length + tail.length) return null;
  let rest = prompt.slice(head.length, prompt.length - tail.length);
  const out: Record<string, string> = {};
  for (let k = 1; k < parts.length - 1; k += 2) {
    const name = (parts[k] as { name: string }).name;
    if (k + 1 === parts.length - 1) {
      out[name] = rest;
      break;
    }
    const sep = (parts[k + 1] as { text: string }).text;
    const at = rest.indexOf(sep);
    if (at < 0) return null;
    out[name] = rest.slice(0, at);
    rest = rest.slice(at + sep.length);
  }
  return out;
}
