// A segment's projection: the same rows as picking the members from its lines; read back instead
// of the lines on the next call; made again from the lines when it is torn, of another segment or
// columns, or holds another number of rows; named so that `cdp clean` drops it with its segment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { canonicalJson } from '../hash/canonical.ts';
import { segmentPaths } from './artifacts.ts';
import { projectedSegment, projectionPath } from './segment-projections.ts';

const rows = [
  { id: 1, text: 'long, {"nested"} "quoted"', v: [1, 2.5], name: 'a' },
  { id: 2, text: '', v: [], name: null },
  { id: 3, text: '中文', v: [0], name: 'c' },
];
const HASH = 'f'.repeat(64);

function store(): { dir: string; ndjson: string; lines: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-projections-'));
  const { ndjson } = segmentPaths(dir, 'wide', HASH);
  mkdirSync(dirname(ndjson), { recursive: true });
  const lines = rows.map((r) => canonicalJson(r)).join('\n') + '\n';
  writeFileSync(ndjson, lines);
  return { dir, ndjson, lines };
}

const seg = { hash: HASH, rows: rows.length };
const expected = [
  { id: 1, name: 'a', v: [1, 2.5] },
  { id: 2, name: null, v: [] },
  { id: 3, name: 'c', v: [0] },
];

test('the projection holds the picked members, in the line order, and is read back without the lines', () => {
  const { dir, ndjson } = store();
  assert.deepEqual(projectedSegment(dir, 'wide', seg, ['id', 'name', 'v']), expected);
  const path = projectionPath(dir, 'wide', HASH, ['id', 'name', 'v']);
  assert.ok(existsSync(path));
  assert.ok(basename(path).startsWith(`${HASH}.`), 'a segment file: cdp clean keeps or drops it with its segment');
  assert.deepEqual(Object.keys(projectedSegment(dir, 'wide', seg, ['id', 'name', 'v'])[0]!), ['id', 'name', 'v']);
  rmSync(ndjson);
  assert.deepEqual(projectedSegment(dir, 'wide', seg, ['id', 'name', 'v']), expected, 'read from the projection alone');
  assert.throws(() => projectedSegment(dir, 'wide', seg, ['id']), /ENOENT/, 'other columns: another projection, made from the lines');
});

test('a torn projection, or one of another segment or row count, is made again from the lines', () => {
  const { dir } = store();
  const cols = ['id', 'v'];
  const path = projectionPath(dir, 'wide', HASH, cols);
  const want = expected.map(({ id, v }) => ({ id, v }));
  assert.deepEqual(projectedSegment(dir, 'wide', seg, cols), want);
  const good = readFileSync(path, 'utf8');
  for (const bad of [
    good.slice(0, good.length / 2),
    '',
    JSON.stringify({ segment: 'e'.repeat(64), columns: cols, rows: want }),
    JSON.stringify({ segment: HASH, columns: ['id'], rows: want }),
    JSON.stringify({ segment: HASH, columns: cols, rows: want.slice(1) }),
  ]) {
    writeFileSync(path, bad);
    assert.deepEqual(projectedSegment(dir, 'wide', seg, cols), want);
    assert.equal(readFileSync(path, 'utf8'), good, 'written again');
  }
});

test('a projection that cannot be written costs nothing but the next scan', () => {
  const { dir } = store();
  const path = projectionPath(dir, 'wide', HASH, ['id']);
  mkdirSync(path); // a directory where the file would go: the rename fails
  assert.deepEqual(projectedSegment(dir, 'wide', seg, ['id']), [{ id: 1 }, { id: 2 }, { id: 3 }]);
});
