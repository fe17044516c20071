import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lndsPcs } from './lnds.ts';
import { createRng } from '../stats/rng.ts';
import { noisyIdentity, uniformMatrix } from './testing/synthetic-consistency.ts';

const M = (rows: number[][]): [Float64Array, number, number] => [Float64Array.from(rows.flat()), rows.length, rows[0]!.length];

describe('lnds: hand-computed cases', () => {
  test('identity: every step matched in order, PCS 1', () => {
    const r = lndsPcs(
      ...M([
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ]),
      0.7,
    );
    assert.equal(r.pcs, 1);
    assert.deepEqual(Array.from(r.matches), [0, 1, 2]);
  });

  test('reversal: matches 2,1,0 keep only one step in order, PCS 1/3', () => {
    const r = lndsPcs(
      ...M([
        [0, 0, 1],
        [0, 1, 0],
        [1, 0, 0],
      ]),
      0.7,
    );
    assert.deepEqual(Array.from(r.matches), [2, 1, 0]);
    assert.equal(r.length, 1);
    assert.equal(r.pcs, 1 / 3);
  });

  test('omission: the unmatched middle step counts against the score, PCS 2/3', () => {
    const r = lndsPcs(
      ...M([
        [1, 0],
        [0, 0],
        [0, 1],
      ]),
      0.7,
    );
    assert.deepEqual(Array.from(r.matches), [0, -1, 1]);
    assert.equal(r.pcs, 2 / 3);
  });

  test('redundancy: a repeated predicted step does not hurt; argmax ties take the first j', () => {
    const r = lndsPcs(
      ...M([
        [1, 1, 0],
        [0, 0, 1],
      ]),
      0.7,
    );
    assert.deepEqual(Array.from(r.matches), [0, 2]);
    assert.equal(r.pcs, 1);
  });

  test('merge: two reference steps answered by one predicted step are still in order (non-decreasing)', () => {
    const r = lndsPcs(
      ...M([
        [0.9, 0.1],
        [0.8, 0.2],
        [0.1, 0.9],
      ]),
      0.7,
    );
    assert.deepEqual(Array.from(r.matches), [0, 0, 1]);
    assert.equal(r.pcs, 1);
  });

  test('non-square 5×3 worked by hand: PCS 3/5', () => {
    // argmax per row: 0 (.9), 2 (.95), 1 (.8), 1 (.6 < γ → unmatched), 2 (.75)
    // kept sequence 0,2,1,2 → longest non-decreasing: 0,1,2 or 0,2,2 → 3 → 3/5.
    const r = lndsPcs(
      ...M([
        [0.9, 0.1, 0.1],
        [0.2, 0.1, 0.95],
        [0.1, 0.8, 0.3],
        [0.5, 0.6, 0.4],
        [0.1, 0.2, 0.75],
      ]),
      0.7,
    );
    assert.deepEqual(Array.from(r.matches), [0, 2, 1, -1, 2]);
    assert.equal(r.length, 3);
    assert.equal(r.pcs, 0.6);
  });

  test('the threshold is inclusive (C = γ is kept) and compared with the best score only', () => {
    assert.deepEqual(Array.from(lndsPcs(...M([[0.7, 0.2]]), 0.7).matches), [0]);
    assert.deepEqual(Array.from(lndsPcs(...M([[0.69, 0.2]]), 0.7).matches), [-1]);
    // The best score decides, not the first score above γ.
    assert.equal(lndsPcs(...M([[0.75, 0.9]]), 0.7).matches[0], 1);
  });
});

describe('lnds: degenerate inputs', () => {
  test('n = 0 (empty prediction) scores the worst PCS, 0', () => {
    const r = lndsPcs(new Float64Array(0), 3, 0, 0.7);
    assert.equal(r.pcs, 0);
    assert.deepEqual(Array.from(r.matches), [-1, -1, -1]);
  });
  test('m = 0 is an input error; bad scores and thresholds name what is wrong', () => {
    assert.throws(() => lndsPcs(new Float64Array(0), 0, 2, 0.7), /m = 0 \(empty reference pathway\)/);
    assert.throws(() => lndsPcs(Float64Array.from([0.5, 2]), 1, 2, 0.7), /C\[0\]\[1\] = 2 is outside \[0, 1\]/);
    assert.throws(() => lndsPcs(Float64Array.from([0.5, 0.2]), 1, 2, NaN), /gamma = NaN/);
  });
});

/** O(k²) longest non-decreasing subsequence, the textbook DP. */
function lndsQuadratic(seq: number[]): number {
  const best = seq.map(() => 1);
  for (let a = 0; a < seq.length; a++) for (let b = 0; b < a; b++) if (seq[b]! <= seq[a]!) best[a] = Math.max(best[a]!, best[b]! + 1);
  return Math.max(0, ...best);
}

describe('lnds: properties on seeded random matrices', () => {
  test('0 ≤ PCS ≤ 1, matches are the first argmax above γ, length equals the O(k²) DP', () => {
    const rng = createRng(21);
    for (let t = 0; t < 500; t++) {
      const m = 1 + rng.nextInt(30);
      const n = 1 + rng.nextInt(30);
      const gamma = [0.2, 0.7, 0.9][t % 3]!;
      const C = uniformMatrix(rng, m, n, t % 2 ? 10 : 0);
      const r = lndsPcs(C, m, n, gamma);
      assert.ok(r.pcs >= 0 && r.pcs <= 1);
      for (let i = 0; i < m; i++) {
        const row = Array.from(C.subarray(i * n, (i + 1) * n));
        const j = row.indexOf(Math.max(...row));
        assert.equal(r.matches[i], row[j]! >= gamma ? j : -1);
      }
      assert.equal(r.length, lndsQuadratic(Array.from(r.matches).filter((j) => j >= 0)));
      assert.equal(r.pcs, r.length / m);
    }
  });

  test('mean PCS decreases as noise is blended into a perfect pathway', () => {
    // σ ≤ 0.25 keeps the diagonal ≥ 0.75 > every off-diagonal score: PCS stays 1. Beyond that
    // matches fall below γ or leave the diagonal; the average over 100 draws keeps falling.
    const sigmas = [0, 0.4, 0.6, 0.8, 1];
    const means = sigmas.map((s) => {
      const rng = createRng(22);
      let sum = 0;
      for (let t = 0; t < 100; t++) sum += lndsPcs(noisyIdentity(rng, 8, s), 8, 8, 0.7).pcs;
      return sum / 100;
    });
    assert.equal(means[0], 1);
    for (let k = 1; k < means.length; k++) assert.ok(means[k]! < means[k - 1]!, `mean PCS ${means.join(', ')}`);
  });
});

describe('lnds: reference values from an independent Python implementation', () => {
  interface RefCase {
    id: string;
    m: number;
    n: number;
    C: number[][];
    gamma: number;
    lnds: { pcs: number; length: number; matches: number[] };
  }
  const ref = JSON.parse(readFileSync(new URL('./fixtures/reference.json', import.meta.url), 'utf8')) as { cases: RefCase[] };
  test(`${ref.cases.length} matrices agree to 1e-9 on PCS and exactly on the matches`, () => {
    assert.ok(ref.cases.length >= 200);
    for (const c of ref.cases) {
      const r = lndsPcs(Float64Array.from(c.C.flat()), c.m, c.n, c.gamma);
      assert.ok(Math.abs(r.pcs - c.lnds.pcs) <= 1e-9, `${c.id}: pcs ${r.pcs} vs ${c.lnds.pcs}`);
      assert.equal(r.length, c.lnds.length, c.id);
      assert.deepEqual(Array.from(r.matches), c.lnds.matches, c.id);
    }
  });
});
