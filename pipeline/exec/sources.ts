/** A file source's rows: every matched file with its content hash, via the stat cache. */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { expandGlobs } from '../hash/glob.ts';
import type { StatCache } from '../hash/stat-cache.ts';
import type { FileSource, Row } from '../dag/define.ts';

export function sourceRows(root: string, source: FileSource, stat: StatCache): Row[] {
  return expandGlobs(root, source.patterns).map((path) => {
    const full = join(root, path);
    return { path, sha256: stat.hashFile(full), size: statSync(full).size };
  });
}
