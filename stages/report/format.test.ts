import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { count2, fixed2, hundredthsText, pct, pctCi, pctHundredths, pctWithCi } from './format.ts';

describe('report number formatting', () => {
  test('fractions print as percentages with 2 decimals, halves rounded away from zero as written', () => {
    assert.equal(pct(0.44612), '44.61');
    assert.equal(pct(0.28725), '28.73'); // 0.28725 × 10000 is 2872.4999… in binary; printed as written
    assert.equal(pct(0.446049), '44.60');
    assert.equal(pct(1), '100.00');
    assert.equal(pct(0), '0.00');
    assert.equal(pct(0.0005), '0.05');
    assert.equal(pct(-0.00125), '-0.13');
    assert.equal(pct(null), '—');
    assert.equal(pct(NaN), '—');
  });

  test('hundredths: integer arithmetic, sign and zero padding', () => {
    assert.equal(pctHundredths(0.4461), 4461);
    assert.equal(hundredthsText(-5), '-0.05');
    assert.equal(hundredthsText(4461), '44.61');
    assert.equal(hundredthsText(7), '0.07');
    assert.equal(hundredthsText(0), '0.00');
  });

  test("the paper's CI cell and the CI alone", () => {
    assert.equal(pctWithCi(0.4461, 0.4407, 0.4516), '44.61 (44.07–45.16)');
    assert.equal(pctWithCi(0.4461, null, null), '44.61');
    assert.equal(pctWithCi(null, 0.1, 0.2), '—');
    assert.equal(pctCi(0.43, 0.46), '(43.00–46.00)');
    assert.equal(pctCi(null, 0.46), '—');
  });

  test('plain numbers: 2 decimals; length statistics keep integers as integers', () => {
    assert.equal(fixed2(0.786316), '0.79');
    assert.equal(fixed2(-0.125), '-0.13');
    assert.equal(fixed2(null), '—');
    assert.equal(count2(6), '6');
    assert.equal(count2(6.5128), '6.51');
    assert.equal(count2(1.3000000000000007), '1.30');
  });
});
