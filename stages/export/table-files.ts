/**
 * One exported table as files: `<name>.jsonl` (one JSON object per line, written in chunks, so no
 * table passes through one string) and `<name>.parquet` (DuckDB's COPY of the same query), with
 * its rows and column types for the dataset card.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { query, sqlString, type ExportDb, type Row } from './export-db.ts';

export interface ExportTable {
  name: string;
  description: string;
  /** `{ok:view}` stands for the view's rows without an error (the view itself when it has no error column). */
  sql: string;
}

export interface WrittenTable {
  name: string;
  description: string;
  rows: Row[];
  columns: { name: string; type: string }[];
}

/** How the command names itself in errors ("cdp export") and what makes a missing table exist ("`cdp run`"). */
export interface CommandWords {
  prefix: string;
  run: string;
}

/** Expands `{ok:view}`: row-mapped stages have an `error` column, table stages may not. */
export function expandOk(sql: string, hasError: ReadonlySet<string>): string {
  return sql.replace(/\{ok:([a-z_]+)\}/g, (_, v: string) => (hasError.has(v) ? `(select * from ${v} where error is null)` : v));
}

const CHUNK = 1000;

function writeJsonl(file: string, rows: readonly Row[]): void {
  const fd = openSync(file, 'w');
  try {
    for (let i = 0; i < rows.length; i += CHUNK) {
      writeSync(
        fd,
        rows
          .slice(i, i + CHUNK)
          .map((r) => JSON.stringify(r) + '\n')
          .join(''),
      );
    }
  } finally {
    closeSync(fd);
  }
}

export async function writeTableFiles(db: ExportDb, dir: string, t: ExportTable, words: CommandWords): Promise<WrittenTable> {
  const rows = await query(db, `table ${t.name}`, t.sql, words.prefix, words.run);
  const columns = (await query(db, `table ${t.name}`, `describe ${t.sql}`, words.prefix, words.run)).map((c) => ({
    name: String(c.column_name),
    type: String(c.column_type),
  }));
  writeJsonl(join(dir, `${t.name}.jsonl`), rows);
  await db.run(`copy (${t.sql}) to ${sqlString(join(dir, `${t.name}.parquet`))} (format parquet)`);
  return { name: t.name, description: t.description, rows, columns };
}
