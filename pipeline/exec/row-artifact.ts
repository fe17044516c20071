/**
 * A row stage's artifact from its parts: a standing part as it is, a planned one as its units'
 * rows in plan order, each taken from what this run made, then from the part it replaces, then
 * from the memo. The rows are streamed as the artifact is written; the memo closes after the last
 * part. Beside the parts: each planned part's unit keys and rows per unit (what lets a later run
 * take them up), and the record the next run plans against.
 */
import type { Row } from '../dag/define.ts';
import type { ArtifactPart, StoredLine } from '../store/artifacts.ts';
import type { RowStageRecord } from '../store/ledger.ts';
import type { LazyMemo } from './lazy-memo.ts';
import type { ReplacedUnits } from './replaced-units.ts';
import type { RowShape } from './row-shape.ts';
import type { ZoneBook } from './row-zones.ts';
import type { Part, Plan } from './runner-types.ts';

export interface RowArtifact {
  parts: ArtifactPart[];
  units: Map<number, string[]>;
  unitRows: Map<number, number[]>;
}

export function assembleParts(
  parts: readonly Part[],
  from: RowStageRecord['from'],
  rowsOf: { results: Map<Plan, Row[]>; earlier: ReplacedUnits | null; memo: LazyMemo },
): RowArtifact {
  const { results, earlier, memo } = rowsOf;
  let left = parts.filter((p) => 'plans' in p).length;
  const out: RowArtifact = { parts: [], units: new Map(), unitRows: new Map() };
  parts.forEach((p, at) => {
    if ('reuse' in p) {
      out.parts.push(p);
      return;
    }
    out.units.set(
      at,
      p.plans.map((u) => u.key),
    );
    from[at].units = p.plans.length;
    const counts: number[] = [];
    out.unitRows.set(at, counts);
    const rows = function* (): Generator<Row | StoredLine> {
      try {
        for (const u of p.plans) {
          const rows = results.get(u) ?? earlier?.rows.get(u.key) ?? memo.units.get(u.key) ?? [];
          counts.push(rows.length);
          yield* rows;
        }
      } finally {
        if (--left === 0) memo.close();
      }
    };
    out.parts.push({ chunk: false, rows: rows() });
  });
  return out;
}

/** The record the next run plans against, for a stage driven by segments in the store (none for rows in memory). */
export function rowRecord(shape: RowShape, from: RowStageRecord['from'], zones: ZoneBook): (() => RowStageRecord) | undefined {
  const { inputs, joinNames, driving } = shape;
  if (!driving.segments) return undefined;
  const joins = Object.fromEntries(joinNames.map((j) => [j, (inputs[j].segments ?? []).map((s) => s.hash)]));
  // Zones are kept for the segments of this run's inputs only, so the record does not grow with history.
  const current = new Set([...driving.segments, ...joinNames.flatMap((j) => inputs[j].segments ?? [])].map((x) => x.hash));
  const recorded = zones.recorded(current);
  return () => ({ common: shape.common, from, joins, zones: recorded });
}
