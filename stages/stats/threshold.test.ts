import { test } from 'node:test';
import assert from 'node:assert/strict';
import { thresholdCurve, thresholdAnalysis, thresholdGrid } from './threshold.ts';
import type { ThresholdRow } from './threshold.ts';

const close = (a: number, b: number) => Math.abs(a - b) < 1e-12;

test('default grid is 0.00, 0.05, …, 1.00 with clean decimals', () => {
  const g = thresholdGrid();
  assert.equal(g.length, 21);
  assert.equal(g[3], 0.15);
  assert.equal(g[14], 0.7);
  assert.equal(g[20], 1);
  assert.deepEqual(thresholdGrid(0.25), [0, 0.25, 0.5, 0.75, 1]);
});

// Scores and human labels (T = correct match); 4 positives.
const rows = [
  [0.2, false],
  [0.4, true],
  [0.5, true],
  [0.6, false],
  [0.8, true],
  [1.0, true],
].map(([score, human]) => ({ score: score as number, human: human as boolean }));
const grid = [0, 0.25, 0.5, 0.75, 1];

test('F1 curve by hand', () => {
  // t = 0:    predict all 6  → TP 4, FP 2, FN 0 → F1 = 8/10
  // t = 0.25: predict 5      → TP 4, FP 1, FN 0 → F1 = 8/9
  // t = 0.5:  {.5,.6,.8,1}   → TP 3, FP 1, FN 1 → F1 = 6/8
  // t = 0.75: {.8, 1}        → TP 2, FP 0, FN 2 → F1 = 4/6
  // t = 1:    {1}            → TP 1, FP 0, FN 3 → F1 = 2/5
  const c = thresholdCurve(rows, { grid });
  const want = [8 / 10, 8 / 9, 6 / 8, 4 / 6, 2 / 5];
  c.points.forEach((p, i) => assert.ok(close(p.f1, want[i]!), `t=${p.t}: ${p.f1}`));
  assert.deepEqual([c.points[2]!.tp, c.points[2]!.fp, c.points[2]!.fn, c.points[2]!.tn], [3, 1, 1, 1]);
  assert.ok(close(c.points[2]!.precision, 0.75) && close(c.points[2]!.recall, 0.75));
  assert.equal(c.n, 6);
  assert.equal(c.positives, 4);
  assert.deepEqual(c.best, { t: 0.25, f1: 8 / 9 });
  // Default tolerance 0.02: only the best itself. 0.1: down to 0.789 → includes t = 0 (0.8).
  // 0.15: down to 0.739 → also t = 0.5 (0.75), but not t = 0.75 (0.667).
  assert.deepEqual(c.stable, { low: 0.25, high: 0.25 });
  assert.deepEqual(thresholdCurve(rows, { grid, tolerance: 0.1 }).stable, { low: 0, high: 0.25 });
  assert.deepEqual(thresholdCurve(rows, { grid, tolerance: 0.15 }).stable, { low: 0, high: 0.5 });
});

test('ties for the best F1 go to the smallest threshold; the stable run spans the tie', () => {
  const c = thresholdCurve(
    [
      { score: 0.6, human: true },
      { score: 0.9, human: true },
    ],
    { grid: [0, 0.25, 0.5, 0.75] },
  );
  assert.deepEqual(
    c.points.map((p) => p.f1),
    [1, 1, 1, 2 / 3],
  );
  assert.deepEqual(c.best, { t: 0, f1: 1 });
  assert.deepEqual(c.stable, { low: 0, high: 0.5 });
});

test('a score equal to a grid point up to rounding reaches it; no positives gives F1 = 0', () => {
  const c = thresholdCurve([{ score: 0.6999999999999998, human: true }], { grid: [0.7] });
  assert.equal(c.points[0]!.tp, 1);
  const none = thresholdCurve([{ score: 0.5, human: false }], { grid: [0, 1] });
  assert.deepEqual(
    none.points.map((p) => [p.precision, p.recall, p.f1]),
    [
      [0, 0, 0],
      [0, 0, 0],
    ],
  );
});

test('per judge, per (judge, model), and the common stable region', () => {
  const data: ThresholdRow[] = [
    // judge J, model m1: F1 = 2/3 at t = 0, 1 for t ∈ {0.25, 0.5}, 0 at 0.75 and 1.
    { judge: 'J', model: 'm1', score: 0.1, human: false },
    { judge: 'J', model: 'm1', score: 0.6, human: true },
    // judge J, model m2: F1 = 1 for t ∈ {0, 0.25, 0.5, 0.75}, 0 at 1.
    { judge: 'J', model: 'm2', score: 0.9, human: true },
    // judge K, model m1.
    { judge: 'K', model: 'm1', score: 0.3, human: true },
  ];
  const a = thresholdAnalysis(data, { grid: [0, 0.25, 0.5, 0.75, 1] });
  assert.deepEqual(
    a.perJudge.map((c) => [c.judge, c.model, c.n]),
    [
      ['J', null, 3],
      ['K', null, 1],
    ],
  );
  assert.deepEqual(
    a.perJudgeModel.map((c) => [c.judge, c.model, c.best.t, c.stable.low, c.stable.high]),
    [
      ['J', 'm1', 0.25, 0.25, 0.5],
      ['J', 'm2', 0, 0, 0.75],
      ['K', 'm1', 0, 0, 0.25],
    ],
  );
  // Judge J overall: t = 0 → TP 2, FP 1 → 0.8; t = 0.25, 0.5 → 1; t = 0.75 → 2/3; t = 1 → 0.
  assert.deepEqual(
    a.perJudge[0]!.points.map((p) => Math.round(p.f1 * 1e6) / 1e6),
    [0.8, 1, 1, 0.666667, 0],
  );
  assert.deepEqual(a.common, [
    { judge: 'J', region: { low: 0.25, high: 0.5 } },
    { judge: 'K', region: { low: 0, high: 0.25 } },
  ]);
});

test('bad scores and grids are rejected', () => {
  assert.throws(() => thresholdCurve([{ score: NaN, human: true }]), /row 0 has score NaN/);
  assert.throws(() => thresholdCurve([], { grid: [0.5, 0.2] }), /strictly ascending/);
});

test('the one-pass counts equal testing every grid point, on scores at, near and between the points', () => {
  // A seeded LCG: scores drawn on the grid, a rounding error either side of it, between points and outside [0, 1].
  let s = 12345;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (const grid of [thresholdGrid(), thresholdGrid(0.1), [0.3], thresholdGrid(0.001)]) {
    const rows = Array.from({ length: 2000 }, () => {
      const u = next();
      const at = grid[Math.floor(next() * grid.length)]!;
      const score = u < 0.3 ? at : u < 0.5 ? at - 1e-10 : u < 0.6 ? at - 1e-8 : u < 0.65 ? -0.5 + next() * 2 : next();
      return { score, human: next() < 0.4 };
    });
    const c = thresholdCurve(rows, { grid });
    grid.forEach((t, k) => {
      const predicted = rows.filter((r) => r.score >= t - 1e-9);
      const tp = predicted.filter((r) => r.human).length;
      const fp = predicted.length - tp;
      const positives = rows.filter((r) => r.human).length;
      assert.deepEqual(
        [c.points[k]!.t, c.points[k]!.tp, c.points[k]!.fp, c.points[k]!.fn, c.points[k]!.tn],
        [t, tp, fp, positives - tp, rows.length - positives - fp],
        `grid step ${grid[1]! - grid[0]!}, t = ${t}`,
      );
    });
  }
});
