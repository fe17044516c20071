/** Starts pipeline/testing/hold-warehouse.ts and talks to it: each ask() returns what the held connection sees now. */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

export interface WarehouseHolder {
  /** The held connection's rows for the query, now. */
  ask(): Promise<unknown[]>;
  close(): Promise<void>;
}

export async function holdWarehouse(
  warehouse: string,
  store: string,
  mode: 'read-only' | 'read-write',
  sql: string,
): Promise<WarehouseHolder & { first: unknown[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'hold-warehouse.ts'), warehouse, store, mode, sql], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<unknown[]> => {
    const r = await lines.next();
    if (r.done) throw new Error(`the warehouse holder exited (code ${child.exitCode}) before answering`);
    return JSON.parse(r.value) as unknown[];
  };
  const first = await next();
  return {
    first,
    async ask() {
      child.stdin.write('\n');
      return next();
    },
    close: () =>
      new Promise((res) => {
        child.on('exit', () => res());
        child.stdin.end();
      }),
  };
}
