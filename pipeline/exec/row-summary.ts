/**
 * What the run summary says of a stage's rows — its most common failure reasons, its rows by
 * `failure_kind`, and how many distinct values of its `covers` column it holds — from rows, from
 * the segments' records, or from the ledger for a reused stage.
 */
import { existsSync } from 'node:fs';
import type { Row } from '../dag/define.ts';
import { iterSegment, type SegmentRef } from '../store/artifacts.ts';
import type { LedgerEntry, RowFacts } from '../store/ledger.ts';
import { FactTally, coversPath, readCovered } from '../store/segment-tally.ts';

function factsOf(t: FactTally): RowFacts {
  const failureReasons = t.top(3);
  return {
    ...(failureReasons.length ? { failureReasons } : {}),
    ...(Object.keys(t.kinds).length ? { failureKinds: t.kinds } : {}),
    ...(t.covers ? { covered: { column: t.covers, count: t.covered.size } } : {}),
  };
}

/** What the run summary says of a stage's rows: its most common failure reasons and its coverage. */
export function rowFacts(rows: Iterable<Row>, covers?: string): RowFacts {
  const t = new FactTally(covers);
  for (const r of rows) t.add(r);
  return factsOf(t);
}

/**
 * An artifact's facts from its segments' records: failures from the ledger's, covered values from
 * the files beside them (a segment written by an older cdp, without one, is read).
 */
export function artifactFacts(
  storeDir: string,
  stage: string,
  segments: readonly SegmentRef[],
  covers: string | undefined,
): { failed: number; facts: RowFacts } {
  const t = new FactTally(covers);
  for (const seg of segments) {
    const path = covers ? coversPath(storeDir, stage, seg.hash, covers) : null;
    if (path && !existsSync(path)) {
      for (const r of iterSegment(storeDir, stage, seg.hash)) t.add(r);
      continue;
    }
    t.merge(seg.failed ?? 0, seg.reasons, path ? readCovered(path) : [], seg.kinds);
  }
  return { failed: t.failed, facts: factsOf(t) };
}

/**
 * The facts of a reused stage: those the ledger recorded when its rows were written, so a reuse
 * reads no artifact; a ledger written before facts were recorded (or for another `covers`
 * column) has them read back from the artifact, and only when there is something to say.
 */
export function reusedFacts(prev: LedgerEntry, covers: string | undefined, rows: () => Iterable<Row>): RowFacts {
  if (prev.facts && (prev.facts.covered?.column ?? undefined) === (covers ?? undefined)) return prev.facts;
  return prev.failed > 0 || covers ? rowFacts(rows(), covers) : {};
}
