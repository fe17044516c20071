// Artifact verification: the cheap stat check, the full checksum when the stat differs, and
// rewriting an artifact whose files no longer match what the ledger recorded. (The store's
// tests live in pipeline/exec because scripts/run-tests.mjs skips directories named store.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, utimesSync, statSync, rmSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DuckDBInstance } from '@duckdb/node-api';
import { writeArtifact, checkArtifact, sha256File, readRows } from '../store/artifacts.ts';
import { tempDir } from '../testing/temp-dir.ts';

const COLUMNS = { id: 'INTEGER', name: 'VARCHAR' };
const ROWS = [
  { id: 1, name: 'one' },
  { id: 2, name: 'two' },
];

async function withDuck<T>(f: (duck: () => Promise<DuckDBConnection>) => Promise<T>): Promise<T> {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    return await f(async () => con);
  } finally {
    con.closeSync();
    db.closeSync();
  }
}

test('a written artifact records both files: the NDJSON sha256 is its name, the Parquet one its bytes', async () => {
  const store = tempDir('cdp-art-');
  const a = await withDuck((duck) => writeArtifact(store, 's', ROWS, COLUMNS, duck));
  const text = '{"id":1,"name":"one"}\n{"id":2,"name":"two"}\n';
  assert.equal(a.hash, createHash('sha256').update(text).digest('hex'));
  assert.equal(readFileSync(a.ndjson, 'utf8'), text);
  assert.deepEqual(a.files.ndjson, { size: Buffer.byteLength(text), mtimeMs: statSync(a.ndjson).mtimeMs, sha256: a.hash });
  assert.equal(a.files.parquet.sha256, createHash('sha256').update(readFileSync(a.parquet)).digest('hex'));
  assert.equal(a.files.parquet.size, statSync(a.parquet).size);
  assert.deepEqual(checkArtifact(a, a.files), { ok: true, restat: null });
});

test('a touched file (new mtime, same bytes) passes the full check and reports its new stat', async () => {
  const store = tempDir('cdp-art-');
  const a = await withDuck((duck) => writeArtifact(store, 's', ROWS, COLUMNS, duck));
  utimesSync(a.parquet, new Date(2001, 0, 1), new Date(2001, 0, 1));
  const check = checkArtifact(a, a.files);
  assert.equal(check.ok, true);
  assert.ok(check.ok && check.restat);
  assert.equal(check.restat.parquet.mtimeMs, new Date(2001, 0, 1).getTime());
  assert.equal(check.restat.parquet.sha256, a.files.parquet.sha256);
  assert.deepEqual(check.restat.ndjson, a.files.ndjson);
  // With the new stat recorded, the next check is a stat again.
  assert.deepEqual(checkArtifact(a, check.restat), { ok: true, restat: null });
});

test('changed bytes are caught whether or not the size changed, and a missing or unrecorded file is not ok', async () => {
  const store = tempDir('cdp-art-');
  const a = await withDuck((duck) => writeArtifact(store, 's', ROWS, COLUMNS, duck));
  const original = readFileSync(a.ndjson, 'utf8');
  // Same size, different bytes: the rewrite moved the mtime, so the checksum decides.
  writeFileSync(a.ndjson, original.replace('one', 'eno'));
  assert.equal(statSync(a.ndjson).size, a.files.ndjson.size);
  assert.deepEqual(checkArtifact(a, a.files), { ok: false, reason: `artifact changed on disk: ${a.ndjson}` });
  writeFileSync(a.ndjson, original);
  writeFileSync(a.parquet, 'PAR1 not really');
  assert.deepEqual(checkArtifact(a, a.files), { ok: false, reason: `artifact changed on disk: ${a.parquet}` });
  assert.match((checkArtifact(a, undefined) as { reason: string }).reason, /no recorded size and checksum/);
  rmSync(a.parquet);
  assert.deepEqual(checkArtifact(a, a.files), { ok: false, reason: 'artifact missing from the store' });
});

test('writeArtifact keeps files that check against the ledger and rewrites ones that do not', async () => {
  const store = tempDir('cdp-art-');
  await withDuck(async (duck) => {
    const a = await writeArtifact(store, 's', ROWS, COLUMNS, duck);
    const kept = await writeArtifact(store, 's', ROWS, COLUMNS, duck, { artifact: a.hash, files: a.files });
    assert.deepEqual(kept.files, a.files, 'an intact artifact is not written again');

    writeFileSync(a.parquet, 'garbage');
    writeFileSync(a.ndjson, '{"id":9}\n');
    const healed = await writeArtifact(store, 's', ROWS, COLUMNS, duck, { artifact: a.hash, files: a.files });
    assert.deepEqual(readRows(healed.ndjson), ROWS);
    assert.equal(sha256File(healed.ndjson), a.hash);
    assert.deepEqual(checkArtifact(healed, healed.files), { ok: true, restat: null });
    const con = await duck();
    const back = (await con.runAndReadAll(`select id, name from read_parquet('${healed.parquet}') order by id`)).getRowObjectsJson();
    assert.deepEqual(back, ROWS);
  });
});
