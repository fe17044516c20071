/** `cdp sql`: a read-only query on the warehouse. */
import { existsSync } from 'node:fs';

export async function queryWarehouse(path: string, sql: string, storeDir: string): Promise<Record<string, unknown>[]> {
  if (!existsSync(path)) throw new Error(`no warehouse at ${path}; run \`cdp run\` first`);
  const { DuckDBInstance } = await import('@duckdb/node-api');
  // The views name their artifacts relative to the store (pipeline/store/warehouse.ts).
  const db = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY', file_search_path: storeDir });
  const con = await db.connect();
  try {
    const reader = await con.runAndReadAll(sql);
    return reader.getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    con.closeSync();
    db.closeSync();
  }
}

/** A plain text table for a terminal. */
export function formatTable(rows: Record<string, unknown>[]): string {
  if (!rows.length) return '(no rows)\n';
  const cols = Object.keys(rows[0]);
  const cell = (v: unknown): string => (v === null || v === undefined ? 'NULL' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  const cells = rows.map((r) => cols.map((c) => cell(r[c]).replace(/\s+/g, ' ')));
  const widths = cols.map((c, i) => Math.min(60, Math.max(c.length, ...cells.map((r) => r[i].length))));
  const fmt = (vals: string[]): string => vals.map((v, i) => (v.length > widths[i] ? v.slice(0, widths[i] - 1) + '…' : v.padEnd(widths[i]))).join('  ').trimEnd();
  return [fmt(cols), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(fmt)].join('\n') + `\n(${rows.length} row${rows.length === 1 ? '' : 's'})\n`;
}
