import { test } from 'node:test';
import assert from 'node:assert/strict';
import { percentileBootstrap } from './bootstrap.ts';
import { pairedDifference } from './paired-bootstrap.ts';

const close = (a: number, b: number, tol: number, what: string) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b} (tolerance ${tol})`);

test('pairedDifference: the mean difference over the common cases only, with a CI around it', () => {
  const a = new Map([
    ['x', 1],
    ['y', 2],
    ['z', 4],
    ['only-a', 100],
  ]);
  const b = new Map([
    ['x', 0],
    ['y', 1],
    ['z', 1],
    ['only-b', -100],
  ]);
  const d = pairedDifference(a, b, { resamples: 2000, seed: 1 })!;
  const [lo, hi] = [d.ciLow!, d.ciHigh!];
  // differences 1, 1, 3 → mean 5/3; the resampled means lie between 1 and 3
  assert.equal(d.n, 3);
  close(d.diff, 5 / 3, 1e-12, 'diff');
  close(d.meanA, 7 / 3, 1e-12, 'meanA');
  close(d.meanB, 2 / 3, 1e-12, 'meanB');
  assert.ok(lo >= 1 && lo < d.diff && d.diff < hi && hi <= 3, `CI ${lo}–${hi}`);
  assert.equal(pairedDifference(new Map([['x', 1]]), new Map([['y', 1]])), null);
  // A non-finite value is a missing case, not a number.
  assert.equal(
    pairedDifference(
      new Map([
        ['x', NaN],
        ['y', 1],
      ]),
      new Map([
        ['x', 0],
        ['y', 0],
      ]),
    )!.n,
    1,
  );
});

test("pairing: the CI of the difference is far narrower than the two models' own CIs when cases differ in difficulty", () => {
  // Case difficulty spreads from 0.1 to 0.9; model b is 0.05 worse on every case.
  const ids = Array.from({ length: 40 }, (_, i) => `c${String(i).padStart(2, '0')}`);
  const a = new Map(ids.map((id, i) => [id, 0.1 + (0.8 * i) / 39]));
  const b = new Map(ids.map((id, i) => [id, 0.15 + (0.8 * i) / 39]));
  const d = pairedDifference(a, b, { resamples: 2000, seed: 3 })!;
  close(d.diff, -0.05, 1e-12, 'diff');
  // Every difference is -0.05, so every resample is too: a zero-width CI.
  close(d.ciLow!, -0.05, 1e-12, 'CI low');
  close(d.ciHigh!, -0.05, 1e-12, 'CI high');
  const own = percentileBootstrap(Float64Array.from(a.values()), { resamples: 2000, seed: 3 });
  assert.ok(own.ciHigh - own.ciLow > 0.1, 'each model alone is uncertain by more than the gap');
});
