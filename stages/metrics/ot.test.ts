import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { otCostMatrix, otPcc } from './ot.ts';
import { createRng } from '../stats/rng.ts';
import { noisyIdentity, uniformMatrix } from './testing/synthetic-consistency.ts';

const M = (rows: number[][]): [Float64Array, number, number] => [Float64Array.from(rows.flat()), rows.length, rows[0]!.length];
const close = (a: number, b: number, tol: number, what = ''): void =>
  assert.ok(Math.abs(a - b) <= tol, `${what} ${a} vs ${b} (tol ${tol})`);
const TIGHT = { tol: 1e-13 };

describe('ot: hand-computed cases', () => {
  test('cost matrix follows Eq. 3–4 with 0-based positions (i + 0.5)/m', () => {
    // m = 2, n = 3, α = 1, β = 0.2: positions .25, .75 vs 1/6, .5, 5/6.
    const D = otCostMatrix(Float64Array.from([1, 0.5, 0, 0, 0.5, 1]), 2, 3, 1, 0.2);
    const expected = [
      (0 + 0.2 * (0.25 - 1 / 6)) / 1.2,
      (0.5 + 0.2 * 0.25) / 1.2,
      (1 + 0.2 * (5 / 6 - 0.25)) / 1.2,
      (1 + 0.2 * (0.75 - 1 / 6)) / 1.2,
      (0.5 + 0.2 * 0.25) / 1.2,
      (0 + 0.2 * (5 / 6 - 0.75)) / 1.2,
    ];
    expected.forEach((e, k) => close(D[k]!, e, 1e-15, `D[${k}]`));
  });

  test('1×1: whatever mass moves, PCC is the one cost D = (1 − C)·α/(α + β)', () => {
    close(otPcc(...M([[0.6]]), { beta: 0.2 }).pcc, 0.4 / 1.2, 1e-15);
  });

  test('2×2 identity: symmetry forces U₀ = U₁, V₀ = V₁, so PCC = D_o·e^(−D_o/λ) / (1 + e^(−D_o/λ))', () => {
    // Diagonal cost 0; off-diagonal D_o = (1 + β·½)/(1 + β) = 1.1/1.2 for β = .2.
    // λ = .1: e^(−9.1667) = 1.0446e-4 → PCC = 9.575e-5.
    const Do = 1.1 / 1.2;
    const e = Math.exp(-Do / 0.1);
    const r = otPcc(
      ...M([
        [1, 0],
        [0, 1],
      ]),
      { beta: 0.2, ...TIGHT },
    );
    close(r.pcc, (Do * e) / (1 + e), 1e-12);
    close(r.pcc, 9.575e-5, 1e-8);
  });

  test('2×2 reversal: the same symmetry gives a weighted mean of the two costs', () => {
    // D_d = 1/(1+β) (wrong step, same position), D_o = β·½/(1+β) (right step, other position).
    const Dd = 1 / 1.2;
    const Do = 0.1 / 1.2;
    const wd = Math.exp(-Dd / 0.1);
    const wo = Math.exp(-Do / 0.1);
    const r = otPcc(
      ...M([
        [0, 1],
        [1, 0],
      ]),
      { beta: 0.2, ...TIGHT },
    );
    close(r.pcc, (Dd * wd + Do * wo) / (wd + wo), 1e-12);
  });

  test('non-square m×1: row masses are a^fa·(K_i v)^(1−fa), so PCC = Σ D_i w_i / Σ w_i with w_i = e^(−D_i/(τa+λ))', () => {
    // C = [.9, .5, .1]ᵀ, β = .2: positions 1/6, 1/2, 5/6 vs 1/2 →
    //   D = [(.1 + .2/3)/1.2, .5/1.2, (.9 + .2/3)/1.2] = [.13889, .41667, .80556]
    //   w = e^(−D/1.1) = [.88118, .68489, .48113]
    //   PCC = (.12239 + .28537 + .38758) / 2.04720 = .38850
    const D = [(0.1 + 0.2 / 3) / 1.2, 0.5 / 1.2, (0.9 + 0.2 / 3) / 1.2];
    const w = D.map((d) => Math.exp(-d / 1.1));
    const expected = D.reduce((s, d, i) => s + d * w[i]!, 0) / w.reduce((s, x) => s + x, 0);
    const r = otPcc(Float64Array.from([0.9, 0.5, 0.1]), 3, 1, { beta: 0.2, ...TIGHT });
    close(r.pcc, expected, 1e-12);
    close(r.pcc, 0.3885, 1e-4);
    // and for 1×n with τb: the same with columns
    const t = otPcc(Float64Array.from([0.9, 0.5, 0.1]), 1, 3, { beta: 0.2, tauB: 3, ...TIGHT });
    const wb = D.map((d) => Math.exp(-d / 3.1));
    close(t.pcc, D.reduce((s, d, i) => s + d * wb[i]!, 0) / wb.reduce((s, x) => s + x, 0), 1e-12);
  });

  test('order of the named cases: identity < redundancy < reversal < non-square < omission', () => {
    const pcc = (rows: number[][]): number => otPcc(...M(rows), { beta: 0.2 }).pcc;
    const identity = pcc([
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
    const redundancy = pcc([
      [1, 1, 0],
      [0, 0, 1],
    ]);
    const reversal = pcc([
      [0, 0, 1],
      [0, 1, 0],
      [1, 0, 0],
    ]);
    const omission = pcc([
      [1, 0],
      [0, 0],
      [0, 1],
    ]);
    assert.ok(identity < 1e-3, `identity ${identity}`);
    assert.ok(identity < redundancy && redundancy < reversal && reversal < omission, [identity, redundancy, reversal, omission].join(' '));
  });
});

describe('ot: optimality and options', () => {
  test('the plan satisfies the first-order conditions of the documented objective (τa ≠ τb too)', () => {
    // λ log T_ij + D_ij + τa log(r_i/a_i) + τb log(c_j/b_j) = 0 for every cell.
    const rng = createRng(31);
    for (let t = 0; t < 40; t++) {
      const m = 1 + rng.nextInt(12);
      const n = 1 + rng.nextInt(12);
      const C = uniformMatrix(rng, m, n, t % 2 ? 10 : 0);
      const opts = {
        beta: 0.2,
        lambda: [0.05, 0.1, 0.3][t % 3]!,
        tauA: [0.5, 1, 4][t % 3]!,
        tauB: [2, 1, 0.7][t % 3]!,
        returnPlan: true,
        tol: 1e-13,
      };
      const r = otPcc(C, m, n, opts);
      assert.ok(r.converged);
      const T = r.plan!;
      const D = otCostMatrix(C, m, n, 1, 0.2);
      const row = new Float64Array(m);
      const col = new Float64Array(n);
      for (let i = 0; i < m; i++)
        for (let j = 0; j < n; j++) {
          row[i] = row[i]! + T[i * n + j]!;
          col[j] = col[j]! + T[i * n + j]!;
        }
      for (let i = 0; i < m; i++) {
        for (let j = 0; j < n; j++) {
          const g =
            opts.lambda * Math.log(T[i * n + j]!) + D[i * n + j]! + opts.tauA * Math.log(row[i]! * m) + opts.tauB * Math.log(col[j]! * n);
          close(g, 0, 1e-9, `case ${t} cell ${i},${j}`);
        }
      }
      let cost = 0;
      let mass = 0;
      for (let k = 0; k < m * n; k++) {
        cost += T[k]! * D[k]!;
        mass += T[k]!;
      }
      close(r.pcc, cost / mass, 1e-12, 'PCC = ⟨T,D⟩/‖T‖₁');
    }
  });

  test('large τ/λ (plain iteration with the translation step instead of SOR) reaches the same optimum', () => {
    // τ = 20, λ = 0.05: the optimal SOR factor would exceed 1.8, so the translated iteration runs.
    const rng = createRng(36);
    for (let t = 0; t < 10; t++) {
      const m = 2 + rng.nextInt(8);
      const n = 2 + rng.nextInt(8);
      const C = uniformMatrix(rng, m, n, 10);
      const r = otPcc(C, m, n, { beta: 0.2, lambda: 0.05, tauA: 20, tauB: 20, returnPlan: true, tol: 1e-12 });
      assert.ok(r.converged, `case ${t}`);
      const T = r.plan!;
      const D = otCostMatrix(C, m, n, 1, 0.2);
      const row = new Float64Array(m);
      const col = new Float64Array(n);
      for (let i = 0; i < m; i++)
        for (let j = 0; j < n; j++) {
          row[i] = row[i]! + T[i * n + j]!;
          col[j] = col[j]! + T[i * n + j]!;
        }
      for (let i = 0; i < m; i++) {
        for (let j = 0; j < n; j++) {
          close(
            0.05 * Math.log(T[i * n + j]!) + D[i * n + j]! + 20 * Math.log(row[i]! * m) + 20 * Math.log(col[j]! * n),
            0,
            1e-8,
            `case ${t} cell ${i},${j}`,
          );
        }
      }
    }
  });

  test('τ = ∞ on both sides is balanced OT: the marginals are exactly a and b', () => {
    const rng = createRng(32);
    const C = uniformMatrix(rng, 5, 7);
    const r = otPcc(C, 5, 7, { beta: 0.2, tauA: Infinity, tauB: Infinity, returnPlan: true, tol: 1e-13 });
    assert.ok(r.converged);
    for (let i = 0; i < 5; i++)
      close(
        r.plan!.subarray(i * 7, i * 7 + 7).reduce((s, x) => s + x, 0),
        1 / 5,
        1e-10,
        `row ${i}`,
      );
  });

  test('small λ does not underflow (stabilised kernel) and still satisfies 0 ≤ PCC ≤ 1', () => {
    const rng = createRng(33);
    const C = uniformMatrix(rng, 8, 9);
    const r = otPcc(C, 8, 9, { beta: 0.2, lambda: 1e-3, tol: 1e-9 });
    assert.ok(r.converged && r.pcc >= 0 && r.pcc <= 1, JSON.stringify(r));
  });

  test('hitting maxIter is reported, not hidden', () => {
    const r = otPcc(
      ...M([
        [0.2, 0.9],
        [0.7, 0.1],
      ]),
      { beta: 0.2, maxIter: 2 },
    );
    assert.equal(r.iterations, 2);
    assert.equal(r.converged, false);
  });

  test('invalid parameters are rejected by name', () => {
    assert.throws(() => otPcc(...M([[0.5]]), { beta: 0.2, lambda: 0 }), /lambda = 0 is invalid/);
    assert.throws(() => otPcc(...M([[0.5]]), { beta: -1 }), /beta = -1 is invalid/);
    assert.throws(() => otPcc(...M([[0.5]]), { beta: 0.2, tauA: 0 }), /tauA = 0 is invalid/);
  });
});

describe('ot: degenerate inputs', () => {
  test('n = 0 (empty prediction) scores the worst PCC, 1', () => {
    const r = otPcc(new Float64Array(0), 3, 0, { beta: 0.2 });
    assert.equal(r.pcc, 1);
    assert.equal(r.iterations, 0);
  });
  test('m = 0 is an input error; NaN and out-of-range scores are named', () => {
    assert.throws(() => otPcc(new Float64Array(0), 0, 2, { beta: 0.2 }), /m = 0 \(empty reference pathway\)/);
    assert.throws(() => otPcc(Float64Array.from([0.1, NaN]), 1, 2, { beta: 0.2 }), /C\[0\]\[1\] = NaN/);
  });
});

describe('ot: properties on seeded random matrices', () => {
  test('0 ≤ PCC ≤ 1 and convergence at the defaults for paper-sized matrices', () => {
    const rng = createRng(34);
    for (let t = 0; t < 300; t++) {
      const m = 1 + rng.nextInt(31);
      const n = 1 + rng.nextInt(31);
      const r = otPcc(uniformMatrix(rng, m, n, t % 2 ? 10 : 0), m, n, { beta: t % 2 ? 0.2 : 0.1 });
      assert.ok(r.converged, `case ${t} ${m}×${n}`);
      assert.ok(r.pcc >= 0 && r.pcc <= 1, `case ${t}: ${r.pcc}`);
    }
  });

  test('mean PCC increases as noise is blended into a perfect pathway', () => {
    // Up to σ = 0.8: at σ = 1 nothing of the identity is left and pure noise can score better
    // than σ = 0.8 (its best cells reach 1, where σ = 0.8 caps the off-diagonal at 0.8).
    const sigmas = [0, 0.2, 0.4, 0.6, 0.8];
    const means = sigmas.map((s) => {
      const rng = createRng(35);
      let sum = 0;
      for (let t = 0; t < 60; t++) sum += otPcc(noisyIdentity(rng, 6, s), 6, 6, { beta: 0.2 }).pcc;
      return sum / 60;
    });
    for (let k = 1; k < means.length; k++) assert.ok(means[k]! > means[k - 1]!, `mean PCC ${means.join(', ')}`);
  });
});

describe('ot: reference values from POT 0.8.2 (sinkhorn_unbalanced, reg = λ, reg_m = τ)', () => {
  interface RefCase {
    id: string;
    m: number;
    n: number;
    C: number[][];
    alpha: number;
    beta: number;
    lambda: number;
    tau: number;
    ot: { pcc: number };
  }
  const ref = JSON.parse(readFileSync(new URL('./fixtures/reference.json', import.meta.url), 'utf8')) as { cases: RefCase[] };
  test(`${ref.cases.length} matrices agree to 1e-5 on PCC, both run to convergence`, () => {
    assert.ok(ref.cases.length >= 200);
    let worst = 0;
    for (const c of ref.cases) {
      const r = otPcc(Float64Array.from(c.C.flat()), c.m, c.n, {
        alpha: c.alpha,
        beta: c.beta,
        lambda: c.lambda,
        tauA: c.tau,
        tauB: c.tau,
        tol: 1e-12,
      });
      assert.ok(r.converged, c.id);
      const diff = Math.abs(r.pcc - c.ot.pcc);
      worst = Math.max(worst, diff);
      assert.ok(diff <= 1e-5, `${c.id}: pcc ${r.pcc} vs POT ${c.ot.pcc}`);
    }
    // Far inside the required 1e-5: the two solvers reach the same fixed point.
    assert.ok(worst < 1e-9, `worst difference ${worst}`);
  });
  test('the default tolerance is already within 1e-7 of POT', () => {
    for (const c of ref.cases) {
      const r = otPcc(Float64Array.from(c.C.flat()), c.m, c.n, {
        alpha: c.alpha,
        beta: c.beta,
        lambda: c.lambda,
        tauA: c.tau,
        tauB: c.tau,
      });
      close(r.pcc, c.ot.pcc, 1e-7, c.id);
    }
  });
});
