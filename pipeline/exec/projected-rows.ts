/**
 * An input's rows with only the columns a table stage declared it reads (TableStage.reads):
 * from the store, each segment's projection (store/segment-projections.ts), its other members
 * never built; rows a run holds in memory are copied here with those members only. Under
 * CDP_CHECK_READS=1 (the test suite) each row throws when the stage reads an undeclared column.
 */
import type { Columns, Row } from '../dag/define.ts';

export interface ProjectionInput {
  from: string;
  columns: Columns;
  rows: () => Iterable<Row>;
}

/** Throws, naming the stage, the input and the columns, when a stage reads columns its input does not have. */
export function checkReads(stage: string, local: string, input: ProjectionInput, columns: readonly string[]): void {
  const known = input.columns;
  const unknown = columns.filter((c) => !(c in known));
  if (unknown.length) {
    throw new Error(
      `stage '${stage}' reads column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => `'${c}'`).join(', ')} of input '${local}' (${input.from}), ` +
        `which '${input.from}' does not declare (declared: ${Object.keys(known).join(', ')}); fix \`reads\` in the stage module`,
    );
  }
}

/** The input's rows in memory with only `columns` (those it has). */
export function projectRows(input: ProjectionInput, columns: Iterable<string>): Row[] {
  const wanted = new Set(columns);
  const rows: Row[] = [];
  for (const r of input.rows()) {
    const out: Row = {};
    for (const c of wanted) if (c in r) out[c] = r[c];
    rows.push(out);
  }
  return rows;
}

/**
 * What one stage is handed of rows projected for it, or for it and the other stages that read the
 * same input (then they carry the others' columns too, and are shared: never modify them). Under
 * CDP_CHECK_READS=1 each row throws when the stage reads a column it did not declare or writes to it.
 */
export function rowsForStage(
  stage: string,
  local: string,
  input: ProjectionInput,
  columns: readonly string[],
  rows: readonly Row[],
): Row[] {
  return guardedRows(stage, local, input.columns, columns, rows);
}

/**
 * Rows of an input whose columns are `known`, of which the stage declared it reads `columns`:
 * under CDP_CHECK_READS=1 each throws on an undeclared column read (or any write); otherwise a
 * copy of the list. Also a worker thread's guard over its plain copies (pipeline/threads/).
 */
export function guardedRows(
  stage: string,
  local: string,
  known: Record<string, string>,
  columns: readonly string[],
  rows: readonly Row[],
): Row[] {
  if (process.env.CDP_CHECK_READS !== '1') return rows.slice();
  const wanted = new Set(columns);
  return rows.map((r) => guardReads(r, wanted, known, stage, local));
}

/** A projected row that throws when the stage reads a column of the input it did not declare. */
function guardReads(row: Row, wanted: ReadonlySet<string>, known: Record<string, string>, stage: string, local: string): Row {
  return new Proxy(row, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && prop in known && !wanted.has(prop)) {
        throw new Error(`stage '${stage}' read column '${prop}' of input '${local}', which its \`reads\` does not declare: add it there`);
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
    has(target, prop) {
      if (typeof prop === 'string' && prop in known && !wanted.has(prop)) {
        throw new Error(
          `stage '${stage}' asked for column '${prop}' of input '${local}', which its \`reads\` does not declare: add it there`,
        );
      }
      return Reflect.has(target, prop);
    },
    set(_target, prop) {
      throw new Error(`stage '${stage}' wrote '${String(prop)}' on a row of input '${local}': input rows are shared, copy the row first`);
    },
    deleteProperty(_target, prop) {
      throw new Error(
        `stage '${stage}' deleted '${String(prop)}' from a row of input '${local}': input rows are shared, copy the row first`,
      );
    },
  });
}
