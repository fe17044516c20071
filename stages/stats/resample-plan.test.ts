import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeResamplePlan, resampledSums } from './resample-plan.ts';
import { createRng } from './rng.ts';

/** Each resample's draw counts, rebuilt from the plan's bit layers and extras. */
function countsFromPlan(plan: ReturnType<typeof makeResamplePlan>, r: number): number[] {
  const w = new Array<number>(plan.items).fill(0);
  for (let g = 0; g < plan.groups; g++) {
    for (let j = 0; j < 8; j++) {
      const i = g * 8 + j;
      if ((plan.once[g * plan.resamples + r]! >> j) & 1) w[i]!++;
      if ((plan.twice[g * plan.resamples + r]! >> j) & 1) w[i]!++;
    }
  }
  for (let e = plan.extraStart[r]!; e < plan.extraStart[r + 1]!; e++) w[plan.extraItem[e]!]! += plan.extraTimes[e]!;
  return w;
}

test('the plan encodes exactly the counts of nextInt draws, resample after resample', () => {
  for (const items of [1, 3, 8, 37]) {
    const plan = makeResamplePlan(items, 200, 11);
    const rng = createRng(11);
    for (let r = 0; r < 200; r++) {
      const want = new Array<number>(items).fill(0);
      for (let k = 0; k < items; k++) want[rng.nextInt(items)]!++;
      assert.deepEqual(countsFromPlan(plan, r), want, `items ${items}, resample ${r}`);
    }
  }
});

test('items drawn 3+ times are in the extras (a resample of 3 items often draws one item thrice)', () => {
  const plan = makeResamplePlan(3, 500, 1);
  assert.ok(plan.extraItem.length > 0);
  for (let r = 0; r < 500; r++)
    assert.equal(
      countsFromPlan(plan, r).reduce((s, x) => s + x, 0),
      3,
    );
});

test('resampled sums equal Σ w·v for every vector, however many share the call', () => {
  const items = 21,
    plan = makeResamplePlan(items, 64, 3);
  const rng = createRng(8);
  const vectors = Array.from({ length: 6 }, () => Float64Array.from({ length: items }, () => rng.nextFloat() - 0.3));
  const sums = resampledSums(vectors, plan);
  assert.equal(sums.length, 6);
  for (let r = 0; r < 64; r++) {
    const w = countsFromPlan(plan, r);
    vectors.forEach((v, k) => {
      const want = v.reduce((s, x, i) => s + w[i]! * x, 0);
      assert.ok(Math.abs(sums[k]![r]! - want) < 1e-12, `vector ${k}, resample ${r}`);
    });
  }
  // Alone (the one-lane kernels) or fifth of five: the very sums the four-lane kernels give it.
  assert.deepEqual(resampledSums([vectors[5]!], plan)[0], sums[5]);
  assert.deepEqual(resampledSums(vectors.slice(0, 5), plan), sums.slice(0, 5));
  assert.throws(() => resampledSums([new Float64Array(4)], plan), /vector 0 has 4 values but the plan resamples 21 items/);
});

test('a plan is made once per (items, resamples, seed) while it is among the last two, and is the same draws when made again', () => {
  const a = makeResamplePlan(37, 50, 7);
  assert.equal(makeResamplePlan(37, 50, 7), a, 'kept');
  const b = makeResamplePlan(38, 50, 7);
  makeResamplePlan(39, 50, 7);
  makeResamplePlan(40, 50, 7);
  const again = makeResamplePlan(37, 50, 7);
  assert.notEqual(again, a, 'pushed out by newer plans');
  assert.deepEqual([again.once, again.twice, again.extraItem], [a.once, a.twice, a.extraItem]);
  assert.notDeepEqual(b.once, a.once);
});
