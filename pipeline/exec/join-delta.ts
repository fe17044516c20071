/**
 * Which join values a change to a joined input touches, read from the segments that changed
 * alone. A unit joins the rows of another input whose column equals its own row's, in that input's
 * order; those rows are unchanged for a value when every segment that holds rows of it is. So the
 * two versions of the input are aligned on the segments they share, and only the rows of the
 * segments between (the gaps) are compared, value by value, in order.
 */
import { canonicalJson } from '../hash/canonical.ts';
import type { Row } from '../dag/define.ts';

/** The join value of a row as the index keys it: canonical JSON, a missing column being null. */
export function joinValue(row: Row, column: string): string {
  return canonicalJson(row[column] ?? null);
}

/**
 * The values of `column` whose rows differ between `before` and `after` (segment hashes, in
 * order), or null when that cannot be told cheaply and safely: a segment repeated, the shared
 * segments reordered, or a changed segment's file gone. `lines` gives a segment's canonical lines
 * (null when its file is gone).
 */
export function changedJoinValues(
  before: readonly string[],
  after: readonly string[],
  column: string,
  lines: (hash: string, version: 'before' | 'after') => Iterable<string> | null,
): Set<string> | null {
  const changed = new Set<string>();
  if (before.length === after.length && before.every((h, i) => h === after[i])) return changed;
  const inBefore = new Set(before);
  const inAfter = new Set(after);
  if (inBefore.size !== before.length || inAfter.size !== after.length) return null;
  const sharedBefore = before.filter((h) => inAfter.has(h));
  const sharedAfter = after.filter((h) => inBefore.has(h));
  if (sharedBefore.some((h, i) => h !== sharedAfter[i])) return null;
  // The gaps: the segments before the first shared one, between two shared ones, after the last.
  const gaps = (list: readonly string[], shared: Set<string>): string[][] => {
    const out: string[][] = [[]];
    for (const h of list) {
      if (shared.has(h)) out.push([]);
      else out[out.length - 1].push(h);
    }
    return out;
  };
  const gapsBefore = gaps(before, inAfter);
  const gapsAfter = gaps(after, inBefore);
  for (let g = 0; g < gapsBefore.length; g++) {
    if (!gapsBefore[g].length && !gapsAfter[g].length) continue;
    const a = gapLines(gapsBefore[g], (h) => lines(h, 'before'));
    const b = gapLines(gapsAfter[g], (h) => lines(h, 'after'));
    if (!a || !b) return null;
    // Lines both versions of the gap begin or end with are the same rows in the same places: a
    // value whose rows all lie there is unchanged. The values of the lines between may have changed.
    let start = 0;
    while (start < a.length && start < b.length && a[start] === b[start]) start++;
    let endA = a.length;
    let endB = b.length;
    while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
      endA--;
      endB--;
    }
    for (let i = start; i < endA; i++) changed.add(joinValue(JSON.parse(a[i]) as Row, column));
    for (let i = start; i < endB; i++) changed.add(joinValue(JSON.parse(b[i]) as Row, column));
  }
  return changed;
}

function gapLines(segments: readonly string[], lines: (hash: string) => Iterable<string> | null): string[] | null {
  const out: string[] = [];
  for (const h of segments) {
    const ls = lines(h);
    if (!ls) return null;
    for (const line of ls) out.push(line);
  }
  return out;
}

/**
 * The text of a top-level member's value in a canonical line, without parsing the line: canonical
 * JSON is compact, so `"column":` is followed by the value's canonical form. Null when the member
 * is absent, or when the test cannot be sure (the name appears twice, perhaps in a nested object;
 * an object or array value): the caller parses the line then.
 */
export function memberText(line: string, column: string): string | null | undefined {
  const needle = `${JSON.stringify(column)}:`;
  const at = line.indexOf(needle);
  if (at < 0) return undefined;
  if (line.indexOf(needle, at + needle.length) >= 0) return null;
  const start = at + needle.length;
  const c = line.charCodeAt(start);
  if (c === 0x22) {
    for (let i = start + 1; i < line.length; i++) {
      const d = line.charCodeAt(i);
      if (d === 0x5c) i++;
      else if (d === 0x22) return line.slice(start, i + 1);
    }
    return null;
  }
  if (c === 0x7b || c === 0x5b) return null;
  let end = start;
  while (end < line.length && line[end] !== ',' && line[end] !== '}') end++;
  return line.slice(start, end);
}

/**
 * A test of canonical lines for rows whose `column` holds one of `values`: the member's text is
 * read from the line and looked up, and only a hit (or a line the text test cannot read) is parsed.
 */
export function rowsWithValues(column: string, values: ReadonlySet<string>): (line: string) => Row | null {
  const exact = (row: Row) => values.has(joinValue(row, column));
  // A row without the column joins as null: only a parse tells a missing member from a nested one.
  if (values.has('null')) {
    return (line) => {
      const row = JSON.parse(line) as Row;
      return exact(row) ? row : null;
    };
  }
  return (line) => {
    const text = memberText(line, column);
    if (text === undefined) return null;
    if (typeof text === 'string' && !values.has(text)) return null;
    const row = JSON.parse(line) as Row;
    return exact(row) ? row : null;
  };
}
