/**
 * Expands file globs relative to a root, sorted by code unit, without following symlinked
 * directories. Node 20 has no fs.glob, and a source list must not depend on directory-listing
 * order, so results are sorted.
 *
 * The pattern syntax is picomatch's (`*`, `?`, `**`, `{a,b}`, and after the first glob segment
 * `[…]` classes; dotfiles match, as they did). The walk stays ours: it starts below the pattern's
 * static prefix (the segments before the first one with `*`, `?` or `{`), which is taken
 * literally — a corpus directory named `guidelines (2024) [en]` is not read as a pattern — and it
 * visits exactly the directories the no-op fingerprint records (pipeline/cli/noop-fingerprint.ts,
 * patternRoot). A symlinked file is matched only when named without a glob, as before.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import picomatch from 'picomatch';

// As patternRoot in noop-fingerprint.ts: a bracket alone does not make a segment a glob.
const GLOB_CHAR = /[*?{]/;

/** The pattern split at its first segment with a glob character: [literal prefix, glob rest]. */
function splitPattern(pattern: string): [string, string] {
  const parts = pattern.split('/');
  const first = parts.findIndex((p) => GLOB_CHAR.test(p));
  return [parts.slice(0, first).join('/'), parts.slice(first).join('/')];
}

/** Every regular file under `dir` (not through symlinked directories), relative to it with '/'. */
function filesUnder(dir: string, out: string[] = [], base = dir): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const full = join(dir, e.name);
    if (e.isDirectory()) filesUnder(full, out, base);
    else if (e.isFile()) out.push(relative(base, full).split(sep).join('/'));
  }
  return out;
}

/** Project-relative paths (with '/') of the files matching any of the patterns. */
export function expandGlobs(root: string, patterns: string[]): string[] {
  const out = new Set<string>();
  for (const pattern of patterns) {
    if (!GLOB_CHAR.test(pattern)) {
      if (isFile(join(root, pattern))) out.add(pattern);
      continue;
    }
    const [prefix, rest] = splitPattern(pattern);
    const matches = picomatch(rest, { dot: true });
    const base = join(root, prefix);
    for (const f of filesUnder(base)) if (matches(f)) out.add(relative(root, join(base, f)).split(sep).join('/'));
  }
  return [...out].sort();
}

/**
 * Whether a path expandGlobs would list for `pattern` has the pattern's shape (the path's file is
 * not looked at): the same literal prefix, taken literally, and the same picomatch rest.
 */
export function globMatcher(pattern: string): (path: string) => boolean {
  if (!GLOB_CHAR.test(pattern)) {
    const plain = posix.normalize(pattern);
    return (path) => path === pattern || path === plain;
  }
  const [prefix, rest] = splitPattern(pattern);
  const matches = picomatch(rest, { dot: true });
  const dir = posix.normalize(prefix || '.');
  const at = dir === '.' ? '' : `${dir.replace(/\/+$/, '')}/`;
  return (path) => path.startsWith(at) && matches(path.slice(at.length));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
