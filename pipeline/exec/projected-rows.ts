/**
 * An input's rows with only the columns a table stage declared it reads (TableStage.reads):
 * picked member by member from the segments' lines, the others never built. Under
 * CDP_CHECK_READS=1 (the test suite) each row throws when the stage reads an undeclared column.
 */
import type { Columns, Row } from '../dag/define.ts';
import { pickMembers } from '../store/pick-members.ts';

export function projectedRows(
  stage: string,
  local: string,
  input: { from: string; columns: Columns; lines: (() => Iterable<string>) | null; rows: () => Iterable<Row> },
  columns: readonly string[],
): Row[] {
  const known = input.columns;
  const unknown = columns.filter((c) => !(c in known));
  if (unknown.length) {
    throw new Error(
      `stage '${stage}' reads column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => `'${c}'`).join(', ')} of input '${local}' (${input.from}), ` +
        `which '${input.from}' does not declare (declared: ${Object.keys(known).join(', ')}); fix \`reads\` in the stage module`,
    );
  }
  const wanted = new Set(columns);
  const rows: Row[] = [];
  if (!input.lines) {
    for (const r of input.rows()) {
      const out: Row = {};
      for (const c of columns) if (c in r) out[c] = r[c];
      rows.push(out);
    }
  } else for (const line of input.lines()) rows.push(pickMembers(line, wanted));
  if (process.env.CDP_CHECK_READS !== '1') return rows;
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
  });
}
