/** `cdp sql "<query>"`: one read-only query on the warehouse, streamed as a table or JSON. */
import type { RegisterCommand } from '../extensions.ts';
import { streamWarehouseQuery } from '../sql.ts';
import { jsonArraySink, tableSink } from '../sql-output.ts';
import { exitQuietlyOnEpipe, pacedWriter } from '../stdout.ts';

export const sql: RegisterCommand = (program, project) => {
  program
    .command('sql')
    .description('one read-only query on the warehouse (one view per stage), streamed')
    .argument('<query>')
    .option('--json', 'print a JSON array of row objects, one per line')
    .action(async (query: string, o: { json?: boolean }) => {
      exitQuietlyOnEpipe();
      const p = await project();
      const write = pacedWriter(process.stdout);
      await streamWarehouseQuery(p.ws, query, o.json ? jsonArraySink(write) : tableSink(write));
    });
};
