// `cdp sql` runs under a memory limit and a time limit and says which one stopped it: a cross join
// is stopped by the timeout (before its first row, and while its rows stream), a string_agg by the
// memory limit; a query that fails midway is never written as a whole result; the clock stops
// while a slow reader takes the rows; the flags are checked and their defaults documented.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { queryWarehouse, streamWarehouseQuery, type JsonRow, type WarehouseTarget } from './sql.ts';
import { DEFAULT_MEMORY_LIMIT, DEFAULT_TIMEOUT, parseMemoryLimit, parseTimeout, sqlBounds, SqlStopped } from './sql-bounds.ts';
import { makeToyProject } from '../testing/toy-project.ts';

const cdpBin = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'cdp.mjs');

async function emptyWarehouse(): Promise<WarehouseTarget> {
  const root = mkdtempSync(join(tmpdir(), 'cdp-sql-bounds-'));
  const store = join(root, 'store');
  mkdirSync(store);
  const warehouse = join(root, 'warehouse.duckdb');
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(warehouse);
  const con = await db.connect();
  await con.run('create view numbers as select range as n from range(10)');
  con.closeSync();
  db.closeSync();
  return { store, warehouse };
}

/** A sink that keeps what it is given and whether the result was declared complete. */
function recorder(delayMs = 0) {
  const got = { rows: 0, ended: false };
  return {
    got,
    sink: {
      begin() {},
      async rows(rows: JsonRow[]) {
        got.rows += rows.length;
        if (delayMs) await new Promise((ok) => setTimeout(ok, delayMs));
      },
      end() {
        got.ended = true;
      },
    },
  };
}

describe('the flags', () => {
  test('sizes and durations as a user writes them; anything else is refused with an example', () => {
    assert.deepEqual(parseMemoryLimit('4GB'), { duckdb: '4GB', shown: '4 GB' });
    assert.deepEqual(parseMemoryLimit('512 mb'), { duckdb: '512MB', shown: '512 MB' });
    assert.deepEqual(parseMemoryLimit('1.5GiB'), { duckdb: '1.5GiB', shown: '1.5 GiB' });
    for (const bad of ['4', 'lots', '0GB', '-1GB', '4 GBs']) {
      assert.throws(
        () => parseMemoryLimit(bad),
        new RegExp(`^Error: --memory-limit must be a size such as 512MB, 4GB or 2GiB, got "${bad}"$`),
      );
    }
    assert.deepEqual(parseTimeout('60s'), { ms: 60_000, shown: '60 s' });
    assert.deepEqual(parseTimeout('90'), { ms: 90_000, shown: '90 s' });
    assert.deepEqual(parseTimeout('500ms'), { ms: 500, shown: '500 ms' });
    assert.deepEqual(parseTimeout('2m'), { ms: 120_000, shown: '2 m' });
    assert.deepEqual(parseTimeout('1.5h'), { ms: 5_400_000, shown: '1.5 h' });
    assert.deepEqual(parseTimeout('none'), { ms: null, shown: 'none' });
    assert.deepEqual(parseTimeout('0'), { ms: null, shown: 'none' });
    for (const bad of ['soon', '-5s', '10 days']) {
      assert.throws(() => parseTimeout(bad), /^Error: --timeout must be a duration such as 30s, 500ms, 5m or 1h \(or none\)/);
    }
  });

  test('the defaults are 4 GB and 60 s, and the query runs under them', async () => {
    assert.deepEqual([DEFAULT_MEMORY_LIMIT, DEFAULT_TIMEOUT], ['4GB', '60s']);
    assert.deepEqual(sqlBounds(), { memoryLimit: '4GB', memoryShown: '4 GB', timeoutMs: 60_000, timeoutShown: '60 s' });
    const w = await emptyWarehouse();
    // DuckDB reports its limit in binary units: 4 GB is 3.7 GiB.
    assert.deepEqual(await queryWarehouse(w, "select current_setting('memory_limit') as m"), [{ m: '3.7 GiB' }]);
    const small = sqlBounds({ memoryLimit: '64MB' });
    const rows: JsonRow[] = [];
    await streamWarehouseQuery(
      w,
      "select current_setting('memory_limit') as m",
      { begin() {}, rows: (r) => void rows.push(...r), end() {} },
      small,
    );
    assert.deepEqual(rows, [{ m: '61.0 MiB' }]);
  });
});

describe('each bound stops the query and is named', () => {
  let w: WarehouseTarget;
  before(async () => {
    w = await emptyWarehouse();
  });

  test('a cross join of 10^13 rows counted: stopped by the timeout before its first row', async () => {
    const { sink, got } = recorder();
    const q = 'select count(*) from range(100000) a, range(100000) b, range(1000) c';
    await assert.rejects(streamWarehouseQuery(w, q, sink, sqlBounds({ timeout: '1s' })), (e: Error) => {
      assert.ok(e instanceof SqlStopped && e.bound === 'timeout');
      assert.match(
        e.message,
        /^the query was stopped after 1 s \(--timeout\); give it longer with --timeout 5m \(or --timeout none\), or narrow it/,
      );
      return true;
    });
    assert.deepEqual(got, { rows: 0, ended: false });
  });

  test('a cross join streamed: stopped by the timeout after some rows, which are not called the whole result', async () => {
    const { sink, got } = recorder();
    const q = 'select a.range as x, b.range as y from range(100000) a, range(100000) b';
    await assert.rejects(streamWarehouseQuery(w, q, sink, sqlBounds({ timeout: '1s' })), (e: Error) => {
      assert.ok(e instanceof SqlStopped && e.bound === 'timeout', e.message);
      assert.match(e.message, new RegExp(`^the query was stopped after 1 s \\(--timeout\\) after ${got.rows} rows;`));
      return true;
    });
    assert.ok(got.rows > 0 && got.rows < 1e10, `${got.rows} rows before the stop`);
    assert.equal(got.ended, false);
  });

  test('a string_agg of 10 GB: stopped at the memory limit', async () => {
    const { sink, got } = recorder();
    const q = "select string_agg(repeat('x', 1000), ',') as s from range(10000000)";
    await assert.rejects(streamWarehouseQuery(w, q, sink, sqlBounds({ memoryLimit: '64MB' })), (e: Error) => {
      assert.ok(e instanceof SqlStopped && e.bound === 'memory', e.message);
      assert.equal(
        e.message,
        'the query ran out of memory at the 64 MB limit (--memory-limit); raise it with --memory-limit 8GB, or make its result smaller (aggregate, LIMIT, fewer columns)',
      );
      return true;
    });
    assert.deepEqual(got, { rows: 0, ended: false });
  });

  test('a query that fails midway is an error with its reason, not a short result', async () => {
    const { sink, got } = recorder();
    const q = "select case when range > 1000000 then error('row ' || range || ' is bad') else range end as v from range(2000000)";
    await assert.rejects(streamWarehouseQuery(w, q, sink), (e: Error) => {
      assert.match(e.message, new RegExp(`^the query failed after ${got.rows} rows: Invalid Input Error: row 10000\\d\\d is bad$`));
      return true;
    });
    assert.ok(got.rows > 0 && got.rows <= 1_000_001, `${got.rows} rows before the failure`);
    assert.equal(got.ended, false);
  });

  test('the clock stops while a slow reader takes the rows: 3 chunks × 1.5 s of writing under a 2 s timeout', async () => {
    // DuckDB needs milliseconds for these rows; the reader takes 4.5 s, more than twice the limit.
    const { sink, got } = recorder(1500);
    const n = await streamWarehouseQuery(w, 'select range from range(5000)', sink, sqlBounds({ timeout: '2s' }));
    assert.equal(n, 5000);
    assert.deepEqual(got, { rows: 5000, ended: true });
  });
});

describe('through the command line', () => {
  test('the stop is one line on stderr with exit code 2; a bad flag is refused before the query', () => {
    const p = makeToyProject();
    p.writeConfigFile();
    const run = spawnSync(process.execPath, [cdpBin, 'run'], { cwd: p.root, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const cdp = (args: string[]) => spawnSync(process.execPath, [cdpBin, 'sql', ...args], { cwd: p.root, encoding: 'utf8' });
    const slow = cdp(['--timeout', '1s', 'select count(*) from range(100000) a, range(100000) b, range(1000) c']);
    assert.equal(slow.status, 2);
    assert.equal(slow.stdout, '');
    assert.match(slow.stderr, /^cdp: the query was stopped after 1 s \(--timeout\); give it longer with --timeout 5m/);
    const big = cdp(['--memory-limit', '64MB', "select string_agg(repeat('x', 1000), ',') from range(10000000)"]);
    assert.equal(big.status, 2);
    assert.match(big.stderr, /^cdp: the query ran out of memory at the 64 MB limit \(--memory-limit\)/);
    const bad = cdp(['--memory-limit', 'lots', 'select 1']);
    assert.equal(bad.status, 2);
    assert.equal(bad.stderr, 'cdp: --memory-limit must be a size such as 512MB, 4GB or 2GiB, got "lots"\n');
  });
});
