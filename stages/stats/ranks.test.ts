import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argsort, averageRanks, rankSample, sumOverTieGroups } from './ranks.ts';
import { createRng } from './rng.ts';

test('argsort orders negatives, zeros, tiny and huge values like a numeric comparator, stably', () => {
  const rng = createRng(5);
  const pool = [-1e300, -3.5, -1, -5e-324, -0, 0, 5e-324, 1e-10, 0.5, 1, 2, 1e300];
  const values = Float64Array.from({ length: 3000 }, (_, i) =>
    i % 3 === 0 ? pool[rng.nextInt(pool.length)]! : (rng.nextFloat() - 0.5) * 10 ** rng.nextInt(12),
  );
  const got = Array.from(argsort(values));
  // Array.prototype.sort is stable; -0 and 0 compare equal (difference 0).
  const want = Array.from({ length: values.length }, (_, i) => i).sort((a, b) => values[a]! - values[b]!);
  assert.deepEqual(got, want);
});

test('argsort keeps the given order among equal values', () => {
  const values = Float64Array.from([2, 1, 2, 1, 2]);
  assert.deepEqual(Array.from(argsort(values, Int32Array.from([4, 3, 2, 1, 0]))), [3, 1, 4, 2, 0]);
});

test('average ranks and tie sums', () => {
  assert.deepEqual(Array.from(averageRanks(Float64Array.from([10, 20, 20, 5, 20, -0, 0]))), [4, 6, 6, 3, 6, 1.5, 1.5]);
  // Tie groups of sizes 1, 2, 3: Σ (t³ − t) = 0 + 6 + 24.
  assert.equal(
    sumOverTieGroups([1, 2, 2, 3, 3, 3], (t) => t ** 3 - t),
    30,
  );
});

test('rankSample counts tied pairs and t³ − t over tie groups', () => {
  // Groups: {5} t=1, {7,7} t=2, {9,9,9} t=3 → tied pairs 0 + 1 + 3 = 4; Σ(t³ − t) = 0 + 6 + 24 = 30.
  const r = rankSample(Float64Array.from([9, 7, 5, 9, 7, 9]));
  assert.deepEqual(Array.from(r.ranks), [5, 2.5, 1, 5, 2.5, 5]);
  assert.equal(r.tiedPairs, 4);
  assert.equal(r.tieCubes, 30);
});
