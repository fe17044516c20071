// The memo's key index (pipeline/store/memo-index.ts): a closed writer leaves one, lookups use it
// instead of scanning, and an index that is missing, stale or lying is never trusted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RowStore } from '../store/row-store.ts';
import { INDEXED_FROM, MemoIndex } from '../store/memo-index.ts';
import { memoLine } from '../store/memo-line.ts';
import { tempDir } from '../testing/temp-dir.ts';

function filled(n: number): { store: RowStore; file: string } {
  const store = new RowStore(join(tempDir('cdp-memo-'), 'units'));
  const w = store.writer();
  for (let i = 0; i < n; i++) w.append(`k${i}`, [{ i }]);
  w.close();
  return { store, file: join(store.dir, store.segments()[0]) };
}

test('a closed writer leaves an index; lookups through it find every unit and miss the others', () => {
  const { store, file } = filled(3000);
  assert.ok(existsSync(`${file}.idx`));
  assert.equal(MemoIndex.open(file)!.size, 3000);
  const memo = store.open();
  assert.deepEqual(memo.get('k0'), [{ i: 0 }]);
  assert.deepEqual(memo.get('k2999'), [{ i: 2999 }]);
  assert.deepEqual(memo.get('k1500'), [{ i: 1500 }]);
  assert.equal(memo.has('k3000'), false);
  assert.equal(memo.get('nope'), undefined);
  memo.close();
});

test('a file of fewer than INDEXED_FROM units gets no index and is scanned', () => {
  const { store, file } = filled(INDEXED_FROM - 1);
  assert.equal(existsSync(`${file}.idx`), false);
  const memo = store.open();
  assert.deepEqual(
    [memo.get('k0'), memo.get(`k${INDEXED_FROM - 2}`), memo.has(`k${INDEXED_FROM - 1}`)],
    [[{ i: 0 }], [{ i: INDEXED_FROM - 2 }], false],
  );
  memo.close();
  assert.ok(existsSync(`${filled(INDEXED_FROM).file}.idx`));
});

test('the index is what is read: with the data lines moved behind its back, the line it points to is checked', () => {
  const { store, file } = filled(INDEXED_FROM);
  // Same size, other order: the index now points at the wrong lines.
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const swapped = [lines[1], lines[0], ...lines.slice(2)];
  assert.equal(swapped.join('\n').length, lines.join('\n').length);
  writeFileSync(file, swapped.join('\n') + '\n');
  assert.throws(() => store.open().get('k0'), /points to another unit.*cdp clean/);
});

test('no index (a killed writer), or one for a file of another size, and the file is scanned', () => {
  const { store, file } = filled(INDEXED_FROM);
  rmSync(`${file}.idx`);
  assert.deepEqual(store.open().get('k3'), [{ i: 3 }]);
  const again = filled(INDEXED_FROM);
  assert.notEqual(MemoIndex.open(again.file), null);
  appendFileSync(again.file, '{"k":"k9","r":[{"i":9}]}\n');
  assert.equal(MemoIndex.open(again.file), null, 'stale: the data grew after the index was written');
  assert.deepEqual(again.store.open().get('k9'), [{ i: 9 }]);
});

test('newer files win over older ones, and compaction writes an index for what it keeps', () => {
  const n = INDEXED_FROM + 2;
  const { store } = filled(n);
  const w = store.writer();
  w.append('k2', [{ i: 'again' }]);
  w.close();
  assert.deepEqual(store.open().get('k2'), [{ i: 'again' }]);
  const keep = new Set(Array.from({ length: INDEXED_FROM }, (_, i) => `k${i + 1}`));
  assert.deepEqual(store.compact(keep), { kept: INDEXED_FROM, dropped: 2 });
  const [only] = store.segments();
  assert.equal(MemoIndex.open(join(store.dir, only))!.size, INDEXED_FROM);
  const memo = store.open();
  assert.deepEqual([memo.get('k1'), memo.get('k2'), memo.has('k0')], [[{ i: 1 }], [{ i: 'again' }], false]);
});

test("a commit's fsync runs off the main thread; its lines are written at once, and closeAsync writes the rest before it waits", async () => {
  const store = new RowStore(join(tempDir('cdp-memo-'), 'units'));
  const w = store.writer();
  for (let i = 0; i < 10; i++) w.append(`k${i}`, [{ i }]);
  w.commit();
  const file = join(store.dir, store.segments()[0]);
  // Written when commit() returns (a kill now keeps them), while its fsync is still in flight.
  assert.equal(readFileSync(file, 'utf8').trimEnd().split('\n').length, 10);
  const later = w.append('k10', [{ i: 10 }]);
  w.commit(); // an fsync is in flight: this one writes its line, the next fsync takes it
  assert.throws(() => w.close(), /close\(\) while a commit's fsync is in flight; use closeAsync\(\)/);
  const last = w.append('k11', [{ i: 11 }]);
  const closing = w.closeAsync();
  // The stage reads its units back while the memo's last fsync runs: every line is there already.
  const text = readFileSync(file, 'utf8');
  assert.equal(text.slice(later.offset, later.offset + later.bytes), memoLine('k10', [{ i: 10 }]));
  assert.equal(text.slice(last.offset, last.offset + last.bytes), memoLine('k11', [{ i: 11 }]));
  await closing;
  const memo = store.open();
  assert.deepEqual([memo.get('k0'), memo.get('k11')], [[{ i: 0 }], [{ i: 11 }]]);
  memo.close();
});
