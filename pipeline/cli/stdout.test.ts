// Paced writes wait for the stream to drain; the EPIPE exit is tested end to end in sql.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pacedWriter } from './stdout.ts';

test('a write past the high-water mark resolves only once the stream drains; a failed write rejects', async () => {
  const pending: (() => void)[] = [];
  const seen: string[] = [];
  const slow = new Writable({
    highWaterMark: 4,
    write(chunk: Buffer, _enc, done) {
      seen.push(chunk.toString());
      pending.push(() => done());
    },
  });
  const write = pacedWriter(slow);
  await write('ab');
  let resolved = false;
  const full = write('cdefgh').then(() => (resolved = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(resolved, false, 'resolved before the stream drained');
  for (let turns = 0; !resolved && turns < 100; turns++) {
    pending.shift()?.();
    await new Promise((r) => setImmediate(r));
  }
  await full;
  assert.equal(resolved, true);
  assert.deepEqual(seen, ['ab', 'cdefgh']);

  const broken = new Writable({ highWaterMark: 1, write: (_c, _e, done) => done(new Error('disk full')) });
  broken.on('error', () => {});
  await assert.rejects(pacedWriter(broken)('xyz'), /disk full/);
});
