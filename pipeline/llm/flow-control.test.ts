import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Semaphore } from '../concurrency/semaphore.ts';
import { TokenBucket } from './flow-control.ts';

test('the semaphore never lets more than its limit through and serves waiters in order', async () => {
  const s = new Semaphore(3);
  let active = 0;
  let peak = 0;
  const order: number[] = [];
  await Promise.all(
    Array.from({ length: 10 }, async (_, i) => {
      await s.acquire();
      order.push(i);
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 2));
      active--;
      s.release();
    }),
  );
  assert.equal(peak, 3);
  assert.deepEqual(order, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.throws(() => new Semaphore(0), /at least 1/);
});

test('a token bucket allows a burst of its capacity, then refills at its rate (simulated clock)', async () => {
  let now = 0;
  const b = new TokenBucket(600, () => now); // 10 per second
  for (let i = 0; i < 600; i++) assert.equal(b.take(1), undefined, 'the first minute of capacity is free');
  const waiting = b.take(5);
  assert.ok(waiting instanceof Promise);
  let done = false;
  void waiting.then(() => (done = true));
  now = 400; // 4 tokens refilled: not enough
  await new Promise((r) => setTimeout(r, 5));
  // The timer fires on real time; move the clock past the need and wait for it.
  now = 500;
  await waiting;
  assert.ok(done);
  const next = b.take(1);
  assert.ok(next instanceof Promise, 'the bucket is empty again');
  now = 600;
  await next;
});

test('a take larger than the capacity waits for a full bucket instead of forever', async () => {
  let now = 0;
  const b = new TokenBucket(60_000, () => now);
  assert.equal(b.take(100_000), undefined);
  const p = b.take(1);
  assert.ok(p instanceof Promise);
  now = 10;
  await p;
});
