import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng, rngFromState } from './rng.ts';

test('xoshiro128** matches the reference sequence for state (1, 2, 3, 4)', () => {
  // First outputs of the authors' C reference implementation seeded with s = {1, 2, 3, 4}.
  const r = rngFromState(1, 2, 3, 4);
  assert.deepEqual([r.nextUint32(), r.nextUint32(), r.nextUint32(), r.nextUint32()], [11520, 0, 5927040, 70819200]);
});

test('same seed, same stream; different seeds, different streams', () => {
  const a = createRng(42),
    b = createRng(42),
    c = createRng(43);
  const xs = Array.from({ length: 8 }, () => a.nextUint32());
  assert.deepEqual(
    Array.from({ length: 8 }, () => b.nextUint32()),
    xs,
  );
  assert.notDeepEqual(
    Array.from({ length: 8 }, () => c.nextUint32()),
    xs,
  );
});

test('nextInt is uniform over a range that does not divide 2^32 (chi-square)', () => {
  const r = createRng(7);
  const n = 7,
    draws = 70000,
    counts = new Array(n).fill(0);
  for (let i = 0; i < draws; i++) counts[r.nextInt(n)]++;
  const expected = draws / n;
  const chi2 = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
  // 6 degrees of freedom: P(chi2 > 22.46) = 0.001.
  assert.ok(chi2 < 22.46, `chi2 = ${chi2}`);
  assert.throws(() => r.nextInt(0), /integer in 1\.\.2\^32/);
});

test('nextFloat lies in [0, 1) with mean near 1/2', () => {
  const r = createRng(1);
  let sum = 0;
  for (let i = 0; i < 100000; i++) {
    const x = r.nextFloat();
    assert.ok(x >= 0 && x < 1);
    sum += x;
  }
  assert.ok(Math.abs(sum / 100000 - 0.5) < 0.005);
});

test('fillInt gives the same values and leaves the stream where nextInt would', () => {
  for (const n of [1, 7, 7458, 2 ** 31 - 1, 2 ** 31]) {
    const a = createRng(42),
      b = createRng(42);
    const bulk = new Int32Array(1000);
    a.fillInt(bulk, n);
    const one = Array.from({ length: 1000 }, () => b.nextInt(n));
    assert.deepEqual(Array.from(bulk), one, `n = ${n}`);
    assert.equal(a.nextUint32(), b.nextUint32());
  }
  assert.throws(() => createRng(1).fillInt(new Int32Array(1), 2 ** 32), /at most 2\^31/);
});
