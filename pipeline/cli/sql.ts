/**
 * `cdp sql`: one read-only statement on the warehouse, its rows handed on chunk by chunk.
 *
 * The guards are DuckDB's own. The warehouse is opened READ_ONLY; before the user's statement
 * runs, external access is switched off except for the store directory (the views' artifacts,
 * the run log and the store's part of the LLM call log live there) and the project's shared LLM
 * call cache (the rest of the call log, which llm_calls reads), extension autoloading and autoinstalling
 * are off, and the configuration is locked, so no statement can switch any of it back on.
 * Those guards leave open what writes inside the allowed store (`COPY … TO`, `EXPORT DATABASE`,
 * `ATTACH … (READ_WRITE)`), session changes (`USE`, `SET VARIABLE`, PRAGMAs that run a function)
 * and `EXPLAIN ANALYZE`, which runs the statement it explains. DuckDB's parser closes that: the
 * statement must parse as a query (json_serialize_sql serializes nothing else), and the prepared
 * statement's type must be SELECT.
 *
 * It runs under a memory limit and a time limit (sql-bounds.ts), and says which one stopped it.
 * DuckDB's Node API ends a streamed result that fails midway as if it were complete (the C API's
 * fetch returns nothing for both, and the error is not passed on); the result's statement type,
 * which DuckDB sets to INVALID on an error, tells the two apart, and a query that failed midway is
 * never printed as a whole result.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DuckDBConnection, DuckDBExtractedStatements, DuckDBPreparedStatement } from '@duckdb/node-api';
import type { Workspace } from '../exec/workspace.ts';
import { isOutOfMemory, outOfMemory, QueryClock, sqlBounds, timedOut, type SqlBounds } from './sql-bounds.ts';

/** Where the warehouse is and the directories its views read: the store (artifacts, runs, llm) and the call cache. */
export type WarehouseTarget = Pick<Workspace, 'warehouse' | 'store'> & Partial<Pick<Workspace, 'llmCache'>>;

/** A row as JSON-safe values (BIGINT as string, DATE as ISO text, LIST as array, …). */
export type JsonRow = Record<string, unknown>;

/** Receives a result as it streams: the column names once, then rows a chunk at a time. */
export interface RowSink {
  begin(columns: string[]): void | Promise<void>;
  rows(rows: JsonRow[]): void | Promise<void>;
  end(rowCount: number): void | Promise<void>;
}

/** A statement `cdp sql` will not run; the message says what is refused and what is allowed. */
export class SqlRefused extends Error {}

const ALLOWED =
  'cdp sql runs one read-only query per call: SELECT (WITH …, FROM …, VALUES, TABLE, UNION …), DESCRIBE, SUMMARIZE or SHOW, ' +
  "over the warehouse views and files under the store (table functions such as pragma_table_info('view') included)";

const REFUSED =
  'COPY, EXPORT, ATTACH, DETACH, INSTALL, LOAD, SET, RESET, USE, PRAGMA, EXPLAIN, CALL, PREPARE, CREATE, ALTER, DROP, ' +
  'INSERT, UPDATE, DELETE, transactions and every other statement are refused';

const NEXT_STEP = 'cdp sql runs one read-only SELECT per call over the warehouse views; `cdp sql "show tables"` lists them';

function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** The settings that fence the user's statement in; the lock comes last so the rest stay set. */
function guardStatements(store: string, bounds: SqlBounds, llmCache: string | undefined): string[] {
  const dirs = [store, ...(llmCache ? [llmCache] : [])].map(sqlString).join(', ');
  return [
    `SET memory_limit = ${sqlString(bounds.memoryLimit)}`,
    // Views refer to artifacts relative to the store (older ones by absolute paths under it).
    `SET file_search_path = ${sqlString(store)}`,
    `SET allowed_directories = [${dirs}]`,
    'SET enable_external_access = false',
    'SET autoload_known_extensions = false',
    'SET autoinstall_known_extensions = false',
    'SET lock_configuration = true',
  ];
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split('\n')[0];
}

/** The statement as the user wrote it, on one line and short enough for a message. */
function quote(sql: string): string {
  const one = sql.trim().replace(/\s+/g, ' ');
  return JSON.stringify(one.length > 60 ? one.slice(0, 59) + '…' : one);
}

/**
 * Whether DuckDB's parser reads `sql` as a query. json_serialize_sql parses without binding and
 * serializes only SELECT statements (DESCRIBE, SUMMARIZE and SHOW parse as SELECTs over SHOW_REF).
 */
async function parsesAsQuery(con: DuckDBConnection, sql: string): Promise<boolean> {
  const probe = await con.prepare('select json_serialize_sql($1::varchar) as ast');
  probe.bindVarchar(1, sql);
  const [row] = (await probe.runAndReadAll()).getRowObjectsJson();
  return !(JSON.parse(String(row.ast)) as { error?: boolean }).error;
}

/** DuckDB's file guard fires while a statement is bound or read: its refusal names the file. */
function duckdbFailure(e: unknown, store: string, rowsSoFar?: number, bounds?: SqlBounds): Error {
  const msg = firstLine(e);
  if (bounds && isOutOfMemory(msg)) return outOfMemory(bounds, rowsSoFar);
  if (msg.startsWith('Permission Error')) {
    return new SqlRefused(`refused: ${msg}. cdp sql reads only files under the store (${store}) and writes none. ${ALLOWED}.`);
  }
  if (rowsSoFar !== undefined) return new Error(`the query failed after ${rowsSoFar} rows: ${msg}`);
  return new Error(`the query failed: ${msg} (${NEXT_STEP})`);
}

/**
 * Runs `sql` on the warehouse and streams its rows into `sink`; returns the row count.
 * Refusals throw SqlRefused, and other DuckDB errors an Error naming the query's problem.
 *
 * DuckDB checks a relative path against the process's working directory (then opens it through
 * file_search_path), so the query runs with the store as the working directory, restored after:
 * callers must not run anything else that depends on the working directory meanwhile.
 */
export async function streamWarehouseQuery(
  target: WarehouseTarget,
  sql: string,
  sink: RowSink,
  bounds: SqlBounds = sqlBounds(),
): Promise<number> {
  const warehouse = resolve(target.warehouse);
  const store = resolve(target.store);
  if (!existsSync(warehouse)) throw new Error(`no warehouse at ${warehouse}; run \`cdp run\` first`);
  if (!existsSync(store) || !statSync(store).isDirectory()) {
    throw new Error(`no store directory at ${store} (the warehouse views read it); run \`cdp run\` first`);
  }
  const { DuckDBInstance, StatementType } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(warehouse, { access_mode: 'READ_ONLY' });
  const con = await db.connect();
  const cwd = process.cwd();
  try {
    const llmCache = target.llmCache ? resolve(target.llmCache) : undefined;
    for (const s of guardStatements(store, bounds, llmCache)) await con.run(s);
    process.chdir(store);
    let statements: DuckDBExtractedStatements | undefined;
    try {
      statements = await con.extractStatements(sql);
    } catch (e) {
      const msg = firstLine(e).replace(/^Failed to extract statements: /, '');
      if (msg.includes('Parser Error')) throw new Error(`the query does not parse: ${msg}`, { cause: e });
      // Without a parser error the bindings had nothing to extract (only blanks, comments, ';').
    }
    const n = statements?.count ?? 0;
    if (!statements || n !== 1) {
      throw new SqlRefused(
        n === 0 ? `the query holds no statement. ${ALLOWED}.` : `the query holds ${n} statements; ${ALLOWED}, so run them one at a time.`,
      );
    }
    // The statement's kind is asked of DuckDB's parser before anything binds it: binding is not
    // free of effects (binding EXPORT DATABASE creates its directory, in the store if told to).
    if (!(await parsesAsQuery(con, sql))) {
      throw new SqlRefused(`refused: ${quote(sql)} is not a read-only query. ${ALLOWED}; ${REFUSED}.`);
    }
    let prepared;
    try {
      prepared = await statements.prepare(0);
    } catch (e) {
      throw duckdbFailure(e, store);
    }
    if (prepared.statementType !== StatementType.SELECT) {
      const type = StatementType[prepared.statementType] ?? String(prepared.statementType);
      throw new SqlRefused(`refused: ${quote(sql)} is a ${type} statement, not a read-only query. ${ALLOWED}; ${REFUSED}.`);
    }
    const count = await streamRows(con, prepared, sink, { sql, store, bounds });
    await sink.end(count);
    return count;
  } finally {
    process.chdir(cwd);
    con.closeSync();
    db.closeSync();
  }
}

/**
 * Streams a prepared query's rows into the sink under the time limit (the clock runs only while
 * DuckDB works, not while the sink writes); returns the row count, or throws naming the bound or
 * the error that stopped it.
 */
async function streamRows(
  con: DuckDBConnection,
  prepared: DuckDBPreparedStatement,
  sink: RowSink,
  q: { sql: string; store: string; bounds: SqlBounds },
): Promise<number> {
  const { StatementType } = await import('@duckdb/node-api');
  const clock = new QueryClock(q.bounds.timeoutMs, () => con.interrupt());
  const failed = (e: unknown, rows?: number) => (clock.fired ? timedOut(q.bounds, rows) : duckdbFailure(e, q.store, rows, q.bounds));
  let result;
  clock.run();
  try {
    result = await prepared.stream();
  } catch (e) {
    throw failed(e);
  } finally {
    clock.pause();
  }
  await sink.begin(result.deduplicatedColumnNames());
  const chunks = result.yieldRowObjectJson()[Symbol.asyncIterator]();
  let count = 0;
  for (;;) {
    let next;
    clock.run();
    try {
      next = await chunks.next();
    } catch (e) {
      throw failed(e, count);
    } finally {
      clock.pause();
    }
    if (next.done) break;
    count += next.value.length;
    await sink.rows(next.value);
  }
  if (result.statementType === StatementType.INVALID) {
    if (clock.fired) throw timedOut(q.bounds, count);
    throw await whyItStopped(con, q.sql, count, q.store, q.bounds);
  }
  return count;
}

/**
 * The error of a query whose streamed result ended early, which DuckDB's Node API does not pass
 * on: the query runs again under a count of its whole rows (a row counted is a row computed, every
 * column of it, and a count holds no rows), so the same failure is met again, this time with its
 * message. Only a failed query pays for this.
 */
async function whyItStopped(con: DuckDBConnection, sql: string, rows: number, store: string, bounds: SqlBounds): Promise<Error> {
  const unknown = new Error(`the query failed after ${rows} rows (DuckDB did not say why); the rows written are not the whole result`);
  let probe;
  try {
    // On lines of their own, so that a trailing comment of the query stays a comment.
    probe = await con.prepare(`select count(t) from (\n${sql.trim().replace(/;+$/, '')}\n) t`);
  } catch {
    return unknown;
  }
  const { StatementType } = await import('@duckdb/node-api');
  if (probe.statementType !== StatementType.SELECT) return unknown;
  const clock = new QueryClock(bounds.timeoutMs, () => con.interrupt());
  clock.run();
  try {
    await probe.run();
  } catch (e) {
    return clock.fired ? unknown : duckdbFailure(e, store, rows, bounds);
  } finally {
    clock.pause();
  }
  return unknown;
}

/** The whole result as an array, for small results (the notebook data, tests). */
export async function queryWarehouse(target: WarehouseTarget, sql: string): Promise<JsonRow[]> {
  const all: JsonRow[] = [];
  await streamWarehouseQuery(target, sql, {
    begin() {},
    rows(rows) {
      for (const r of rows) all.push(r);
    },
    end() {},
  });
  return all;
}
