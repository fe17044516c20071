/**
 * What a row stage's run is made of before any unit is planned: its driving input and segments,
 * its joined and whole inputs, the crossed elements and their hashes, the join columns, and the
 * key every unit shares. Computed once per run; every planning step reads it.
 */
import type { ForEach, Row } from '../dag/define.ts';
import type { RowStage } from '../dag/stage.ts';
import type { ResolvedStage } from '../dag/validate.ts';
import { hashValue } from '../hash/canonical.ts';
import { segmentLines } from '../store/artifacts.ts';
import type { KeyComponents } from '../store/ledger.ts';
import type { Input } from './runner-types.ts';
import { commonKey } from './unit-key.ts';

/** A driving segment (hash null: rows only in memory), each row with its canonical line or, in memory, its hash. */
export interface DrivingSegment {
  hash: string | null;
  rows: () => Iterable<{ row: Row; line: string | null; hash?: string }>;
}

export interface RowShape {
  name: string;
  stage: ResolvedStage;
  forEach: ForEach;
  impl: RowStage;
  inputs: Record<string, Input>;
  driving: Input;
  drivingSegments: DrivingSegment[];
  joinNames: string[];
  wholeNames: string[];
  /** The distinct join columns, and each joined input's column as an index into a row's join values. */
  joinColumns: string[];
  joinAt: Record<string, number>;
  common: string;
  crossValues: unknown[];
  crossHashes: string[];
}

export function rowShape(
  store: string,
  name: string,
  stage: ResolvedStage,
  components: KeyComponents,
  inputs: Record<string, Input>,
): RowShape {
  const forEach = stage.forEach!;
  if (stage.impl.kind !== 'row') throw new Error('unreachable');
  const joinNames = Object.keys(forEach.join ?? {});
  const wholeNames = Object.keys(inputs).filter((n) => n !== forEach.input && !joinNames.includes(n));
  const crossValues: unknown[] = forEach.cross ? (stage.decl.params![forEach.cross.param] as unknown[]) : [undefined];
  const joinColumns = [...new Set(Object.values(forEach.join ?? {}))];
  const driving = inputs[forEach.input];
  return {
    name,
    stage,
    forEach,
    impl: stage.impl,
    inputs,
    driving,
    drivingSegments: drivingSegments(store, driving),
    joinNames,
    wholeNames,
    joinColumns,
    joinAt: Object.fromEntries(joinNames.map((j) => [j, joinColumns.indexOf(forEach.join![j])])),
    common: commonKey(components, wholeNames),
    crossValues,
    crossHashes: crossValues.map((x) => (x === undefined ? '' : hashValue(x))),
  };
}

/** The driving segments in the store; or, in a run that persists nothing, its rows in memory as one. */
function drivingSegments(store: string, driving: Input): DrivingSegment[] {
  if (!driving.segments) return [{ hash: null, rows: () => driving.rows().map((r) => ({ row: r, line: null, hash: hashValue(r) })) }];
  return driving.segments.map((seg) => ({
    hash: seg.hash,
    rows: function* () {
      for (const line of segmentLines(store, driving.from, seg.hash)) yield { row: JSON.parse(line) as Row, line };
    },
  }));
}
