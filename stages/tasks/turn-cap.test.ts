import { test } from 'node:test';
import assert from 'node:assert/strict';
import { turnCap } from './turn-cap.ts';

test('default cap is 2 × length + 4 doctor turns', () => {
  assert.deepEqual(
    [0, 1, 3, 7].map((l) => turnCap(l)),
    [4, 6, 10, 18],
  );
});

test('fractional products round up; custom factor and extra', () => {
  assert.equal(turnCap(3, 1.5, 0), 5);
  assert.equal(turnCap(3, 1, 1), 4);
});

test('a cap below one turn, or a missing length, is refused with the numbers', () => {
  assert.throws(() => turnCap(2, 0, 0), /0 × 2 \+ 0 = 0 is not a positive number of turns/);
  assert.throws(() => turnCap(Number.NaN), /NaN/);
});
