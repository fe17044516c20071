// A full disk is an error message naming the device and the file; the store's writes finish short
// writes, take a failed append back (no torn line), and cut off a torn last line a kill left.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendWhole, asDiskFull, deviceOf, DiskFullError, errorMessage, isDiskFull, WRITE_FAULT } from '../store/disk-full.ts';
import { writeFileAtomic } from '../store/atomic.ts';
import { RowStore } from '../store/row-store.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'cdp-disk-full-'));
/** Each write to a file whose path contains `part` gets `fits` bytes, then ENOSPC. */
function fillDisk(part: string, fits = 0): void {
  (globalThis as Record<symbol, unknown>)[WRITE_FAULT] = (file: string, bytes: number) =>
    file.includes(part) ? Math.min(fits, bytes) : undefined;
}
afterEach(() => delete (globalThis as Record<symbol, unknown>)[WRITE_FAULT]);

// As Linux writes it (a space in a mount point is \040).
const MOUNTS = [
  '/dev/vda / ext4 rw,relatime 0 0',
  'tmpfs /mnt/tiny tmpfs rw,size=1024k 0 0',
  'tmpfs /mnt/tiny\\040disk tmpfs rw,size=64k 0 0',
  '/dev/vdb /mnt/tinyother ext4 rw 0 0',
].join('\n');

test('the device of a path: the longest mount point above it, octal escapes read', () => {
  assert.equal(deviceOf('/mnt/tiny/store/runs.ndjson', MOUNTS), 'tmpfs (mounted at /mnt/tiny)');
  assert.equal(deviceOf('/mnt/tiny disk/x', MOUNTS), 'tmpfs (mounted at /mnt/tiny disk)');
  assert.equal(
    deviceOf('/mnt/tinyother/x', MOUNTS),
    '/dev/vdb (mounted at /mnt/tinyother)',
    'not /mnt/tiny: a prefix of the name is not a parent',
  );
  assert.equal(deviceOf('/home/x/not-yet-created/file', MOUNTS), '/dev/vda (mounted at /)');
  assert.equal(deviceOf('/x', null), null);
});

test('what a full disk looks like, from Node and from DuckDB', () => {
  const node = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
  const quota = Object.assign(new Error('EDQUOT: disk quota exceeded, write'), { code: 'EDQUOT' });
  // What DuckDB 1.5 said writing a Parquet segment onto a full tmpfs (scripts/full-disk-tmpfs.sh).
  const duck = new Error(
    'IO Error: Could not write file "/mnt/tiny/store/artifacts/words/x.parquet.1.ab12cd34.tmp": No space left on device',
  );
  for (const e of [node, quota, duck]) assert.equal(isDiskFull(e), true, e.message);
  assert.equal(isDiskFull(new Error('Conversion Error: Could not convert string "x" to INT32')), false);
  assert.equal(isDiskFull(Object.assign(new Error('EACCES'), { code: 'EACCES' })), false);
  const named = asDiskFull(node, '/tmp/store/runs.ndjson') as DiskFullError;
  assert.ok(named instanceof DiskFullError);
  assert.match(
    named.message,
    /^no space left on \S+ \(mounted at \/[^)]*\) while writing \/tmp\/store\/runs\.ndjson; free space there and run again/,
  );
  assert.equal(asDiskFull(named, '/elsewhere'), named, 'named once');
  const other = new Error('boom');
  assert.equal(asDiskFull(other, '/x'), other);
  assert.equal(errorMessage(other, { dir: '/tmp', what: 'x' }), 'boom');
  assert.match(
    errorMessage(Object.assign(node, { path: '/tmp/reports/t.csv' }), { dir: '/tmp', what: 'x' }),
    /while writing \/tmp\/reports\/t\.csv;/,
  );
  const nameless = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  assert.match(
    errorMessage(nameless, { dir: '/tmp', what: "stage 'report' was writing" }),
    /^no space left on .* while stage 'report' was writing \(ENOSPC: no space left on device, write\); free space/,
  );
});

test('an append is whole or not at all; a torn last line left by a kill is cut off first', () => {
  const log = join(dir(), 'runs.ndjson');
  appendWhole(log, '{"a":1}\n');
  fillDisk('runs.ndjson', 5);
  assert.throws(
    () => appendWhole(log, '{"a":2}\n{"a":3}\n'),
    (e: Error) => e instanceof DiskFullError && e.file === log,
  );
  assert.equal(readFileSync(log, 'utf8'), '{"a":1}\n', 'the 5 bytes that fitted were taken back');
  delete (globalThis as Record<symbol, unknown>)[WRITE_FAULT];
  writeFileSync(log, '{"a":1}\n{"a":2,"b');
  const torn: number[] = [];
  appendWhole(log, '{"a":3}\n', (n) => torn.push(n));
  assert.deepEqual(torn, [9]);
  assert.equal(readFileSync(log, 'utf8'), '{"a":1}\n{"a":3}\n');
  const one = join(dir(), 'one.ndjson');
  writeFileSync(one, '{"torn":');
  appendWhole(one, '{"a":1}\n', (n) => torn.push(n));
  assert.equal(readFileSync(one, 'utf8'), '{"a":1}\n', 'a file of one torn line');
});

test('an atomic write that fails leaves the old file and no temporary file', () => {
  const d = dir();
  const target = join(d, 'ledger.json');
  writeFileAtomic(target, '{"old":true}');
  fillDisk('ledger.json', 3);
  assert.throws(() => writeFileAtomic(target, '{"new":true}'), /^DiskFullError: no space left on .* while writing .*ledger\.json;/);
  assert.equal(readFileSync(target, 'utf8'), '{"old":true}');
  assert.deepEqual(readdirSync(d), ['ledger.json']);
});

test('a memo writer that hits a full disk keeps what it committed, nothing torn, and writes no index', async () => {
  const store = new RowStore(join(dir(), 'units'));
  const w = store.writer();
  for (let i = 0; i < 100; i++) w.append(`k${i}`, [{ i }]);
  w.commit();
  fillDisk('units', 7);
  w.append('k100', [{ i: 100 }]);
  assert.throws(() => w.commit(), /no space left on .* while writing .*units\/.*\.ndjson/);
  assert.throws(() => w.append('k101', [{ i: 101 }]) && w.commit(), /no space left/, 'the writer takes no more');
  // The first commit's fsync may still be in flight: closeAsync waits for it, then names the full disk.
  await assert.rejects(() => w.closeAsync(), /no space left/);
  delete (globalThis as Record<symbol, unknown>)[WRITE_FAULT];
  const [file] = store.segments();
  const text = readFileSync(join(store.dir, file), 'utf8');
  assert.ok(text.endsWith('\n'), 'no torn line');
  assert.equal(text.split('\n').filter(Boolean).length, 100);
  assert.equal(existsSync(join(store.dir, `${file}.idx`)), false);
  const memo = store.load();
  assert.deepEqual([memo.size, memo.get('k99'), memo.has('k100')], [100, [{ i: 99 }], false]);
});
