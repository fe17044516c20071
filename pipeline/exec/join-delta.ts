/**
 * Which join values a change to a joined input touches, read from the segments that changed
 * alone. A unit joins the rows of another input whose column equals its own row's, in that input's
 * order; those rows are unchanged for a value when every segment that holds rows of it is. So the
 * two versions of the input are aligned on the segments they share, and only the rows of the
 * segments between (the gaps) are compared, value by value, in order.
 */
import { canonicalJson } from '../hash/canonical.ts';
import { memberText } from '../store/pick-members.ts';
import { EMPTY_SEGMENT_HASH } from '../store/segments.ts';
import type { Row } from '../dag/define.ts';

/** The join value of a row as the index keys it: canonical JSON, a missing column being null. */
export function joinValue(row: Row, column: string): string {
  return canonicalJson(row[column] ?? null);
}

/**
 * The values of `column` whose rows differ between `before` and `after` (segment hashes, in
 * order), or null when that cannot be told cheaply and safely: a segment repeated, the shared
 * segments reordered, or a changed segment's file gone. `lines` gives a segment's canonical lines
 * (null when its file is gone). Empty segments are left out of both first: they hold no rows.
 */
export function changedJoinValues(
  before: readonly string[],
  after: readonly string[],
  column: string,
  lines: (hash: string, version: 'before' | 'after') => Iterable<string> | null,
): Set<string> | null {
  const changed = new Set<string>();
  if (before.length === after.length && before.every((h, i) => h === after[i])) return changed;
  // Empty segments hold no value, and one repeated would make the alignment below give up.
  before = before.filter((h) => h !== EMPTY_SEGMENT_HASH);
  after = after.filter((h) => h !== EMPTY_SEGMENT_HASH);
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

/** The join value of a canonical line's row: read from its text, or parsed when the text cannot say. */
export function lineJoinValue(line: string, column: string): string {
  const text = memberText(line, column);
  if (text === undefined) return 'null';
  return text ?? joinValue(JSON.parse(line) as Row, column);
}

/**
 * The order zones are kept in: numbers by value (ids sort as numbers, not as text, or a zone of
 * ids 0–999 would hold 5000), before every other value, which sorts by its canonical text.
 */
export function compareJoinValues(a: string, b: string): number {
  const na = isNumberText(a);
  const nb = isNumberText(b);
  if (na && nb) return Number(a) - Number(b) || (a < b ? -1 : a > b ? 1 : 0);
  if (na !== nb) return na ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function isNumberText(s: string): boolean {
  const c = s.charCodeAt(0);
  return c === 0x2d || (c >= 0x30 && c <= 0x39);
}

/** The smallest and largest join values of a segment (compareJoinValues), null for an empty one. */
export type Zone = [string, string] | null;

/** Sorts values for anyInZone. */
export function sortJoinValues(values: Iterable<string>): string[] {
  return [...values].sort(compareJoinValues);
}

/** Whether some of `sorted` (sortJoinValues) lies within a zone. */
export function anyInZone(sorted: readonly string[], zone: Zone): boolean {
  if (!zone) return false;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareJoinValues(sorted[mid], zone[0]) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && compareJoinValues(sorted[lo], zone[1]) <= 0;
}

/** Grows a zone by one value. */
export function widen(zone: Zone, v: string): Zone {
  if (!zone) return [v, v];
  if (compareJoinValues(v, zone[0]) < 0) zone[0] = v;
  else if (compareJoinValues(v, zone[1]) > 0) zone[1] = v;
  return zone;
}

/**
 * A test of canonical lines for rows whose `column` holds one of `values`: the member's text is
 * read from the line and looked up, and only a hit is parsed.
 */
export function rowsWithValues(column: string, values: ReadonlySet<string>): (line: string) => Row | null {
  return (line) => (values.has(lineJoinValue(line, column)) ? (JSON.parse(line) as Row) : null);
}
