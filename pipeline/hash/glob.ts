/**
 * Expands file globs (`*`, `?`, `**`, `{a,b}`) relative to a root, sorted, without following
 * symlinked directories. Node 20 has no fs.glob, and a source list must not depend on
 * directory-listing order, so results are sorted.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export function globToRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        // `**/` matches zero or more directories.
        const slash = pattern[i + 2] === '/';
        re += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const end = pattern.indexOf('}', i);
      if (end < 0) throw new Error(`glob '${pattern}' has an unclosed '{'`);
      re +=
        '(?:' +
        pattern
          .slice(i + 1, end)
          .split(',')
          .map(escape)
          .join('|') +
        ')';
      i = end;
    } else re += escape(c);
  }
  return new RegExp('^' + re + '$');
}

function escape(s: string): string {
  return s.replace(/[.+^$()|[\]\\]/g, '\\$&');
}

/** Project-relative paths (with '/') of the files matching any of the patterns. */
export function expandGlobs(root: string, patterns: string[]): string[] {
  const out = new Set<string>();
  for (const pattern of patterns) {
    const staticPrefix = pattern
      .split('/')
      .filter((_, i, parts) => !parts.slice(0, i + 1).some((p) => /[*?{]/.test(p)))
      .join('/');
    const re = globToRegExp(pattern);
    const base = join(root, staticPrefix);
    const walk = (dir: string): void => {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const full = join(dir, e.name);
        const rel = relative(root, full).split(sep).join('/');
        if (e.isDirectory()) walk(full);
        else if (e.isFile() && re.test(rel)) out.add(rel);
      }
    };
    if (/[*?{]/.test(pattern)) walk(base);
    else if (isFile(join(root, pattern))) out.add(pattern);
  }
  return [...out].sort();
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
