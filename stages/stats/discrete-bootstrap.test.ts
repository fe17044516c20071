import { test } from 'node:test';
import assert from 'node:assert/strict';
import { binomialDraw, binomialSampler, discreteBootstrap, discreteBootstrapMeans } from './discrete-bootstrap.ts';
import { percentileBootstrap } from './bootstrap.ts';
import { lnGamma, chiSquareSurvival } from './chi-square.ts';
import { createRng } from './rng.ts';

const pmf = (n: number, p: number, k: number) =>
  Math.exp(lnGamma(n + 1) - lnGamma(k + 1) - lnGamma(n - k + 1) + k * Math.log(p) + (n - k) * Math.log1p(-p));

test('binomial draws follow the binomial pmf: a χ² goodness-of-fit over 200,000 draws, mean and variance at n = 32,155', () => {
  for (const [n, p] of [
    [50, 0.3],
    [12, 0.9],
    [400, 0.02],
  ] as const) {
    for (const [how, draw] of [
      ['walk from the mode', (r: ReturnType<typeof createRng>) => binomialDraw(n, p, r)],
      ['tabulated CDF', binomialSampler(n, p)],
    ] as const) {
      const rng = createRng(11);
      const counts = new Float64Array(n + 1);
      const draws = 200000;
      for (let i = 0; i < draws; i++) counts[draw(rng)]!++;
      // Pool the tails so every expected count is ≥ 5, then test.
      let stat = 0,
        cells = 0,
        pooledObs = 0,
        pooledExp = 0;
      for (let k = 0; k <= n; k++) {
        pooledObs += counts[k]!;
        pooledExp += draws * pmf(n, p, k);
        if (pooledExp >= 5) {
          stat += (pooledObs - pooledExp) ** 2 / pooledExp;
          cells++;
          pooledObs = pooledExp = 0;
        }
      }
      const pValue = chiSquareSurvival(stat, cells - 1);
      assert.ok(pValue > 1e-4, `Binomial(${n}, ${p}), ${how}: χ² ${stat.toFixed(1)} on ${cells - 1} df, p ${pValue}`);
    }
  }
  const rng = createRng(5);
  const big = Float64Array.from({ length: 20000 }, () => binomialDraw(32155, 0.5, rng));
  const mean = big.reduce((a, b) => a + b, 0) / big.length;
  const variance = big.reduce((a, b) => a + (b - mean) ** 2, 0) / (big.length - 1);
  assert.ok(Math.abs(mean - 16077.5) < 4 * Math.sqrt(8038.75 / 20000), `mean ${mean}`);
  assert.ok(Math.abs(variance / 8038.75 - 1) < 0.05, `variance ${variance}`);
  assert.deepEqual([binomialDraw(0, 0.5, rng), binomialDraw(9, 0, rng), binomialDraw(9, 1, rng)], [0, 0, 9]);
  assert.deepEqual([binomialSampler(0, 0.5)(rng), binomialSampler(9, 0)(rng), binomialSampler(9, 1)(rng)], [0, 0, 9]);
});

/** The exact case-bootstrap percentile interval of a proportion: the Binomial(n, p̂) quantiles, over n. */
function exactBinomialCi(n: number, ones: number, level = 0.95): [number, number] {
  const p = ones / n;
  let cdf = 0,
    lo = -1,
    hi = -1;
  for (let k = 0; k <= n; k++) {
    cdf += pmf(n, p, k);
    if (lo < 0 && cdf >= (1 - level) / 2) lo = k;
    if (hi < 0 && cdf >= (1 + level) / 2) hi = k;
  }
  return [lo / n, hi / n];
}

test('a proportion: the CI is the exact bootstrap interval (binomial quantiles) within one case, and agrees with percentileBootstrap', () => {
  for (const [n, ones] of [
    [200, 120],
    [37, 5],
    [5000, 4100],
  ] as const) {
    const values = Float64Array.from({ length: n }, (_, i) => (i < ones ? 1 : 0));
    const r = discreteBootstrap(values, { resamples: 10000, seed: 3 });
    const [lo, hi] = exactBinomialCi(n, ones);
    assert.ok(
      Math.abs(r.ciLow - lo) <= 1 / n + 1e-12 && Math.abs(r.ciHigh - hi) <= 1 / n + 1e-12,
      `n ${n}: [${r.ciLow}, ${r.ciHigh}] vs exact [${lo}, ${hi}]`,
    );
    const ref = percentileBootstrap(values, { resamples: 10000, seed: 3 });
    // Both are Monte Carlo estimates of the same interval: a few cases apart at most.
    assert.ok(
      Math.abs(r.ciLow - ref.ciLow) <= 4 / n + 1e-12 && Math.abs(r.ciHigh - ref.ciHigh) <= 4 / n + 1e-12,
      `n ${n} vs percentileBootstrap`,
    );
    assert.equal(r.mean, ones / n);
    assert.ok(Math.abs(r.se / ref.se - 1) < 0.05, `n ${n}: se ${r.se} vs ${ref.se}`);
  }
});

test('thirds (the average of three rates): the resampled means match percentileBootstrap in distribution', () => {
  const values = Float64Array.from(
    { length: 900 },
    (_, i) => [0, 1 / 3, 2 / 3, 1][(i * 7) % 4 === 0 ? 0 : i % 3 === 0 ? 1 : i % 5 === 0 ? 3 : 2]!,
  );
  const a = discreteBootstrap(values, { resamples: 20000, seed: 1 });
  const b = percentileBootstrap(values, { resamples: 20000, seed: 1 });
  assert.ok(
    Math.abs(a.ciLow - b.ciLow) < 0.004 && Math.abs(a.ciHigh - b.ciHigh) < 0.004,
    `[${a.ciLow}, ${a.ciHigh}] vs [${b.ciLow}, ${b.ciHigh}]`,
  );
  assert.ok(Math.abs(a.se / b.se - 1) < 0.05);
});

test('one level gives a point interval; many levels go to percentileBootstrap unchanged; bad input is refused', () => {
  assert.deepEqual([discreteBootstrap(new Float64Array(10).fill(1)).ciLow, discreteBootstrap(new Float64Array(10).fill(1)).ciHigh], [1, 1]);
  const many = Float64Array.from({ length: 60 }, (_, i) => i / 60);
  assert.deepEqual(discreteBootstrap(many, { resamples: 500 }), percentileBootstrap(many, { resamples: 500 }));
  assert.equal(discreteBootstrapMeans(many), null);
  assert.throws(() => discreteBootstrap(new Float64Array(0)), /no values/);
  assert.throws(() => discreteBootstrap(Float64Array.from([1, NaN])), /not finite/);
});
