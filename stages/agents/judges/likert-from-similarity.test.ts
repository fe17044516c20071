import { test } from 'node:test';
import assert from 'node:assert/strict';
import { likertFromSimilarity } from './likert-from-similarity.ts';
import { normaliseLikert } from '../../judge/parse-step-scores.ts';

test('1 + round(4·s), halves up, at the band edges', () => {
  const cases: Array<[number, number]> = [
    [0, 1],
    [0.124, 1],
    [0.125, 2],
    [0.25, 2],
    [0.374, 2],
    [0.375, 3],
    [0.5, 3],
    [0.624, 3],
    [0.625, 4],
    [0.75, 4],
    [0.874, 4],
    [0.875, 5],
    [1, 5],
  ];
  for (const [s, l] of cases) assert.equal(likertFromSimilarity(s), l, `s = ${s}`);
});

test("after normalisation the judge's C is s rounded to the nearest quarter", () => {
  for (const s of [0, 0.1, 0.2, 0.3, 0.45, 0.6, 2 / 3, 0.8, 0.95, 1]) {
    const c = normaliseLikert(Float64Array.of(likertFromSimilarity(s)))[0];
    assert.ok(Math.abs(c - s) <= 0.125, `s = ${s} → C = ${c}`);
    assert.equal(c * 4, Math.round(c * 4));
  }
});

test('values outside [0, 1] are refused', () => {
  for (const s of [-0.01, 1.01, Number.NaN]) assert.throws(() => likertFromSimilarity(s), /not in \[0, 1\]/);
});
