/**
 * The unit keys behind each part of a row-mapped stage's artifact, one file per part beside its
 * segment, so `cdp clean` can keep exactly the memo units the current artifacts are made of.
 */
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '../hash/canonical.ts';
import { tempPathFor } from './atomic.ts';
import { LineWriter, readLines } from './lines.ts';

/** `<segment hash>.<part id>.units`: a part is named by its driving segment and crossed element. */
export function unitsPath(storeDir: string, stage: string, segment: string, part: { drive: string; cross: string }): string {
  return join(storeDir, 'artifacts', stage, `${segment}.${sha256(`${part.drive}\u0000${part.cross}`).slice(0, 16)}.units`);
}

/**
 * A units file's units in order: `key` or `key<TAB>rows` (the rows the unit put in the part; files
 * of an older cdp have keys only).
 */
export function readUnitKeys(path: string): { key: string; rows?: number }[] {
  const out: { key: string; rows?: number }[] = [];
  for (const { line } of readLines(path)) {
    const tab = line.indexOf('\t');
    out.push(tab < 0 ? { key: line } : { key: line.slice(0, tab), rows: Number(line.slice(tab + 1)) });
  }
  return out;
}

/** The unit keys of a part, one a line with the rows each put in it, written in batches (a paper-scale stage has 700k). */
export function writeUnitKeys(path: string, keys: string[], rows?: number[]): void {
  // Renamed into place whole, but not fsynced: a units file is checked against its segment's rows
  // before it is used (exec/replaced-units.ts), and one lost to a crash only makes the memo serve those units.
  const tmp = tempPathFor(path);
  try {
    const out = new LineWriter(tmp);
    try {
      keys.forEach((k, i) => out.write(rows ? `${k}\t${rows[i]}` : k));
    } finally {
      out.close({ sync: false });
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
