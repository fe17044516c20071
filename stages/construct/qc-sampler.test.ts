import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { inspectionScore, isSelectedForInspection, selectForInspection } from './qc-sampler.ts';

const ids = Array.from({ length: 20000 }, (_, i) => `g${i % 37}-cdp-${i}`);

describe('selectForInspection', () => {
  test('stable: the same id, seed and fraction always give the same answer, whatever else is in the list', () => {
    const a = selectForInspection(ids, 0.05, 1);
    const b = selectForInspection(ids.slice().reverse(), 0.05, 1).reverse();
    assert.deepEqual(a, b);
    const sub = selectForInspection(ids.slice(0, 500), 0.05, 1);
    assert.deepEqual(
      sub,
      a.filter((id) => ids.indexOf(id) < 500),
    );
    assert.equal(inspectionScore('g1-cdp-1', 1), inspectionScore('g1-cdp-1', 1));
  });
  test('the selected share is close to the fraction (binomial: 20000 × 0.05 ± 4 sd)', () => {
    const n = selectForInspection(ids, 0.05, 7).length;
    const sd = Math.sqrt(20000 * 0.05 * 0.95);
    assert.ok(Math.abs(n - 1000) < 4 * sd, `${n} selected`);
  });
  test('raising the fraction only adds CDPs', () => {
    const small = new Set(selectForInspection(ids, 0.02, 3));
    const large = new Set(selectForInspection(ids, 0.1, 3));
    for (const id of small) assert.ok(large.has(id));
    assert.ok(large.size > small.size);
  });
  test('different seeds give different samples', () => {
    const a = new Set(selectForInspection(ids, 0.05, 1));
    const b = selectForInspection(ids, 0.05, 2);
    const overlap = b.filter((id) => a.has(id)).length;
    // Independent 5% samples overlap in about 5% of their members.
    assert.ok(overlap < b.length * 0.15, `overlap ${overlap} of ${b.length}`);
  });
  test('scores are spread over [0, 1): each tenth holds about a tenth of the ids', () => {
    const bins = new Array(10).fill(0);
    for (const id of ids) bins[Math.floor(inspectionScore(id, 11) * 10)]++;
    for (const b of bins) assert.ok(Math.abs(b - 2000) < 4 * Math.sqrt(2000 * 0.9), `bins ${bins}`);
  });
  test('edge fractions and invalid input', () => {
    assert.deepEqual(selectForInspection(ids.slice(0, 100), 0, 1), []);
    assert.equal(selectForInspection(ids.slice(0, 100), 1, 1).length, 100);
    assert.throws(() => isSelectedForInspection('x', 1.5, 1), /fraction must be within \[0, 1\], got 1.5/);
    assert.throws(() => isSelectedForInspection('x', Number.NaN, 1), /fraction/);
  });
});
