/**
 * Some top-level members of a canonical NDJSON line, parsed without parsing the rest: a summary
 * that reads three numbers of a row holding a transcript and a score matrix never builds the
 * transcript or the matrix. One pass over the line finds each member's extent (tracking strings and
 * nesting); only the wanted values are handed to JSON.parse.
 */
import type { Row } from '../dag/define.ts';

/** The index just past the JSON value starting at `i` (a compact, canonical value). */
function valueEnd(line: string, i: number): number {
  const c = line.charCodeAt(i);
  if (c === 0x22) return stringEnd(line, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let k = i; k < line.length; k++) {
      const d = line.charCodeAt(k);
      if (d === 0x22) k = stringEnd(line, k) - 1;
      else if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        if (--depth === 0) return k + 1;
      }
    }
    throw new SyntaxError(`unterminated value at ${i}`);
  }
  let k = i;
  while (k < line.length) {
    const d = line.charCodeAt(k);
    if (d === 0x2c || d === 0x7d) break;
    k++;
  }
  return k;
}

/** The index just past the string whose opening quote is at `i`. */
function stringEnd(line: string, i: number): number {
  for (let k = i + 1; k < line.length; k++) {
    const d = line.charCodeAt(k);
    if (d === 0x5c) k++;
    else if (d === 0x22) return k + 1;
  }
  throw new SyntaxError(`unterminated string at ${i}`);
}

/**
 * Calls `visit` with each top-level member of a canonical line: its name and its value's extent
 * (`line.slice(start, end)` is the value's canonical JSON). `visit` returns true to stop. Throws on
 * a line that is not compact JSON of an object, which the store never writes.
 */
function eachMember(line: string, visit: (name: string, start: number, end: number) => boolean | void): void {
  if (line.charCodeAt(0) !== 0x7b) throw new SyntaxError('not an object');
  let i = 1;
  while (i < line.length && line.charCodeAt(i) !== 0x7d) {
    const nameEnd = stringEnd(line, i);
    const raw = line.slice(i + 1, nameEnd - 1);
    const name = raw.includes('\\') ? (JSON.parse(line.slice(i, nameEnd)) as string) : raw;
    if (line.charCodeAt(nameEnd) !== 0x3a) throw new SyntaxError(`no ':' after a name at ${nameEnd}`);
    const start = nameEnd + 1;
    const end = valueEnd(line, start);
    if (visit(name, start, end)) return;
    i = line.charCodeAt(end) === 0x2c ? end + 1 : end;
  }
}

/**
 * The row of a canonical line with only the `wanted` members (those it has). A line that is not
 * compact JSON of an object is parsed whole and then picked.
 */
export function pickMembers(line: string, wanted: ReadonlySet<string>): Row {
  try {
    const out: Row = {};
    eachMember(line, (name, start, end) => {
      if (wanted.has(name)) out[name] = JSON.parse(line.slice(start, end));
    });
    return out;
  } catch {
    const row = JSON.parse(line) as Row;
    const out: Row = {};
    for (const k of wanted) if (k in row) out[k] = row[k];
    return out;
  }
}

/**
 * The text of one top-level member's value: undefined when the row has no such member; null when
 * the value is an object or an array, or the line cannot be walked (the caller parses the line then).
 */
export function memberText(line: string, column: string): string | null | undefined {
  let text: string | null | undefined;
  try {
    eachMember(line, (name, start, end) => {
      if (name !== column) return false;
      const c = line.charCodeAt(start);
      text = c === 0x7b || c === 0x5b ? null : line.slice(start, end);
      return true;
    });
  } catch {
    return null;
  }
  return text;
}
