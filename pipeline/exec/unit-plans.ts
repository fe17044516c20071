/**
 * A row stage's units, planned: each pending driving row × crossed element of its parts becomes
 * a Plan with its key and joined rows (or, when the part it replaces lends its key, with that key
 * and no joined rows), pushed to its part in order. Also what every unit is handed beside its own
 * rows: the whole inputs, and absent optional inputs as no rows.
 */
import type { Row } from '../dag/define.ts';
import { absentInputs, guardInputs } from '../dag/inputs.ts';
import { sha256 } from '../hash/canonical.ts';
import { keyedHere, type JoinBuckets } from './join-index.ts';
import type { RowShape } from './row-shape.ts';
import type { Part, PendingRow, PendingSegment, Plan } from './runner-types.ts';
import { unitKey } from './unit-key.ts';

/** Every unit of the pending parts, in order; each is also pushed to its part's plans. */
export function planUnits(shape: RowShape, parts: Part[], pending: readonly PendingSegment[], joined: Map<string, JoinBuckets>): Plan[] {
  const plans: Plan[] = [];
  const upstream = shape.stage.decl.inputs![shape.forEach.input];
  for (const p of pending) {
    for (const r of p.rows) {
      const { joinedRows, joinedHashes } = keyedHere(r) ? joinedOfRow(shape, r, joined) : { joinedRows: {}, joinedHashes: {} };
      // A stage that sees failed rows (seesFailedRows) is run for them; otherwise the runner writes their failure row.
      const upstreamError =
        r.row.error != null && !shape.impl.seesFailedRows ? `upstream '${upstream}' failed for this row: ${String(r.row.error)}` : null;
      p.parts.forEach(({ at, cross: ci }, k) => {
        const cross = shape.crossValues[ci];
        const known = r.known?.[k];
        const plan: Plan =
          known !== undefined
            ? { key: known, row: r.row, cross, joined: null, upstreamError }
            : {
                key: unitKey(shape.common, r.hash!, cross === undefined ? null : shape.crossHashes[ci], joinedHashes),
                row: r.row,
                cross,
                joined: joinedRows,
                upstreamError,
              };
        (parts[at] as { plans: Plan[] }).plans.push(plan);
        plans.push(plan);
      });
    }
  }
  return plans;
}

/** A driving row's joined rows and their hashes by input; computes the row's own hash on the way. */
function joinedOfRow(shape: RowShape, r: PendingRow, joined: Map<string, JoinBuckets>) {
  const joinedRows: Record<string, Row[]> = {};
  const joinedHashes: Record<string, string[]> = {};
  for (const j of shape.joinNames) {
    const bucket = joined.get(j)!.get(r.values[shape.joinAt[j]!]!);
    joinedRows[j] = bucket?.rows ?? [];
    joinedHashes[j] = bucket?.hashes ?? [];
  }
  r.hash ??= sha256(r.line!);
  return { joinedRows, joinedHashes };
}

/** What every unit is handed besides its own rows: the whole inputs, and its joined rows with absent optional inputs as []. */
export interface UnitInputs {
  whole: Record<string, Row[]>;
  joinedOf(j: Record<string, Row[]>): Record<string, Row[]>;
}

export function unitInputs(shape: RowShape): UnitInputs {
  const { name, stage, impl, inputs, wholeNames, joinNames } = shape;
  // A declared optional input the config leaves out is handed over as no rows, never left undefined.
  const absent = absentInputs(impl.inputs, stage.decl.inputs);
  const whole = guardInputs(
    name,
    'whole input',
    { ...Object.fromEntries(wholeNames.map((n) => [n, inputs[n].rows()])), ...Object.fromEntries(absent.whole.map((n) => [n, []])) },
    [...wholeNames, ...absent.whole],
  );
  const joinedOf = (j: Record<string, Row[]>): Record<string, Row[]> =>
    guardInputs(name, 'joined input', absent.joined.length ? { ...j, ...Object.fromEntries(absent.joined.map((n) => [n, []])) } : j, [
      ...joinNames,
      ...absent.joined,
    ]);
  return { whole, joinedOf };
}
