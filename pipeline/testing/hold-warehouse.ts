/**
 * A reader in a process of its own (DuckDB's file locks are per process, so only another
 * process can hold one against a writer): opens the warehouse, prints the rows of a query as
 * a JSON line, then prints them again for every line read on stdin, until stdin closes.
 *
 *   node --import tsx pipeline/testing/hold-warehouse.ts <warehouse> <store dir> <read-only|read-write> <sql>
 */
import { createInterface } from 'node:readline';
import { openWarehouse } from '../store/warehouse.ts';

const [warehouse, store, mode, sql] = process.argv.slice(2);
const w = await openWarehouse(warehouse, store, { readOnly: mode === 'read-only' });
const show = async (): Promise<void> => {
  process.stdout.write(JSON.stringify((await w.con.runAndReadAll(sql)).getRowObjectsJson()) + '\n');
};
await show();
for await (const _ of createInterface({ input: process.stdin })) await show();
w.close();
