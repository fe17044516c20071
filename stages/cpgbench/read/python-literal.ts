/**
 * A Python literal as models print a "dictionary" or a "list of dictionaries" when asked for
 * one: `{'score': 1, 'rationale': "the patient's …", 'confidence': 0.9}`, `True`/`False`/`None`,
 * tuples. The CPGBench paper asks its writer and its judge for a "dictionary"; a model that
 * answers in Python's notation has answered clearly, in another notation, so the readers accept
 * it and label it 'python-literal'.
 *
 * Only literals: strings in single or double quotes (with Python's escapes), numbers, the three
 * constants, lists, tuples and dicts with string keys. Anything else (a name, a call, an
 * unclosed bracket) is a fault, reported with its position.
 */

export type PythonLiteral = { ok: true; value: unknown } | { ok: false; error: string };

class Fault extends Error {}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0', b: '\b', f: '\f' };

export function parsePythonLiteral(text: string): PythonLiteral {
  let i = 0;
  const s = text;
  const fail = (what: string): never => {
    throw new Fault(`${what} at position ${i} (near ${JSON.stringify(s.slice(Math.max(0, i - 10), i + 20))})`);
  };
  const space = () => {
    while (i < s.length && /\s/.test(s[i]!)) i++;
  };
  const str = (): string => {
    const q = s[i++]!;
    let out = '';
    while (i < s.length && s[i] !== q) {
      if (s[i] === '\\') {
        const e = s[i + 1] ?? '';
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(s.slice(i + 2, i + 6), 16));
          i += 6;
          continue;
        }
        out += ESCAPES[e] ?? `\\${e}`;
        i += 2;
      } else if (s[i] === '\n') fail('a line break inside a string');
      else out += s[i++];
    }
    if (i >= s.length) fail('a string that never closes');
    i++;
    return out;
  };
  const seq = (close: string): unknown[] => {
    i++;
    const out: unknown[] = [];
    for (;;) {
      space();
      if (s[i] === close) return (i++, out);
      out.push(value());
      space();
      if (s[i] === ',') i++;
      else if (s[i] !== close) fail(`expected "," or "${close}"`);
    }
  };
  const dict = (): Record<string, unknown> => {
    i++;
    const out: Record<string, unknown> = {};
    for (;;) {
      space();
      if (s[i] === '}') return (i++, out);
      if (s[i] !== "'" && s[i] !== '"') fail('a dictionary key that is not a string');
      const k = str();
      space();
      if (s[i] !== ':') fail('expected ":" after a key');
      i++;
      out[k] = value();
      space();
      if (s[i] === ',') i++;
      else if (s[i] !== '}') fail('expected "," or "}"');
    }
  };
  const value = (): unknown => {
    space();
    const c = s[i];
    if (c === '{') return dict();
    if (c === '[') return seq(']');
    if (c === '(') return seq(')');
    if (c === "'" || c === '"') {
      let out = str();
      // Adjacent literals concatenate, as in Python ('a' 'b').
      for (space(); s[i] === "'" || s[i] === '"'; space()) out += str();
      return out;
    }
    const word = /^(True|False|None|-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/.exec(s.slice(i));
    if (!word) return fail('not a Python literal');
    i += word[0].length;
    return word[0] === 'True' ? true : word[0] === 'False' ? false : word[0] === 'None' ? null : Number(word[0]);
  };
  try {
    const v = value();
    space();
    if (i < s.length) fail('text after the literal');
    return { ok: true, value: v };
  } catch (e) {
    if (e instanceof Fault) return { ok: false, error: e.message };
    throw e;
  }
}

/** Index of the bracket closing the one at `start`, skipping brackets in '…' and "…" strings; -1 if none. */
export function literalEnd(s: string, start: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}
