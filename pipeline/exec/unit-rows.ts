/**
 * The rows a unit leaves: those its function returned, checked against the stage's columns, or a
 * failure row saying why it has none.
 */
import type { Row } from '../dag/define.ts';
import type { ResolvedStage } from '../dag/validate.ts';

export function checkRows(name: string, stage: ResolvedStage, rows: Row[]): void {
  for (const r of rows) {
    if (r === null || typeof r !== 'object' || Array.isArray(r))
      throw new Error(`stage '${name}' returned a row that is not an object: ${JSON.stringify(r)}`);
    for (const k of Object.keys(r)) {
      if (!(k in stage.columns)) throw new Error(`stage '${name}' returned column '${k}', which its columns do not declare`);
    }
  }
}

/** Whether a unit was planned with its joined rows (every unit but one keyed from the part it replaces). */
export function hasJoined<P extends { joined: Record<string, Row[]> | null }>(p: P): p is P & { joined: Record<string, Row[]> } {
  return p.joined !== null;
}

/**
 * A unit's failure as a row: the driving row's values for columns the output shares, the crossed
 * element under its declared column, and the reason; `kind` (UPSTREAM_KIND for a driving row that
 * failed upstream) when the stage has a `failure_kind` column.
 */
export function failureRow(stage: ResolvedStage, unit: { row: Row; cross: unknown }, reason: string, kind?: string): Row {
  const out: Row = {};
  for (const col of Object.keys(stage.columns)) if (col in unit.row && col !== 'error' && col !== 'failure_kind') out[col] = unit.row[col];
  if (kind && 'failure_kind' in stage.columns) out.failure_kind = kind;
  const cross = stage.forEach?.cross;
  if (cross && cross.as in stage.columns) {
    const v = unit.cross as { name?: unknown } | string | number;
    out[cross.as] = typeof v === 'object' && v !== null && 'name' in v ? v.name : v;
  }
  out.error = reason;
  return out;
}
