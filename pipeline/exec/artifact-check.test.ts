// Artifacts as segments (pipeline/store/artifacts.ts, segments.ts): the cheap stat check, the full
// checksum when the stat differs, rewriting a segment whose files no longer match the ledger, and
// content-defined cuts that keep a one-row change to one segment. (The store's tests live in
// pipeline/exec because scripts/run-tests.mjs skips directories named store.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, utimesSync, statSync, rmSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DuckDBInstance } from '@duckdb/node-api';
import {
  writeArtifact,
  checkArtifact,
  sha256File,
  readRows,
  hashRows,
  artifactHash,
  segmentPaths,
  type ArtifactRef,
} from '../store/artifacts.ts';
import { checkSegment, endsSegment, SEGMENT_MIN_ROWS, SEGMENT_TARGET_ROWS } from '../store/segments.ts';
import { canonicalJson } from '../hash/canonical.ts';
import { tempDir } from '../testing/temp-dir.ts';

const COLUMNS = { id: 'INTEGER', name: 'VARCHAR' };
const ROWS = [
  { id: 1, name: 'one' },
  { id: 2, name: 'two' },
];
const table = (rows: Iterable<Record<string, unknown>>) => [{ rows, chunk: true }];

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

/** The files and record of a one-segment artifact. */
function only(store: string, a: ArtifactRef) {
  assert.equal(a.segments.length, 1);
  const seg = a.segments[0];
  return { ...segmentPaths(store, 's', seg.hash), files: seg.files, hash: seg.hash };
}

test('a written segment records both files: the NDJSON sha256 is its name, the Parquet one its bytes; the artifact is named by its segments', async () => {
  const store = tempDir('cdp-art-');
  const a = await withDuck((duck) => writeArtifact(store, 's', table(ROWS), COLUMNS, duck));
  const s = only(store, a);
  const text = '{"id":1,"name":"one"}\n{"id":2,"name":"two"}\n';
  assert.equal(s.hash, createHash('sha256').update(text).digest('hex'));
  assert.equal(a.hash, createHash('sha256').update(`cdp-artifact-v2\n${s.hash}\n`).digest('hex'));
  assert.equal(a.hash, artifactHash(a.segments));
  assert.equal(readFileSync(s.ndjson, 'utf8'), text);
  assert.deepEqual(s.files.ndjson, { size: Buffer.byteLength(text), mtimeMs: statSync(s.ndjson).mtimeMs, sha256: s.hash });
  assert.equal(s.files.parquet.sha256, createHash('sha256').update(readFileSync(s.parquet)).digest('hex'));
  assert.equal(s.files.parquet.size, statSync(s.parquet).size);
  assert.deepEqual(checkArtifact(store, 's', a.segments), { ok: true, restat: null });
});

test('a touched file (new mtime, same bytes) passes the full check and reports its new stat', async () => {
  const store = tempDir('cdp-art-');
  const a = await withDuck((duck) => writeArtifact(store, 's', table(ROWS), COLUMNS, duck));
  const s = only(store, a);
  utimesSync(s.parquet, new Date(2001, 0, 1), new Date(2001, 0, 1));
  const check = checkArtifact(store, 's', a.segments);
  assert.ok(check.ok && check.restat);
  assert.equal(check.restat[0].files.parquet.mtimeMs, new Date(2001, 0, 1).getTime());
  assert.equal(check.restat[0].files.parquet.sha256, s.files.parquet.sha256);
  assert.deepEqual(check.restat[0].files.ndjson, s.files.ndjson);
  // With the new stat recorded, the next check is a stat again.
  assert.deepEqual(checkArtifact(store, 's', check.restat), { ok: true, restat: null });
});

test('changed bytes are caught whether or not the size changed, and a missing or unrecorded file is not ok', async () => {
  const store = tempDir('cdp-art-');
  const a = await withDuck((duck) => writeArtifact(store, 's', table(ROWS), COLUMNS, duck));
  const s = only(store, a);
  const original = readFileSync(s.ndjson, 'utf8');
  // Same size, different bytes: the rewrite moved the mtime, so the checksum decides.
  writeFileSync(s.ndjson, original.replace('one', 'eno'));
  assert.equal(statSync(s.ndjson).size, s.files.ndjson.size);
  assert.deepEqual(checkArtifact(store, 's', a.segments), { ok: false, reason: `artifact changed on disk: ${s.ndjson}` });
  writeFileSync(s.ndjson, original);
  writeFileSync(s.parquet, 'PAR1 not really');
  assert.deepEqual(checkArtifact(store, 's', a.segments), { ok: false, reason: `artifact changed on disk: ${s.parquet}` });
  assert.match((checkSegment(s, undefined) as { reason: string }).reason, /no recorded size and checksum/);
  assert.match((checkArtifact(store, 's', undefined) as { reason: string }).reason, /no recorded segments/);
  rmSync(s.parquet);
  assert.deepEqual(checkArtifact(store, 's', a.segments), { ok: false, reason: 'artifact missing from the store' });
});

test('writeArtifact keeps segments that check against the ledger and rewrites ones that do not', async () => {
  const store = tempDir('cdp-art-');
  await withDuck(async (duck) => {
    const a = await writeArtifact(store, 's', table(ROWS), COLUMNS, duck);
    const s = only(store, a);
    const kept = await writeArtifact(store, 's', table(ROWS), COLUMNS, duck, a.segments);
    assert.deepEqual(kept.segments, a.segments, 'an intact segment is not written again');

    writeFileSync(s.parquet, 'garbage');
    writeFileSync(s.ndjson, '{"id":9}\n');
    const healed = await writeArtifact(store, 's', table(ROWS), COLUMNS, duck, a.segments);
    assert.deepEqual(readRows(store, 's', healed.segments), ROWS);
    assert.equal(sha256File(s.ndjson), s.hash);
    assert.deepEqual(checkArtifact(store, 's', healed.segments), { ok: true, restat: null });
    const con = await duck();
    const back = (await con.runAndReadAll(`select id, name from read_parquet('${s.parquet}') order by id`)).getRowObjectsJson();
    assert.deepEqual(back, ROWS);
  });
});

test('segments are cut by content: one changed row changes at most the segments beside it, and hashRows predicts the cut', async () => {
  const store = tempDir('cdp-art-');
  const rows = Array.from({ length: 8 * SEGMENT_TARGET_ROWS }, (_, id) => ({ id, name: `n${id}` }));
  // The rule by hand: at least SEGMENT_MIN_ROWS rows, then the first row that is a cut point.
  const sizes: number[] = [];
  let size = 0;
  for (const r of rows) {
    size++;
    if (size >= SEGMENT_MIN_ROWS && endsSegment(canonicalJson(r))) {
      sizes.push(size);
      size = 0;
    }
  }
  if (size) sizes.push(size);
  await withDuck(async (duck) => {
    const a = await writeArtifact(store, 's', table(rows), COLUMNS, duck);
    assert.deepEqual(
      a.segments.map((s) => s.rows),
      sizes,
    );
    assert.ok(a.segments.length >= 3, `${a.segments.length} segments`);
    assert.ok(
      a.segments.slice(0, -1).every((s) => s.rows >= SEGMENT_MIN_ROWS),
      'no segment but the last is under the minimum',
    );
    assert.deepEqual(
      hashRows(rows, COLUMNS, 's').segments,
      a.segments.map((s) => s.hash),
    );
    assert.deepEqual(readRows(store, 's', a.segments), rows);
    const changed = rows.map((r) => (r.id === 4000 ? { ...r, name: 'changed' } : r));
    const b = await writeArtifact(store, 's', table(changed), COLUMNS, duck, a.segments);
    const before = new Set(a.segments.map((s) => s.hash));
    const fresh = b.segments.filter((s) => !before.has(s.hash));
    assert.ok(fresh.length >= 1 && fresh.length <= 2, `${fresh.length} new segments`);
    assert.ok(b.segments.length - fresh.length >= a.segments.length - 2);
    assert.notEqual(b.hash, a.hash);
    assert.deepEqual(readRows(store, 's', b.segments), changed);
  });
});

test('parts: a reused segment is taken as it is, a one-segment part stays one segment even when empty', async () => {
  const store = tempDir('cdp-art-');
  await withDuck(async (duck) => {
    const a = await writeArtifact(store, 's', table(ROWS), COLUMNS, duck);
    const b = await writeArtifact(
      store,
      's',
      [{ reuse: a.segments[0] }, { rows: [], chunk: false }, { rows: [{ id: 3, name: 'three' }], chunk: false }],
      COLUMNS,
      duck,
    );
    assert.equal(b.segments.length, 3);
    assert.equal(b.segments[0], a.segments[0]);
    assert.equal(b.segments[1].rows, 0);
    assert.equal(b.rows, 3);
    assert.deepEqual(readRows(store, 's', b.segments), [...ROWS, { id: 3, name: 'three' }]);
    const empty = await writeArtifact(store, 's', table([]), COLUMNS, duck);
    assert.equal(empty.segments.length, 1, 'an empty artifact still has a segment, whose Parquet carries the columns');
    const con = await duck();
    const n = await con.runAndReadAll(
      `select count(*)::INTEGER as n from read_parquet('${segmentPaths(store, 's', empty.segments[0].hash).parquet}')`,
    );
    assert.deepEqual(n.getRowObjectsJson(), [{ n: 0 }]);
  });
});
