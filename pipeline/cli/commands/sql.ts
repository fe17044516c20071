/** `cdp sql "<query>"`: one read-only query on the warehouse, bounded in memory and time, streamed as a table or JSON. */
import type { RegisterCommand } from '../config-exports.ts';
import { streamWarehouseQuery } from '../sql.ts';
import { DEFAULT_MEMORY_LIMIT, DEFAULT_TIMEOUT, sqlBounds } from '../sql-bounds.ts';
import { jsonArraySink, tableSink } from '../sql-output.ts';
import { exitQuietlyOnEpipe, pacedWriter } from '../stdout.ts';

export const sql: RegisterCommand = (program, project) => {
  program
    .command('sql')
    .description('one read-only query on the warehouse (one view per stage), streamed')
    .argument('<query>')
    .option('--json', 'print a JSON array of row objects, one per line')
    .option('--memory-limit <size>', "DuckDB's memory limit for the query, e.g. 512MB, 8GB", DEFAULT_MEMORY_LIMIT)
    .option('--timeout <duration>', 'stop the query after this much DuckDB time, e.g. 30s, 5m, or none', DEFAULT_TIMEOUT)
    .action(async (query: string, o: { json?: boolean; memoryLimit: string; timeout: string }) => {
      exitQuietlyOnEpipe();
      const bounds = sqlBounds(o);
      const p = await project();
      const write = pacedWriter(process.stdout);
      await streamWarehouseQuery(p.ws, query, o.json ? jsonArraySink(write) : tableSink(write), bounds);
    });
};
