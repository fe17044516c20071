import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cdpLengthStats, lengthHistogram, lengthStatistics, percentileSorted, LENGTH_STATISTICS } from './length-stats.ts';

// Produced by fixtures/length-stats-reference.py with NumPy (np.percentile default, np.std ddof=1).
const reference = JSON.parse(readFileSync(new URL('./fixtures/length-stats-reference.json', import.meta.url), 'utf8')) as {
  datasets: Record<string, { values: number[]; stats: Record<string, number | null> }>;
  cdps: { lengths: number[]; splits: Array<'test' | 'non-test'>; stats: Record<string, Record<string, number | null>> };
};

function assertClose(actual: number, expected: number | null, what: string): void {
  if (expected === null) {
    assert.ok(Number.isNaN(actual), `${what}: expected NaN, got ${actual}`);
    return;
  }
  const tol = 1e-12 * Math.max(1, Math.abs(expected));
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs NumPy ${expected}`);
}

describe('lengthStatistics', () => {
  for (const [name, { values, stats }] of Object.entries(reference.datasets)) {
    test(`matches NumPy on "${name}" (${values.length} values)`, () => {
      const rows = lengthStatistics(values);
      assert.deepEqual(
        rows.map((r) => r.statistic),
        [...LENGTH_STATISTICS],
      );
      for (const { statistic, value } of rows) assertClose(value, stats[statistic]!, `${name} ${statistic}`);
    });
  }

  test('hand-computed: 1..5', () => {
    const v = Object.fromEntries(lengthStatistics([5, 3, 1, 4, 2]).map((r) => [r.statistic, r.value]));
    // h = 4q: P5 → 0.2, P25 → 1, P95 → 3.8; sample variance = 10 / 4.
    assert.deepEqual(v, { Mean: 3, 'Std. Dev.': Math.sqrt(2.5), Min: 1, P5: 1.2, P25: 2, Median: 3, P75: 4, P95: 4.8, Max: 5 });
  });

  test('no values: every statistic is NaN', () => {
    assert.ok(lengthStatistics([]).every((r) => Number.isNaN(r.value)));
  });

  test('percentileSorted rejects p outside [0, 100]', () => {
    assert.throws(() => percentileSorted([1, 2], 101), /p must be in \[0, 100\]/);
    assert.equal(percentileSorted([1, 2], 0), 1);
    assert.equal(percentileSorted([1, 2], 100), 2);
  });
});

describe('cdpLengthStats', () => {
  test('full, test and non-test rows match NumPy', () => {
    const { lengths, splits, stats } = reference.cdps;
    const rows = cdpLengthStats(lengths.map((length, i) => ({ length, split: splits[i]! })));
    assert.equal(rows.length, 27);
    assert.deepEqual([...new Set(rows.map((r) => r.split))], ['full', 'test', 'non-test']);
    for (const r of rows) assertClose(r.value, stats[r.split]![r.statistic]!, `${r.split} ${r.statistic}`);
  });

  test('an empty split is NaN, not an error', () => {
    const rows = cdpLengthStats([
      { length: 2, split: 'non-test' },
      { length: 4, split: 'non-test' },
    ]);
    assert.ok(rows.filter((r) => r.split === 'test').every((r) => Number.isNaN(r.value)));
    assert.equal(rows.find((r) => r.split === 'full' && r.statistic === 'Mean')!.value, 3);
  });

  test('rejects a CDP without a split', () => {
    assert.throws(() => cdpLengthStats([{ length: 2, split: 'train' as 'test' }]), /split "train" is neither/);
  });
});

describe('lengthHistogram', () => {
  test('counts per length and split, zero-filled from min to max', () => {
    const cdps = [
      { length: 1, split: 'test' as const },
      { length: 3, split: 'non-test' as const },
      { length: 3, split: 'test' as const },
      { length: 4, split: 'non-test' as const },
      { length: 1, split: 'non-test' as const },
    ];
    assert.deepEqual(
      lengthHistogram(cdps).map((r) => [r.split, r.length, r.count]),
      [
        ['full', 1, 2],
        ['full', 2, 0],
        ['full', 3, 2],
        ['full', 4, 1],
        ['test', 1, 1],
        ['test', 2, 0],
        ['test', 3, 1],
        ['test', 4, 0],
        ['non-test', 1, 1],
        ['non-test', 2, 0],
        ['non-test', 3, 1],
        ['non-test', 4, 1],
      ],
    );
  });

  test('counts sum to the split sizes on the reference CDPs', () => {
    const { lengths, splits } = reference.cdps;
    const rows = lengthHistogram(lengths.map((length, i) => ({ length, split: splits[i]! })));
    const total = (s: string) => rows.filter((r) => r.split === s).reduce((a, r) => a + r.count, 0);
    assert.equal(total('full'), lengths.length);
    assert.equal(total('test'), splits.filter((s) => s === 'test').length);
    assert.equal(total('test') + total('non-test'), lengths.length);
  });

  test('empty input gives no rows; a non-integer length is an error', () => {
    assert.deepEqual(lengthHistogram([]), []);
    assert.throws(() => lengthHistogram([{ length: 1.5, split: 'test' }]), /1.5 is not a non-negative integer/);
  });
});
