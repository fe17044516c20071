import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pearson, spearman, kendallTauB, correlations } from './correlation.ts';
import { averageRanks, rankSample } from './ranks.ts';

interface Case {
  kind: string;
  x: number[];
  y: number[];
  pearson: number;
  spearman: number;
  kendall_tau_b: number;
}
const ref = JSON.parse(readFileSync(new URL('./fixtures/reference.json', import.meta.url), 'utf8')) as { correlations: Case[] };
const f = (a: number[]) => Float64Array.from(a);

test('Pearson, Spearman and Kendall τ-b match SciPy on random vectors, with and without ties', () => {
  assert.ok(ref.correlations.length >= 25);
  assert.ok(ref.correlations.some((c) => c.kind.includes('binary')) && ref.correlations.some((c) => c.kind.includes('ties4')));
  for (const c of ref.correlations) {
    const x = f(c.x),
      y = f(c.y);
    const where = `${c.kind} n=${c.x.length}`;
    assert.ok(Math.abs(pearson(x, y) - c.pearson) < 1e-12, `pearson ${where}: ${pearson(x, y)} vs ${c.pearson}`);
    assert.ok(Math.abs(spearman(x, y) - c.spearman) < 1e-12, `spearman ${where}: ${spearman(x, y)} vs ${c.spearman}`);
    assert.ok(Math.abs(kendallTauB(x, y) - c.kendall_tau_b) < 1e-12, `kendall ${where}: ${kendallTauB(x, y)} vs ${c.kendall_tau_b}`);
  }
});

test('Kendall τ-b on a hand-computed case with ties in both variables', () => {
  // x = [1, 2, 2, 3], y = [1, 3, 2, 2]. The 6 pairs: (0,1) C, (0,2) C, (0,3) C,
  // (1,2) tied in x, (1,3) D (x up, y down), (2,3) tied in y.
  // C − D = 3 − 1 = 2; n0 = 6, n1 = 1 (x tie), n2 = 1 (y tie); τ_b = 2 / √(5·5) = 0.4.
  assert.ok(Math.abs(kendallTauB(f([1, 2, 2, 3]), f([1, 3, 2, 2])) - 0.4) < 1e-15);
});

test('average ranks give ties the mean of the ranks they span', () => {
  assert.deepEqual(Array.from(averageRanks(f([10, 20, 20, 5, 20, -0, 0]))), [4, 6, 6, 3, 6, 1.5, 1.5]);
});

test('perfect and reversed orderings; a constant side gives NaN', () => {
  const x = f([1, 2, 3, 4, 5]),
    y = f([2, 4, 8, 16, 32]);
  const c = correlations(x, y);
  assert.equal(c.spearman, 1);
  assert.equal(c.kendallTauB, 1);
  assert.ok(c.pearson > 0.9 && c.pearson < 1);
  assert.equal(kendallTauB(x, f([5, 4, 3, 2, 1])), -1);
  assert.ok(Number.isNaN(pearson(x, f([3, 3, 3, 3, 3]))));
  assert.ok(Number.isNaN(kendallTauB(x, f([3, 3, 3, 3, 3]))));
});

test('Kendall τ-b is exact at paper scale without overflow (n = 120,000, heavy ties)', () => {
  // Monotone transform of x with ties → τ-b must be exactly the tied-ordering value 1.
  const n = 120000;
  const x = new Float64Array(n),
    y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = (i * 7919) % 1000;
    y[i] = Math.floor(x[i]! / 10);
  }
  // y only merges x's tie groups, so there are no discordant pairs; C = n0 − n2 and
  // τ_b = (n0 − n2) / √((n0 − n1)(n0 − n2)) = √((n0 − n2)/(n0 − n1)).
  const n0 = (n * (n - 1)) / 2,
    n1 = 1000 * ((120 * 119) / 2),
    n2 = 100 * ((1200 * 1199) / 2);
  assert.ok(Math.abs(kendallTauB(x, y) - Math.sqrt((n0 - n2) / (n0 - n1))) < 1e-12);
});

test('bad input is rejected with the array and index named', () => {
  assert.throws(() => pearson(f([1, 2, 3]), f([1, 2])), /x has 3 values but y has 2/);
  assert.throws(() => spearman(f([1, NaN, 3]), f([1, 2, 3])), /x\[1\] is NaN/);
  assert.throws(() => kendallTauB(f([1, 2, 3]), f([1, 2, Infinity])), /y\[2\] is Infinity/);
  assert.throws(() => pearson(f([1]), f([1])), /at least 2 pairs/);
  assert.throws(
    () => correlations(f([1, 2, 3]), f([3, 2, 1]), { x: rankSample(f([1, 2])), y: rankSample(f([3, 2, 1])) }),
    /rank the same arrays/,
  );
});

test('correlations with pre-ranked samples equal the plain calls', () => {
  const x = f([3, 1, 4, 1, 5, 9, 2, 6, 5, 3]),
    y = f([2, 7, 1, 8, 2, 8, 1, 8, 2, 8]);
  assert.deepEqual(correlations(x, y, { x: rankSample(x), y: rankSample(y) }), {
    pearson: pearson(x, y),
    spearman: spearman(x, y),
    kendallTauB: kendallTauB(x, y),
    n: 10,
  });
});
