import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dtw } from './dtw.ts';
import { createRng } from '../stats/rng.ts';
import { noisyIdentity, uniformMatrix } from './testing/synthetic-consistency.ts';

const M = (rows: number[][]): [Float64Array, number, number] => [Float64Array.from(rows.flat()), rows.length, rows[0]!.length];
const pairs = (p: Int32Array): number[][] => Array.from({ length: p.length / 2 }, (_, k) => [p[2 * k]!, p[2 * k + 1]!]);
const close = (a: number, b: number, tol = 1e-12): void => assert.ok(Math.abs(a - b) <= tol, `${a} vs ${b}`);

describe('dtw: hand-computed cases', () => {
  test('identity: diagonal path, PCC 0', () => {
    const r = dtw(
      ...M([
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ]),
    );
    assert.equal(r.pcc, 0);
    assert.equal(r.K, 3);
    assert.deepEqual(pairs(r.path), [
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
  });

  test('reversal of 3 steps: PCC 2/3', () => {
    // D = [[1,1,0],[1,0,1],[0,1,1]]. Accumulated (cost, len):
    //   row 0: (1,1) (2,2) (2,3); row 1: (2,2) (1,2) (2,3); row 2: (2,3) (2,3) (2,3) from diag (1,1).
    const r = dtw(
      ...M([
        [0, 0, 1],
        [0, 1, 0],
        [1, 0, 0],
      ]),
    );
    assert.equal(r.cost, 2);
    assert.equal(r.K, 3);
    close(r.pcc, 2 / 3);
    assert.deepEqual(pairs(r.path), [
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
  });

  test('omission: the prediction skips the middle reference step, PCC 1/3', () => {
    // D = [[0,1],[1,1],[1,0]]. (1,0): 1 (len 2); (1,1): 0+1 via diag (len 2);
    // (2,1): diag (1,0) and up (1,1) both cost 1 with len 2 → diagonal wins → cost 1, K 3.
    const r = dtw(
      ...M([
        [1, 0],
        [0, 0],
        [0, 1],
      ]),
    );
    assert.equal(r.cost, 1);
    assert.equal(r.K, 3);
    close(r.pcc, 1 / 3);
    assert.deepEqual(pairs(r.path), [
      [0, 0],
      [1, 0],
      [2, 1],
    ]);
  });

  test('redundancy: a repeated predicted step aligns to the same reference step at no cost', () => {
    // D = [[0,0,1],[1,1,0]]: (0,1) costs 0 (len 2); (1,2) takes diag from (0,1): 0 + 0, K 3.
    const r = dtw(
      ...M([
        [1, 1, 0],
        [0, 0, 1],
      ]),
    );
    assert.equal(r.pcc, 0);
    assert.deepEqual(pairs(r.path), [
      [0, 0],
      [0, 1],
      [1, 2],
    ]);
  });

  test('non-square 2×4 worked by hand: PCC 0.25', () => {
    // C = [[.9,.8,.1,0],[.2,.3,.7,.6]] → D = [[.1,.2,.9,1],[.8,.7,.3,.4]]
    // row 0: (0,0)=.1 l1, (0,1)=.3 l2, (0,2)=1.2 l3, (0,3)=2.2 l4
    // row 1: (1,0)=.1+.8=.9 l2; (1,1)=min(diag .1, up .3, left .9)+.7=.8 l2;
    //        (1,2)=min(diag .3, up 1.2, left .8)+.3=.6 l3; (1,3)=min(diag 1.2, up 2.2, left .6)+.4=1.0 l4
    // PCC = 1.0 / 4 = 0.25 along (0,0),(0,1),(1,2),(1,3).
    const r = dtw(
      ...M([
        [0.9, 0.8, 0.1, 0],
        [0.2, 0.3, 0.7, 0.6],
      ]),
    );
    close(r.cost, 1.0);
    assert.equal(r.K, 4);
    close(r.pcc, 0.25);
    assert.deepEqual(pairs(r.path), [
      [0, 0],
      [0, 1],
      [1, 2],
      [1, 3],
    ]);
  });

  test('tie rule: among equal-cost paths the shortest wins (0.5/2, not 0.5/3)', () => {
    // D = [[0,0],[1,.5]]: (0,0)→(1,1) costs .5 with K 2; (0,0)→(0,1)→(1,1) also .5 with K 3.
    const r = dtw(
      ...M([
        [1, 1],
        [0, 0.5],
      ]),
    );
    assert.equal(r.K, 2);
    assert.equal(r.pcc, 0.25);
    // Same for the transpose: the rule does not depend on which axis is the reference.
    const t = dtw(
      ...M([
        [1, 0],
        [1, 0.5],
      ]),
    );
    assert.equal(t.K, 2);
    assert.equal(t.pcc, 0.25);
  });

  test('tie rule: the shortest path wins even when it is not the first move in diag/up/left order', () => {
    // C = [[0,1,1,0],[.5,1,0,1],[1,0,1,.5]] → D = [[1,0,0,1],[.5,0,1,0],[0,1,0,.5]]. (cost, len):
    //   row 0: (1,1) (1,2) (1,3) (2,4)
    //   row 1: (1.5,2) (1,2)←diag (2,3)←diag [ties left on (cost,len)] (1,4)←diag
    //   row 2: (1.5,3) (2,3)←up (1,3)←diag; (2,3): up (1,4) and left (1,3) tie on cost 1 → left
    //          (shorter): cost 1.5, K 4, PCC 0.375 along (0,0),(1,1),(2,2),(2,3).
    // A "diagonal, then up, then left" backtrack would go up instead: cost 1.5, K 5, PCC 0.3.
    const r = dtw(
      ...M([
        [0, 1, 1, 0],
        [0.5, 1, 0, 1],
        [1, 0, 1, 0.5],
      ]),
    );
    assert.equal(r.cost, 1.5);
    assert.equal(r.K, 4);
    assert.equal(r.pcc, 0.375);
    assert.deepEqual(pairs(r.path), [
      [0, 0],
      [1, 1],
      [2, 2],
      [2, 3],
    ]);
  });

  test('one reference step or one predicted step: a single row/column path', () => {
    const r = dtw(...M([[0.5, 1, 0]]));
    assert.equal(r.K, 3);
    close(r.pcc, 1.5 / 3);
    const c = dtw(Float64Array.from([0.2, 0.4]), 2, 1);
    close(c.pcc, (0.8 + 0.6) / 2);
  });
});

describe('dtw: degenerate inputs', () => {
  test('n = 0 (empty prediction) scores the worst PCC, 1, with an empty path', () => {
    const r = dtw(new Float64Array(0), 4, 0);
    assert.equal(r.pcc, 1);
    assert.equal(r.K, 0);
    assert.equal(r.path.length, 0);
  });
  test('m = 0 is an input error naming the case', () => {
    assert.throws(() => dtw(new Float64Array(0), 0, 3), /m = 0 \(empty reference pathway\)/);
  });
  test('values outside [0, 1] and NaN are rejected with their position', () => {
    assert.throws(() => dtw(Float64Array.from([0.5, 1.2, 0, 0]), 2, 2), /C\[0\]\[1\] = 1\.2 is outside \[0, 1\]/);
    assert.throws(() => dtw(Float64Array.from([0.5, 0, NaN, 0]), 2, 2), /C\[1\]\[0\] = NaN is NaN/);
    assert.throws(() => dtw(Float64Array.from([0.5, 0, -0.1, 0]), 2, 2), /C\[1\]\[0\]/);
  });
  test('a length that does not match m·n is rejected', () => {
    assert.throws(() => dtw(new Float64Array(5), 2, 3), /C has 5 entries but m·n = 2·3 = 6/);
  });
});

/** Every monotone continuous path by brute force; lexicographic minimum of (cost, K). */
function bruteForce(C: Float64Array, m: number, n: number): { cost: number; K: number } {
  let best = { cost: Infinity, K: Infinity };
  const walk = (i: number, j: number, cost: number, K: number): void => {
    cost += 1 - C[i * n + j]!;
    K++;
    if (i === m - 1 && j === n - 1) {
      if (cost < best.cost || (cost === best.cost && K < best.K)) best = { cost, K };
      return;
    }
    if (i + 1 < m && j + 1 < n) walk(i + 1, j + 1, cost, K);
    if (i + 1 < m) walk(i + 1, j, cost, K);
    if (j + 1 < n) walk(i, j + 1, cost, K);
  };
  walk(0, 0, 0, 0);
  return best;
}

describe('dtw: properties on seeded random matrices', () => {
  test('the path is valid, its cost and length are what is reported, and 0 ≤ PCC ≤ 1', () => {
    const rng = createRng(11);
    for (let t = 0; t < 300; t++) {
      const m = 1 + rng.nextInt(15);
      const n = 1 + rng.nextInt(15);
      const C = uniformMatrix(rng, m, n, t % 2 ? 10 : 0);
      const r = dtw(C, m, n);
      const p = pairs(r.path);
      assert.equal(p.length, r.K);
      assert.deepEqual(p[0], [0, 0]);
      assert.deepEqual(p[p.length - 1], [m - 1, n - 1]);
      let cost = 1 - C[0]!;
      for (let k = 1; k < p.length; k++) {
        const di = p[k]![0]! - p[k - 1]![0]!;
        const dj = p[k]![1]! - p[k - 1]![1]!;
        assert.ok((di === 1 || di === 0) && (dj === 1 || dj === 0) && di + dj > 0, `bad step ${p[k - 1]} → ${p[k]}`);
        cost += 1 - C[p[k]![0]! * n + p[k]![1]!]!;
      }
      close(r.cost, cost, 1e-9);
      close(r.pcc, r.cost / r.K);
      assert.ok(r.pcc >= 0 && r.pcc <= 1);
      assert.ok(r.K >= Math.max(m, n) && r.K <= m + n - 1);
    }
  });

  test('(cost, K) is the lexicographic minimum over all paths (brute force, tie-heavy 0/½/1 scores)', () => {
    const rng = createRng(12);
    for (let t = 0; t < 200; t++) {
      const m = 1 + rng.nextInt(5);
      const n = 1 + rng.nextInt(5);
      const C = uniformMatrix(rng, m, n, 2); // halves add exactly in binary, so ties are exact
      const r = dtw(C, m, n);
      const b = bruteForce(C, m, n);
      assert.equal(r.cost, b.cost);
      assert.equal(r.K, b.K);
    }
  });

  test('PCC is unchanged by transposing C (the tie rule is symmetric)', () => {
    const rng = createRng(13);
    for (let t = 0; t < 200; t++) {
      const m = 1 + rng.nextInt(10);
      const n = 1 + rng.nextInt(10);
      const C = uniformMatrix(rng, m, n, t % 3 === 0 ? 2 : 10);
      const T = new Float64Array(m * n);
      for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) T[j * m + i] = C[i * n + j]!;
      const a = dtw(C, m, n);
      const b = dtw(T, n, m);
      assert.equal(a.K, b.K);
      close(a.pcc, b.pcc, 1e-9);
    }
  });

  test('mean PCC increases as noise is blended into a perfect pathway', () => {
    // Up to σ = 0.8: beyond it the identity is gone and the minimum over paths of pure noise
    // no longer moves. Averaged over 100 draws; a single draw need not be monotone.
    const sigmas = [0, 0.2, 0.4, 0.6, 0.8];
    const means = sigmas.map((s) => {
      const rng = createRng(14);
      let sum = 0;
      for (let t = 0; t < 100; t++) sum += dtw(noisyIdentity(rng, 6, s), 6, 6).pcc;
      return sum / 100;
    });
    assert.equal(means[0], 0);
    for (let k = 1; k < means.length; k++) assert.ok(means[k]! > means[k - 1]!, `mean PCC ${means.join(', ')}`);
  });
});

describe('dtw: reference values from an independent Python implementation', () => {
  interface RefCase {
    id: string;
    m: number;
    n: number;
    C: number[][];
    dtw: { pcc: number; cost: number; K: number; path: number[][] };
  }
  const ref = JSON.parse(readFileSync(new URL('./fixtures/reference.json', import.meta.url), 'utf8')) as { cases: RefCase[] };
  test(`${ref.cases.length} matrices agree to 1e-9 on PCC and exactly on K and the path`, () => {
    assert.ok(ref.cases.length >= 200);
    for (const c of ref.cases) {
      const r = dtw(Float64Array.from(c.C.flat()), c.m, c.n);
      assert.ok(Math.abs(r.pcc - c.dtw.pcc) <= 1e-9, `${c.id}: pcc ${r.pcc} vs ${c.dtw.pcc}`);
      assert.ok(Math.abs(r.cost - c.dtw.cost) <= 1e-9, `${c.id}: cost ${r.cost} vs ${c.dtw.cost}`);
      assert.equal(r.K, c.dtw.K, c.id);
      assert.deepEqual(pairs(r.path), c.dtw.path, c.id);
    }
  });
});
