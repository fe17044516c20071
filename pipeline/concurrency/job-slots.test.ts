import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobSlots, criticalPaths } from './job-slots.ts';

test('a freed slot goes to the waiting stage of the highest priority; ties to the first to ask', async () => {
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

test('criticalPaths: a stage’s weight plus the heaviest chain below it, counted along the heaviest path only', () => {
  //  a → b → d, a → c → d, d → e; f alone; x not selected (c → x)
  const edges: Record<string, string[]> = { a: ['b', 'c'], b: ['d'], c: ['d', 'x'], d: ['e'], e: [], f: [], x: [] };
  const selected = new Set(['a', 'b', 'c', 'd', 'e', 'f']);
  const seconds: Record<string, number> = { a: 2, b: 10, c: 1, d: 3, e: 0.5, x: 100 };
  const paths = criticalPaths(
    selected,
    (n) => edges[n]!,
    selected,
    (n) => seconds[n],
  );
  // e 0.5; d 3 + 0.5; b 10 + 3.5; c 1 + 3.5 (x not selected); a 2 + max(13.5, 4.5); f unweighed: 1.
  assert.deepEqual(Object.fromEntries(paths), { a: 15.5, b: 13.5, c: 4.5, d: 3.5, e: 0.5, f: 1 });
  // Nothing weighed: the longest chain in stages.
  assert.deepEqual(
    Object.fromEntries(
      criticalPaths(
        selected,
        (n) => edges[n]!,
        selected,
        () => undefined,
      ),
    ),
    {
      a: 4,
      b: 3,
      c: 3,
      d: 2,
      e: 1,
      f: 1,
    },
  );
});

test('the slots follow the critical path: a stage whose one successor is long goes before one that feeds quick leaves', async () => {
  // pairs → agreement (14 s); threshold → figures (1 s), index (1 s): by count the threshold went first.
  const edges: Record<string, string[]> = { pairs: ['agreement'], agreement: [], threshold: ['figures', 'index'], figures: [], index: [] };
  const seconds: Record<string, number> = { pairs: 2, agreement: 14, threshold: 8, figures: 1, index: 1 };
  const names = new Set(Object.keys(edges));
  const paths = criticalPaths(
    names,
    (n) => edges[n]!,
    names,
    (n) => seconds[n],
  );
  const slots = new JobSlots(1, (s) => paths.get(s)!);
  slots.acquire('running');
  const order: string[] = [];
  const waiting = ['threshold', 'pairs'].map(async (s) => {
    await slots.acquire(s);
    order.push(s);
    slots.release();
  });
  slots.release();
  await Promise.all(waiting);
  assert.deepEqual(order, ['pairs', 'threshold']);
});

test('jobs below 1 are refused', () => {
  assert.throws(() => new JobSlots(0, () => 0), /jobs must be at least 1, got 0/);
});

test('a stage waiting on the pool lends its slot: a waiting stage runs meanwhile, and the lender takes the next slot before any newcomer', async () => {
  const slots = new JobSlots(1, () => 5);
  const order: string[] = [];
  assert.equal(slots.acquire('statistic'), undefined);
  let finishPool!: (rows: string) => void;
  const pool = new Promise<string>((resolve) => (finishPool = resolve));
  const statistic = slots.away(pool).then((rows) => {
    order.push(`statistic back with ${rows}`);
    slots.release();
  });
  // The slot is free while the statistic waits: a cheap stage gets it at once.
  assert.equal(slots.acquire('cheap'), undefined);
  order.push('cheap runs');
  finishPool('its rows');
  // A newcomer of the highest priority asks before the cheap stage is done; the lender still goes first.
  const newcomer = (async () => {
    await slots.acquire('newcomer', 100);
    order.push('newcomer runs');
    slots.release();
  })();
  await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(order, ['cheap runs'], 'no slot is free until the cheap stage releases it');
  slots.release();
  await Promise.all([statistic, newcomer]);
  assert.deepEqual(order, ['cheap runs', 'statistic back with its rows', 'newcomer runs']);
});
