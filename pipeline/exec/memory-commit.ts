/**
 * The commit of a run that persists nothing (`cdp estimate`): the artifact's rows are kept in
 * memory for this run's readers, under the hash the artifact would have; no failed rows are
 * recorded.
 */
import type { Columns, Row } from '../dag/define.ts';
import { hashParts, iterSegment, StoredLine, type ArtifactPart } from '../store/artifacts.ts';
import type { RowFacts } from '../store/ledger.ts';
import { rowFacts } from './row-summary.ts';

export function commitInMemory(
  store: string,
  name: string,
  parts: Iterable<ArtifactPart>,
  columns: Columns,
  covers: string | undefined,
): { rows: Row[]; hash: string; facts: RowFacts } {
  const kept: Row[] = [];
  const replay: ArtifactPart[] = [];
  for (const p of parts) {
    const rows =
      'reuse' in p ? [...iterSegment(store, name, p.reuse.hash)] : [...p.rows].map((r) => (r instanceof StoredLine ? r.row() : r));
    kept.push(...rows);
    replay.push('reuse' in p ? p : { rows, chunk: p.chunk });
  }
  return { rows: kept, hash: hashParts(replay, columns, name).hash, facts: rowFacts(kept, covers) };
}
