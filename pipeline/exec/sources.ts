/**
 * A file source's rows: every matched file with its content hash, via the stat cache. A pattern
 * may be absolute (a corpus outside the project): its files are listed by absolute path. A
 * source with a base lists its files relative to the base instead, so where the base lies
 * enters no row.
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { expandGlobs } from '../hash/glob.ts';
import type { StatCache } from '../hash/stat-cache.ts';
import type { FileSource, Row } from '../dag/define.ts';

/** The directory a source's relative patterns and paths start from: its base, else the project root. */
export function sourceDir(root: string, source: FileSource): string {
  return resolve(root, source.base ?? '.');
}

export function sourcePaths(root: string, patterns: readonly string[]): string[] {
  const relative = patterns.filter((p) => !isAbsolute(p));
  const absolute = patterns.filter((p) => isAbsolute(p)).map((p) => p.replace(/^\/+/, ''));
  const paths = [...expandGlobs(root, relative), ...expandGlobs('/', absolute).map((p) => `/${p}`)];
  return [...new Set(paths)].sort();
}

export function sourceRows(root: string, source: FileSource, stat: StatCache): Row[] {
  const dir = sourceDir(root, source);
  return sourcePaths(dir, source.patterns).map((path) => {
    const full = resolve(dir, path);
    return { path, sha256: stat.hashFile(full), size: statSync(full).size };
  });
}
