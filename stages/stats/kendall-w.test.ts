import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { kendallW } from './kendall-w.ts';

interface WCase {
  kind: string;
  ratings: number[][];
  kendall_w: number;
}
const ref = JSON.parse(readFileSync(new URL('./fixtures/reference.json', import.meta.url), 'utf8')) as { kendall_w: WCase[] };

test("Kendall's W matches the formula evaluated with SciPy's ranks (fixture)", () => {
  assert.ok(ref.kendall_w.length >= 8);
  for (const c of ref.kendall_w) {
    const w = kendallW(c.ratings.map((r) => Float64Array.from(r)));
    assert.ok(Math.abs(w - c.kendall_w) < 1e-12, `${c.kind} k=${c.ratings.length} n=${c.ratings[0]!.length}: ${w} vs ${c.kendall_w}`);
  }
});

test("Kendall's W with ties, by hand", () => {
  // 3 raters × 4 items.
  //   rater 1: [1, 2, 2, 3] → ranks [1, 2.5, 2.5, 4], one tie group of 2 → T = 2³ − 2 = 6
  //   rater 2: [1, 1, 2, 3] → ranks [1.5, 1.5, 3, 4], T = 6
  //   rater 3: [4, 3, 2, 1] → ranks [4, 3, 2, 1],     T = 0
  // R = [6.5, 7, 7.5, 9]; mean rank sum k(n+1)/2 = 7.5;
  // S = 1² + 0.5² + 0² + 1.5² = 1 + 0.25 + 0 + 2.25 = 3.5
  // W = 12·3.5 / (3²·(4³ − 4) − 3·(6 + 6 + 0)) = 42 / (540 − 36) = 42 / 504 = 1/12.
  const w = kendallW(
    [
      [1, 2, 2, 3],
      [1, 1, 2, 3],
      [4, 3, 2, 1],
    ].map((r) => Float64Array.from(r)),
  );
  assert.ok(Math.abs(w - 1 / 12) < 1e-15, `W = ${w}`);
});

test("Kendall's W is 1 for identical rankings (even tied) and 0 for perfectly opposed pairs", () => {
  const a = Float64Array.from([3, 1, 1, 2, 5]);
  assert.ok(Math.abs(kendallW([a, a, a]) - 1) < 1e-15);
  assert.equal(kendallW([Float64Array.from([1, 2, 3, 4]), Float64Array.from([4, 3, 2, 1])]), 0);
});

test("Kendall's W rejects ragged or incomplete ratings", () => {
  assert.throws(() => kendallW([Float64Array.from([1, 2, 3])]), /at least 2 raters/);
  assert.throws(() => kendallW([Float64Array.from([1, 2, 3]), Float64Array.from([1, 2])]), /rater 1 scores 2 items/);
  assert.throws(() => kendallW([Float64Array.from([1, 2, 3]), Float64Array.from([1, NaN, 2])]), /rater 1, item 1 is NaN/);
});
