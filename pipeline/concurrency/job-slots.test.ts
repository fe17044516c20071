import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobSlots, downstreamCounts } from './job-slots.ts';

test('a freed slot goes to the waiting stage with the most stages downstream; ties to the first to ask', async () => {
  const priority: Record<string, number> = { leaf: 0, report: 1, hub: 9, other: 1 };
  const slots = new JobSlots(1, (s) => priority[s]!);
  const order: string[] = [];
  assert.equal(slots.acquire('first'), undefined, 'a free slot is taken at once');
  const waiting = ['leaf', 'report', 'hub', 'other'].map(async (s) => {
    await slots.acquire(s);
    order.push(s);
    slots.release();
  });
  slots.release();
  await Promise.all(waiting);
  assert.deepEqual(order, ['hub', 'report', 'other', 'leaf']);
});

test('downstreamCounts: each stage’s selected descendants, counted once however many paths lead there', () => {
  //  a → b → d, a → c → d, d → e; f alone; x not selected (c → x)
  const edges: Record<string, string[]> = { a: ['b', 'c'], b: ['d'], c: ['d', 'x'], d: ['e'], e: [], f: [], x: [] };
  const selected = new Set(['a', 'b', 'c', 'd', 'e', 'f']);
  const counts = downstreamCounts(selected, (n) => edges[n]!, selected);
  assert.deepEqual(Object.fromEntries(counts), { a: 4, b: 2, c: 2, d: 1, e: 0, f: 0 });
});

test('jobs below 1 are refused', () => {
  assert.throws(() => new JobSlots(0, () => 0), /jobs must be at least 1, got 0/);
});
