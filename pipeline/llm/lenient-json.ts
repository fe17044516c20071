/**
 * JSON as models write it when they mean JSON: strict JSON, or JSON with trailing commas and
 * `//` or `/* *\/` comments, which a human reads without doubt. Nothing else is repaired: single
 * quotes, unquoted keys or a missing bracket are real faults, reported with JSON.parse's message
 * and the text around the position it names, so a re-ask can state the real problem.
 */
import type { FormatVariant } from './answer-format.ts';

export type LenientJson = { ok: true; value: unknown; variants: FormatVariant[] } | { ok: false; error: string };

/** Removes comments and trailing commas outside strings; records which it removed. */
function relax(s: string): { text: string; variants: FormatVariant[] } {
  let out = '';
  const variants = new Set<FormatVariant>();
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      out += c;
      if (c === '\\') out += s[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && s[i + 1] === '/') {
      while (i < s.length && s[i] !== '\n') i++;
      out += '\n';
      variants.add('lenient-json:comment');
    } else if (c === '/' && s[i + 1] === '*') {
      const end = s.indexOf('*/', i + 2);
      i = end < 0 ? s.length : end + 1;
      out += ' ';
      variants.add('lenient-json:comment');
    } else {
      out += c;
    }
  }
  // A second pass so a comment between the comma and the bracket does not hide the comma.
  let text = '';
  inString = false;
  for (let i = 0; i < out.length; i++) {
    const c = out[i];
    if (inString) {
      text += c;
      if (c === '\\') text += out[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === ',') {
      let j = i + 1;
      while (j < out.length && /\s/.test(out[j])) j++;
      if (out[j] === '}' || out[j] === ']') {
        variants.add('lenient-json:trailing-comma');
        continue;
      }
    }
    text += c;
  }
  return { text, variants: [...variants] };
}

function near(s: string, message: string): string {
  const at = /position (\d+)/.exec(message);
  if (!at) return '';
  const p = Number(at[1]);
  const snippet = s.slice(Math.max(0, p - 25), p + 25).replace(/\s+/g, ' ');
  return ` near ${JSON.stringify(snippet)}`;
}

export function parseLenientJson(s: string): LenientJson {
  try {
    return { ok: true, value: JSON.parse(s), variants: [] };
  } catch {
    // fall through to the relaxed reading
  }
  const relaxed = relax(s);
  try {
    return { ok: true, value: JSON.parse(relaxed.text), variants: relaxed.variants };
  } catch (e) {
    const message = (e as Error).message;
    return { ok: false, error: `${message}${near(relaxed.text, message)}` };
  }
}
