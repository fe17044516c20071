/**
 * The warehouse as an export reads it: a read-only handle (the command opens it) and the query
 * helpers both benchmarks' exports share. A query that names a missing view says which table
 * and what to run; an optional one (a stage not every run has) gives no rows.
 */
export type Row = Record<string, unknown>;

export interface ExportDb {
  /** The rows of a query, as JSON-ready values. */
  all(sql: string): Promise<Row[]>;
  /** A statement without rows (COPY … TO). */
  run(sql: string): Promise<void>;
}

export const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Rows of `sql`, or an error naming `what` and the command that makes it exist (`run`, e.g. "`cdp run`"). */
export async function query(db: ExportDb, what: string, sql: string, prefix: string, run: string): Promise<Row[]> {
  try {
    return await db.all(sql);
  } catch (e) {
    throw new Error(
      `${prefix}: ${what} could not be read from the warehouse (${(e as Error).message.split('\n')[0]}); run ${run} so it exists`,
      { cause: e },
    );
  }
}

/** A query whose views may not exist in every run (an optional stage): no rows then. */
export async function optional(db: ExportDb, sql: string): Promise<Row[]> {
  try {
    return await db.all(sql);
  } catch {
    return [];
  }
}

/** The first column's non-null values of an optional query, as strings. */
export const distinct = async (db: ExportDb, sql: string) =>
  (await optional(db, sql)).map((r) => String(Object.values(r)[0])).filter((x) => x !== 'null');

/** The views with an `error` column (row-mapped stages have one, table stages may not). */
export async function viewsWithError(db: ExportDb): Promise<Set<string>> {
  const rows = await db.all("select table_name from information_schema.columns where column_name = 'error'");
  return new Set(rows.map((r) => String(r.table_name)));
}
