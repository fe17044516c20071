// The warehouse (pipeline/store/warehouse.ts): views relative to the store, so a copied tree
// answers at once; a refresh into a new file renamed into place, so a reader holding the old
// file never fails it and sees the old views; a warehouse deleted, replaced or left behind by a
// killed refresh is rebuilt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { openWarehouse, refreshWarehouse, relativizeSql, storeRelative, type WarehouseSpec } from '../store/warehouse.ts';
import { tempPathFor } from '../store/atomic.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { holdWarehouse } from '../testing/warehouse-holder.ts';

/** A store with one Parquet artifact per value, a runs log and a call-log-like folder of JSON lines. */
async function makeStore(root: string, values: number[]): Promise<string> {
  const store = join(root, 'data', 'store');
  mkdirSync(join(store, 'artifacts', 'totals'), { recursive: true });
  mkdirSync(join(store, 'llm', 'calls'), { recursive: true });
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  for (const v of values) {
    await con.run(`copy (select ${v} as words) to '${join(store, 'artifacts', 'totals', `v${v}.parquet`)}' (format parquet)`);
  }
  con.closeSync();
  db.closeSync();
  writeFileSync(join(store, 'llm', 'calls', 'a.jsonl'), '{"model":"m1"}\n{"model":"m2"}\n');
  writeFileSync(join(store, 'runs.ndjson'), JSON.stringify({ run_id: 'r1', stage: 'totals', status: 'ran' }) + '\n');
  return store;
}

function spec(root: string, store: string, value: number): WarehouseSpec {
  return {
    warehouse: join(root, 'data', 'warehouse.duckdb'),
    storeDir: store,
    views: new Map([['totals', [join(store, 'artifacts', 'totals', `v${value}.parquet`)]]]),
    runsLog: join(store, 'runs.ndjson'),
    // Built with an absolute path, as the LLM call log's relation is.
    extra: { llm_calls: `select model from read_json('${join(store, 'llm', 'calls', '*.jsonl')}', format = 'newline_delimited')` },
    statePath: join(store, 'warehouse-state.json'),
  };
}

async function query(warehouse: string, store: string, sql: string): Promise<unknown[]> {
  const w = await openWarehouse(warehouse, store, { readOnly: true });
  try {
    return (await w.con.runAndReadAll(sql)).getRowObjectsJson();
  } finally {
    w.close();
  }
}

test('paths under the store are written relative to it; others stay absolute', () => {
  assert.equal(storeRelative('/p/data/store', '/p/data/store/artifacts/a/h.parquet'), 'artifacts/a/h.parquet');
  assert.equal(storeRelative('/p/data/store', '/p/data/elsewhere.ndjson'), '/p/data/elsewhere.ndjson');
  assert.equal(
    relativizeSql('/p/st', `read_json('/p/st/llm/*.jsonl') union read_json('/p/stx/a.json')`),
    `read_json('llm/*.jsonl') union read_json('/p/stx/a.json')`,
  );
  assert.equal(relativizeSql("/p/o'k", `read_json('/p/o''k/llm/x.jsonl')`), `read_json('llm/x.jsonl')`);
});

test('a copied tree answers at once, with the original deleted: every view names its files relative to the store', async () => {
  const root = tempDir('cdp-wh-');
  const store = await makeStore(root, [6]);
  assert.equal(await refreshWarehouse(spec(root, store, 6)), 'rebuilt');
  const defs = (await query(join(root, 'data', 'warehouse.duckdb'), store, 'select sql from duckdb_views() where not internal')) as {
    sql: string;
  }[];
  assert.equal(defs.length, 3);
  for (const d of defs) assert.ok(!d.sql.includes(root), `a view names the tree's absolute path: ${d.sql}`);

  const copy = join(tempDir('cdp-wh-copy-'), 'project');
  cpSync(root, copy, { recursive: true });
  rmSync(root, { recursive: true, force: true });
  const w = join(copy, 'data', 'warehouse.duckdb');
  const s = join(copy, 'data', 'store');
  assert.deepEqual(await query(w, s, 'select words from totals'), [{ words: 6 }]);
  assert.deepEqual(await query(w, s, 'select model from llm_calls order by model'), [{ model: 'm1' }, { model: 'm2' }]);
  assert.deepEqual(await query(w, s, 'select run_id, stage, status from runs'), [{ run_id: 'r1', stage: 'totals', status: 'ran' }]);
});

test('a refresh while other processes hold the old file (read-only, then read-write) succeeds; they keep the old views', async () => {
  const root = tempDir('cdp-wh-');
  const store = await makeStore(root, [6, 12]);
  const warehouse = join(root, 'data', 'warehouse.duckdb');
  await refreshWarehouse(spec(root, store, 6));
  const reader = await holdWarehouse(warehouse, store, 'read-only', 'select words from totals');
  try {
    assert.deepEqual(reader.first, [{ words: 6 }]);
    assert.equal(await refreshWarehouse(spec(root, store, 12)), 'rebuilt');
    assert.deepEqual(await reader.ask(), [{ words: 6 }], 'the held connection keeps the warehouse it opened');
    assert.deepEqual(await query(warehouse, store, 'select words from totals'), [{ words: 12 }]);
  } finally {
    await reader.close();
  }

  // A read-write connection holds DuckDB's exclusive lock on the file.
  const writer = await holdWarehouse(warehouse, store, 'read-write', 'select words from totals');
  try {
    assert.deepEqual(writer.first, [{ words: 12 }]);
    assert.equal(await refreshWarehouse(spec(root, store, 6)), 'rebuilt');
    assert.deepEqual(await writer.ask(), [{ words: 12 }]);
    assert.deepEqual(await query(warehouse, store, 'select words from totals'), [{ words: 6 }]);
  } finally {
    await writer.close();
  }
});

test("an unchanged warehouse is left alone; a deleted, replaced or outdated one is rebuilt; a killed refresh's files are swept", async () => {
  const root = tempDir('cdp-wh-');
  const store = await makeStore(root, [6, 12]);
  const warehouse = join(root, 'data', 'warehouse.duckdb');
  assert.equal(await refreshWarehouse(spec(root, store, 6)), 'rebuilt');
  assert.equal(await refreshWarehouse(spec(root, store, 6)), 'current');

  rmSync(warehouse);
  assert.equal(await refreshWarehouse(spec(root, store, 6)), 'rebuilt');
  assert.deepEqual(await query(warehouse, store, 'select words from totals'), [{ words: 6 }]);

  // An older warehouse copied back over the current one: same views recorded, different file.
  const old = join(root, 'old.duckdb');
  await refreshWarehouse({ ...spec(root, store, 12), warehouse: old, statePath: undefined });
  copyFileSync(old, warehouse);
  assert.deepEqual(await query(warehouse, store, 'select words from totals'), [{ words: 12 }]);
  assert.equal(await refreshWarehouse(spec(root, store, 6)), 'rebuilt');
  assert.deepEqual(await query(warehouse, store, 'select words from totals'), [{ words: 6 }]);

  // What a refresh killed before its rename leaves: a half-built database and its WAL.
  const orphan = tempPathFor(warehouse);
  writeFileSync(orphan, 'half a database');
  writeFileSync(orphan + '.wal', 'its log');
  assert.equal(await refreshWarehouse(spec(root, store, 12)), 'rebuilt');
  assert.deepEqual(readdirSync(join(root, 'data')).sort(), ['store', 'warehouse.duckdb']);
  assert.deepEqual(await query(warehouse, store, 'select words from totals'), [{ words: 12 }]);
  assert.ok(!existsSync(warehouse + '.wal'));
});
