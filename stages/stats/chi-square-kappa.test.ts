import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { chiSquareIndependence, chiSquareSurvival, lnGamma } from './chi-square.ts';
import { cohensKappaOf } from './cohen-kappa.ts';

// From SciPy and NumPy: fixtures/make_chi2_kappa_reference.py.
const ref = JSON.parse(readFileSync(new URL('./fixtures/chi2-kappa-reference.json', import.meta.url), 'utf8')) as {
  chi2: { table: number[][]; statistic: number; df: number; p: number; min_expected: number }[];
  survival: { x: number; df: number; p: number }[];
  kappa: { first: string[]; second: string[]; kappa: number; observed: number; expected: number }[];
};

const close = (a: number, b: number, rtol: number, what: string) =>
  assert.ok(Math.abs(a - b) <= rtol * Math.abs(b), `${what}: ${a} vs SciPy ${b} (relative ${Math.abs(a - b) / Math.abs(b)})`);

test('χ² of independence equals scipy.stats.chi2_contingency(correction=False) on every reference table', () => {
  assert.ok(ref.chi2.length >= 9);
  for (const [i, c] of ref.chi2.entries()) {
    const r = chiSquareIndependence(c.table);
    assert.ok(r.ok, `table ${i}`);
    close(r.value.statistic, c.statistic, 1e-12, `table ${i} statistic`);
    assert.equal(r.value.df, c.df, `table ${i} df`);
    close(r.value.p, c.p, 1e-9, `table ${i} p`);
    close(r.value.minExpected, c.min_expected, 1e-12, `table ${i} min expected`);
  }
  // The reference spans p from near 1 to below 1e-100: the continued fraction keeps its digits.
  assert.ok(ref.chi2.some((c) => c.p < 1e-100) && ref.chi2.some((c) => c.p > 0.5));
});

test('the χ² survival function equals scipy.stats.chi2.sf; ln Γ matches Γ at integers and 1/2', () => {
  for (const s of ref.survival) close(chiSquareSurvival(s.x, s.df), s.p, 1e-10, `sf(${s.x}, ${s.df})`);
  assert.ok(Math.abs(lnGamma(1)) < 1e-14, 'lnΓ(1) = 0');
  close(Math.exp(lnGamma(5)), 24, 1e-13, 'Γ(5)');
  close(Math.exp(lnGamma(0.5)), Math.sqrt(Math.PI), 1e-13, 'Γ(1/2)');
  assert.equal(chiSquareSurvival(0, 3), 1);
});

test('χ² hand case: 2×2 with counts 10/20 and 20/10', () => {
  // E = 15 everywhere; Σ (±5)²/15 = 4·25/15 = 6.667; df 1; p = erfc(√(6.667/2)) = 0.009823.
  const r = chiSquareIndependence([
    [10, 20],
    [20, 10],
  ]);
  assert.ok(r.ok);
  close(r.value.statistic, 20 / 3, 1e-14, 'statistic');
  assert.equal(r.value.df, 1);
  close(r.value.p, 0.009823274507519235, 1e-9, 'p');
});

test('χ² is undefined, with its reason, when one group has items or every item has one outcome', () => {
  const one = chiSquareIndependence([
    [3, 4],
    [0, 0],
  ]);
  assert.deepEqual(one, { ok: false, reason: 'only 1 group(s) with items: nothing to compare' });
  const same = chiSquareIndependence([
    [5, 0],
    [7, 0],
  ]);
  assert.equal(same.ok, false);
  assert.match((same as { reason: string }).reason, /same outcome/);
  assert.throws(() => chiSquareIndependence([[1, -1]]), /counts must be finite/);
  assert.throws(() => chiSquareIndependence([[1, 2], [3]]), /row 1 has 1 cells/);
});

test("Cohen's κ equals the NumPy hand computation on binary, three-level and skewed labels", () => {
  for (const [i, c] of ref.kappa.entries()) {
    const k = cohensKappaOf(c.first.map((a, j) => [a, c.second[j]!] as const));
    assert.ok(k, `case ${i}`);
    close(k.kappa, c.kappa, 1e-12, `case ${i} κ`);
    close(k.observed, c.observed, 1e-12, `case ${i} p_o`);
    close(k.expected, c.expected, 1e-12, `case ${i} p_e`);
    assert.equal(k.n, c.first.length);
  }
});

test("Cohen's κ hand case: the paper's content-detection proportions 0.09, 0.01, 0.02, 0.47 (×100)", () => {
  // Judge 0 / human 0: 9, judge 0 / human 1: 1, judge 1 / human 0: 2, both 1: 47 (paper §2.6, Fig. 6d).
  const pairs: [number, number][] = [
    ...Array.from({ length: 9 }, () => [0, 0] as [number, number]),
    ...Array.from({ length: 1 }, () => [0, 1] as [number, number]),
    ...Array.from({ length: 2 }, () => [1, 0] as [number, number]),
    ...Array.from({ length: 47 }, () => [1, 1] as [number, number]),
  ];
  const k = cohensKappaOf(pairs)!;
  // p_o = 56/59; p_e = (10·11 + 49·48)/59²; κ = 0.8264 (the paper prints 0.84 from unrounded proportions).
  const po = 56 / 59,
    pe = (10 * 11 + 49 * 48) / 59 ** 2;
  close(k.kappa, (po - pe) / (1 - pe), 1e-14, 'κ');
  assert.equal(Math.round(k.kappa * 100) / 100, 0.83);
  assert.deepEqual(k.confusion, [
    [9, 1],
    [2, 47],
  ]);
  assert.ok(Number.isNaN(cohensKappaOf([[1, 1] as const, [1, 1] as const])!.kappa), 'one shared label: κ undefined');
  assert.equal(cohensKappaOf([]), null);
});
