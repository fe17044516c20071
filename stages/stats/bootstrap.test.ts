import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  percentileBootstrap,
  percentileBootstrapMany,
  clusterBootstrap,
  clusterBootstrapMany,
  caseBootstrapMeans,
  clusterBootstrapMeans,
  quantileSorted,
} from './bootstrap.ts';
import { createRng } from './rng.ts';

const ref = JSON.parse(readFileSync(new URL('./fixtures/reference.json', import.meta.url), 'utf8')) as {
  bootstrap: { values: number[]; n_resamples: number; ci_low: number; ci_high: number; standard_error: number };
};

function sample(n: number, seed: number): Float64Array {
  const r = createRng(seed);
  return Float64Array.from({ length: n }, () => r.nextFloat() ** 2);
}

function meanSd(a: Float64Array): { mean: number; sd: number } {
  const mean = a.reduce((s, v) => s + v, 0) / a.length;
  return { mean, sd: Math.sqrt(a.reduce((s, v) => s + (v - mean) ** 2, 0) / (a.length - 1)) };
}

test('quantileSorted follows NumPy linear interpolation', () => {
  const x = Float64Array.from([1, 2, 4, 8]);
  // np.percentile([1,2,4,8], [0, 2.5, 50, 97.5, 100]) = [1, 1.075, 3, 7.7, 8]
  const want = [1, 1.075, 3, 7.7, 8];
  [0, 0.025, 0.5, 0.975, 1].forEach((q, i) => assert.ok(Math.abs(quantileSorted(x, q) - want[i]!) < 1e-12, `q=${q}`));
});

test('the resampled means are exactly the means of the drawn cases', () => {
  // The plan encodes draws as bit layers; check against drawing with the same stream directly.
  const v = sample(37, 3);
  const means = caseBootstrapMeans([v], { resamples: 50, seed: 9 })[0]!;
  const rng = createRng(9);
  for (let r = 0; r < 50; r++) {
    let s = 0;
    for (let k = 0; k < v.length; k++) s += v[rng.nextInt(v.length)]!;
    assert.ok(Math.abs(means[r]! - s / v.length) < 1e-14, `resample ${r}`);
  }
});

test('bootstrap distribution: mean → sample mean, SD → √((n−1)/n · s²/n) within Monte-Carlo error', () => {
  const n = 200,
    B = 20000;
  const v = sample(n, 11);
  const { mean: xbar, sd: s } = meanSd(v);
  const { mean, sd } = meanSd(caseBootstrapMeans([v], { resamples: B, seed: 42 })[0]!);
  const exactSd = Math.sqrt((((n - 1) / n) * (s * s)) / n);
  // MC standard errors: of the mean exactSd/√B, of the SD about exactSd/√(2B); allow 4 of them.
  assert.ok(Math.abs(mean - xbar) < (4 * exactSd) / Math.sqrt(B), `mean ${mean} vs ${xbar}`);
  assert.ok(Math.abs(sd - exactSd) < (4 * exactSd) / Math.sqrt(2 * B), `sd ${sd} vs ${exactSd}`);
});

test('percentile CI agrees with scipy.stats.bootstrap(method="percentile") within Monte-Carlo error', () => {
  const v = Float64Array.from(ref.bootstrap.values);
  const res = percentileBootstrap(v, { resamples: ref.bootstrap.n_resamples, seed: 42, level: 0.95 });
  const se = ref.bootstrap.standard_error;
  // A 2.5 % quantile from 10^4 resamples has an MC standard error ≈ 0.03·se (normal case,
  // skewed data a little more); two independent estimates differ by ≈ 0.04·se. Allow 0.2·se.
  assert.ok(Math.abs(res.ciLow - ref.bootstrap.ci_low) < 0.2 * se, `low ${res.ciLow} vs ${ref.bootstrap.ci_low}`);
  assert.ok(Math.abs(res.ciHigh - ref.bootstrap.ci_high) < 0.2 * se, `high ${res.ciHigh} vs ${ref.bootstrap.ci_high}`);
  assert.ok(Math.abs(res.se - se) < 0.05 * se, `se ${res.se} vs ${se}`);
  assert.equal(res.n, v.length);
  assert.ok(Math.abs(res.mean - v.reduce((a, b) => a + b, 0) / v.length) < 1e-15);
});

test('seed 42 is the default and reproduces exactly; another seed differs', () => {
  const v = sample(100, 5);
  const a = percentileBootstrap(v, { resamples: 2000 });
  assert.deepEqual(percentileBootstrap(v, { resamples: 2000, seed: 42 }), a);
  assert.notDeepEqual(percentileBootstrap(v, { resamples: 2000, seed: 43 }), a);
});

test("batching cells never changes a cell's result", () => {
  const cells = [sample(60, 1), sample(60, 2), sample(60, 3), sample(60, 4), sample(60, 5)];
  const many = percentileBootstrapMany(cells, { resamples: 500 });
  cells.forEach((c, k) => assert.deepEqual(many[k], percentileBootstrap(c, { resamples: 500 })));
  const clusters = Int32Array.from({ length: 60 }, (_, i) => i % 7);
  const manyC = clusterBootstrapMany(cells, clusters, { resamples: 500 });
  cells.forEach((c, k) => assert.deepEqual(manyC[k], clusterBootstrap(c, clusters, { resamples: 500 })));
});

test('one case per cluster: the cluster bootstrap is the case bootstrap', () => {
  const n = 150;
  const v = sample(n, 21);
  // Labels in case order draw exactly the same resamples.
  const same = clusterBootstrap(
    v,
    Int32Array.from({ length: n }, (_, i) => i),
    { resamples: 3000 },
  );
  const caseRes = percentileBootstrap(v, { resamples: 3000 });
  assert.ok(Math.abs(same.ciLow - caseRes.ciLow) < 1e-12 && Math.abs(same.ciHigh - caseRes.ciHigh) < 1e-12);
  assert.equal(same.clusters, n);
  // Shuffled labels and another seed: the same distribution, compared within MC error.
  const labels = Int32Array.from({ length: n }, (_, i) => (i * 97 + 13) % 1009);
  const B = 20000;
  const a = meanSd(clusterBootstrapMeans([v], labels, { resamples: B, seed: 7 })[0]!);
  const b = meanSd(caseBootstrapMeans([v], { resamples: B, seed: 8 })[0]!);
  assert.ok(Math.abs(a.mean - b.mean) < 5 * b.sd * Math.sqrt(2 / B));
  assert.ok(Math.abs(a.sd - b.sd) < 5 * b.sd * Math.sqrt(1 / B));
});

test('strongly intra-correlated clusters give a much wider cluster CI', () => {
  // 40 clusters of 10 cases; each cluster shares a large random effect, cases add small noise.
  const rng = createRng(99);
  const values = new Float64Array(400),
    clusters = new Int32Array(400);
  for (let c = 0; c < 40; c++) {
    const effect = rng.nextFloat();
    for (let j = 0; j < 10; j++) {
      values[c * 10 + j] = effect + 0.05 * rng.nextFloat();
      clusters[c * 10 + j] = 1000 + c;
    }
  }
  const caseRes = percentileBootstrap(values, { resamples: 4000 });
  const clusterRes = clusterBootstrap(values, clusters, { resamples: 4000 });
  // Design effect ≈ 1 + (m − 1)·ICC ≈ 10 here, so the width ratio should be near √10 ≈ 3.2.
  const ratio = (clusterRes.ciHigh - clusterRes.ciLow) / (caseRes.ciHigh - caseRes.ciLow);
  assert.ok(ratio > 2.5 && ratio < 4, `width ratio ${ratio}`);
  assert.equal(clusterRes.clusters, 40);
  assert.equal(clusterRes.mean, caseRes.mean);
});

test('cluster statistic weights clusters by their size', () => {
  // Two clusters: {0} and {10, 10, 10}. Draws {A,A}: 0; {A,B} or {B,A}: 30/4; {B,B}: 10.
  const means = clusterBootstrapMeans([Float64Array.from([0, 10, 10, 10])], Int32Array.from([5, 6, 6, 6]), {
    resamples: 4000,
    seed: 1,
  })[0]!;
  const seen = new Set(Array.from(means, (m) => m.toFixed(6)));
  assert.deepEqual([...seen].sort(), ['0.000000', '10.000000', '7.500000']);
});

test('bad input is rejected with a reason', () => {
  assert.throws(() => percentileBootstrap(new Float64Array(0)), /no values/);
  assert.throws(() => percentileBootstrap(Float64Array.from([1, NaN])), /value 1 is NaN/);
  assert.throws(() => percentileBootstrap(Float64Array.from([1, 2]), { level: 95 }), /level must be in \(0, 1\)/);
  assert.throws(() => clusterBootstrap(Float64Array.from([1, 2]), Int32Array.from([1])), /one label per case/);
  assert.throws(() => percentileBootstrapMany([Float64Array.from([1, 2]), Float64Array.from([1])]), /cell 1 has 1 values/);
});
