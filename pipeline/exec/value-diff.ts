/**
 * What changed between two values of a param, said for a person: the paths whose leaves differ
 * (`params.max_tokens`), and for lists of elements that carry a string `name` (a crossed param's
 * elements, say), which element was added, removed or changed and where. Other lists are
 * compared element by element as wholes. Knows nothing of what the values mean.
 */
import { hashValue } from '../hash/canonical.ts';

type Named = { name: string } & Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNamed = (v: unknown): v is Named => isObject(v) && typeof v.name === 'string';
const same = (a: unknown, b: unknown) => hashValue(a ?? null) === hashValue(b ?? null);

/** How an element is named in a reason: itself when a string, its name, or its JSON. */
export const elementName = (v: unknown): string => (typeof v === 'string' ? v : isNamed(v) ? v.name : JSON.stringify(v));

/** The dotted paths at which `after` differs from `before` (objects member by member, anything else whole). */
export function changedPaths(before: unknown, after: unknown, at = ''): string[] {
  if (same(before, after)) return [];
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((k) => changedPaths(before[k], after[k], at ? `${at}.${k}` : k));
  }
  return [at || '(value)'];
}

/** Added, removed and changed elements of a list: named ones matched by name, others by value. */
export function listChanges(before: readonly unknown[], after: readonly unknown[]): string[] {
  const parts: string[] = [];
  if (before.every(isNamed) && after.every(isNamed)) {
    const was = new Map(before.map((v) => [v.name, v]));
    const now = new Set(after.map((v) => v.name));
    const added = after.filter((v) => !was.has(v.name)).map((v) => v.name);
    const removed = before.filter((v) => !now.has(v.name)).map((v) => v.name);
    for (const v of after) {
      const old = was.get(v.name);
      if (old && !same(old, v)) parts.push(`${v.name} changed: ${changedPaths(old, v).join(', ')}`);
    }
    if (added.length) parts.push(`added ${added.join(', ')}`);
    if (removed.length) parts.push(`removed ${removed.join(', ')}`);
  } else {
    const hashes = (vs: readonly unknown[]) => new Set(vs.map((v) => hashValue(v ?? null)));
    const [b, a] = [hashes(before), hashes(after)];
    const added = after.filter((v) => !b.has(hashValue(v ?? null))).map(elementName);
    const removed = before.filter((v) => !a.has(hashValue(v ?? null))).map(elementName);
    if (added.length) parts.push(`added ${added.join(', ')}`);
    if (removed.length) parts.push(`removed ${removed.join(', ')}`);
  }
  if (!parts.length && !same(before, after)) parts.push('elements reordered');
  return parts;
}

/** One param's change in a few words, or null when there is nothing more to say than its name. */
export function describeChange(before: unknown, after: unknown): string | null {
  if (same(before, after)) return null;
  if (Array.isArray(before) && Array.isArray(after)) return listChanges(before, after).join('; ');
  if (isNamed(before) && isNamed(after)) {
    return before.name === after.name
      ? `${after.name} changed: ${changedPaths(before, after).join(', ')}`
      : `${before.name} → ${after.name}`;
  }
  if (isObject(before) && isObject(after)) return `changed: ${changedPaths(before, after).join(', ')}`;
  return null;
}
