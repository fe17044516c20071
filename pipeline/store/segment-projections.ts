/**
 * A segment's rows with only some of their columns, kept beside the segment so that the next run
 * reads the few columns it needs without scanning the wide lines again. Segments are
 * content-addressed, so a projection never goes stale: a changed input has new segments, whose
 * projections are made when first read, while the unchanged ones are read from here. At the
 * paper's size a new guideline changes a handful of the ~600 segments of step_scores, and the
 * statistics' inputs were rescanned whole (about 13 s of the main thread per run, profiled).
 *
 * A projection is `<segment hash>.cols-<16 hex of its columns>.json`, so `cdp clean` drops it
 * with its segment (a segment's files all start with its hash). It is a cache: written without
 * fsync, and checked when read (its segment, its columns and its row count); a torn or foreign
 * file is made again, never trusted.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Row } from '../dag/define.ts';
import { sha256 } from '../hash/canonical.ts';
import { writeFileAtomic } from './atomic.ts';
import { pickMembers } from './pick-members.ts';
import { segmentLines, segmentPaths } from './artifacts.ts';

interface Stored {
  segment: string;
  columns: readonly string[];
  rows: Row[];
}

export function projectionPath(storeDir: string, stage: string, segment: string, columns: readonly string[]): string {
  const id = sha256(JSON.stringify(columns)).slice(0, 16);
  return join(dirname(segmentPaths(storeDir, stage, segment).ndjson), `${segment}.cols-${id}.json`);
}

function readStored(path: string, segment: string, columns: readonly string[], rows: number): Row[] | null {
  let stored: Stored;
  try {
    stored = JSON.parse(readFileSync(path, 'utf8')) as Stored;
  } catch {
    return null;
  }
  const same =
    stored?.segment === segment &&
    Array.isArray(stored.rows) &&
    stored.rows.length === rows &&
    JSON.stringify(stored.columns) === JSON.stringify(columns);
  return same ? stored.rows : null;
}

/**
 * The segment's rows with only `columns` (sorted, those a row has), from its projection or, when
 * there is none yet, from its lines, leaving the projection for the next run. A projection that
 * cannot be written (a full disk) only costs that next run the scan.
 */
export function projectedSegment(
  storeDir: string,
  stage: string,
  segment: { hash: string; rows: number },
  columns: readonly string[],
): Row[] {
  const path = projectionPath(storeDir, stage, segment.hash, columns);
  const kept = readStored(path, segment.hash, columns, segment.rows);
  if (kept) return kept;
  const wanted = new Set(columns);
  const rows: Row[] = [];
  for (const line of segmentLines(storeDir, stage, segment.hash)) rows.push(pickMembers(line, wanted));
  try {
    writeFileAtomic(path, JSON.stringify({ segment: segment.hash, columns, rows } satisfies Stored), { sync: false });
  } catch {
    // A cache: the rows are right either way.
  }
  return rows;
}
