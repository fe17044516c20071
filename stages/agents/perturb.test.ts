import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { countDeviations, deviationsOf, perturb, type DeviationRates } from './perturb.ts';
import { createRng } from '../stats/rng.ts';

const REF = (m: number) => Array.from({ length: m }, (_, i) => String.fromCharCode(65 + i));
const rates = (r: Partial<DeviationRates>): DeviationRates => ({ omission: 0, redundancy: 0, skipping: 0, reversal: 0, ...r });

describe('perturb at rate 1 (hand-worked)', () => {
  test('no deviation at rate 0 reproduces the reference', () => {
    const r = perturb(REF(4), rates({}), createRng(1), { distractors: ['X'] });
    assert.deepEqual(r, { steps: ['A', 'B', 'C', 'D'], mapping: [0, 1, 2, 3], deviations: [] });
  });

  test('omission leaves out every other step, never two neighbours, never everything', () => {
    const r = perturb(REF(5), rates({ omission: 1 }), createRng(1));
    assert.deepEqual(r.steps, ['B', 'D']);
    assert.deepEqual(r.mapping, [1, 3]);
    assert.deepEqual(r.deviations, [
      { type: 'omission', reference: 0 },
      { type: 'omission', reference: 2 },
      { type: 'omission', reference: 4 },
    ]);
    assert.deepEqual(deviationsOf(r.mapping, 5), { omission: 3, redundancy: 0, skipping: 0, reversal: 0 });
    assert.deepEqual(perturb(REF(1), rates({ omission: 1 }), createRng(1)).mapping, [0]);
    assert.deepEqual(perturb(REF(2), rates({ omission: 1 }), createRng(1)).mapping, [1]);
  });

  test('skipping leaves out runs of two and lands on the next step', () => {
    const six = perturb(REF(6), rates({ skipping: 1 }), createRng(1));
    assert.deepEqual(six.steps, ['C', 'F']);
    assert.deepEqual(six.deviations, [
      { type: 'skipping', from: 0, to: 1 },
      { type: 'skipping', from: 3, to: 4 },
    ]);
    assert.deepEqual(deviationsOf(six.mapping, 6), { omission: 0, redundancy: 0, skipping: 2, reversal: 0 });
    // With five steps the second run would have no landing step, so it is not taken.
    assert.deepEqual(perturb(REF(5), rates({ skipping: 1 }), createRng(1)).mapping, [2, 3, 4]);
    // Two steps cannot be skipped with a landing after them.
    assert.deepEqual(perturb(REF(2), rates({ skipping: 1 }), createRng(1)).mapping, [0, 1]);
  });

  test('longer skips when skipMax allows, always landing on a step', () => {
    for (let seed = 0; seed < 50; seed++) {
      const r = perturb(REF(9), rates({ skipping: 1 }), createRng(seed), { skipMax: 4 });
      for (const d of r.deviations) {
        assert.equal(d.type, 'skipping');
        if (d.type !== 'skipping') continue;
        const length = d.to - d.from + 1;
        assert.ok(length >= 2 && length <= 4, `run length ${length}`);
        assert.ok(r.mapping.includes(d.to + 1), 'the step after the run is taken');
      }
      assert.equal(deviationsOf(r.mapping, 9).skipping, r.deviations.length);
    }
    assert.throws(() => perturb(REF(3), rates({ skipping: 1 }), createRng(1), { skipMax: 1 }), /skipMax/);
  });

  test('reversal swaps disjoint adjacent pairs', () => {
    const r = perturb(REF(5), rates({ reversal: 1 }), createRng(1));
    assert.deepEqual(r.steps, ['B', 'A', 'D', 'C', 'E']);
    assert.deepEqual(r.mapping, [1, 0, 3, 2, 4]);
    assert.deepEqual(r.deviations, [
      { type: 'reversal', first: 0 },
      { type: 'reversal', first: 2 },
    ]);
    assert.deepEqual(deviationsOf(r.mapping, 5), { omission: 0, redundancy: 0, skipping: 0, reversal: 2 });
  });

  test('redundancy inserts distractors after each step, then repeats when they run out', () => {
    const r = perturb(REF(3), rates({ redundancy: 1 }), createRng(3), { distractors: ['X', 'Y', 'X'] });
    assert.deepEqual(r.mapping, [0, null, 1, null, 2, null]);
    assert.deepEqual([r.steps[0], r.steps[2], r.steps[4]], ['A', 'B', 'C']);
    assert.deepEqual([r.steps[1], r.steps[3]].sort(), ['X', 'Y'], 'each distinct distractor once');
    assert.equal(r.steps[5], 'C');
    assert.deepEqual(r.deviations[2], { type: 'redundancy', position: 5, source: 'repeat', text: 'C', repeats: 2 });
    assert.deepEqual(
      r.deviations.map((d) => (d.type === 'redundancy' ? d.position : -1)),
      [1, 3, 5],
    );
    assert.deepEqual(deviationsOf(r.mapping, 3), { omission: 0, redundancy: 3, skipping: 0, reversal: 0 });
  });

  test('all four at once: skips first, then isolated omissions, then swaps, then insertions', () => {
    const r = perturb(REF(8), rates({ omission: 1, redundancy: 1, skipping: 1, reversal: 1 }), createRng(5), {
      distractors: ['X', 'Y', 'Z'],
    });
    // Skips 0–1 (land 2) and 3–4 (land 5); 6 is the only isolated step left; 2, 5, 7 have no adjacent pair.
    assert.deepEqual(r.mapping, [2, null, 5, null, 7, null]);
    assert.deepEqual(countDeviations(r.deviations), { omission: 1, redundancy: 3, skipping: 2, reversal: 0 });
    assert.deepEqual(deviationsOf(r.mapping, 8), countDeviations(r.deviations));
  });
});

describe('perturb at partial rates (seeded)', () => {
  test('the applied deviations are exactly what the mapping shows, and the steps follow the mapping', () => {
    const meta = createRng(2024);
    for (let trial = 0; trial < 3000; trial++) {
      const m = meta.nextInt(13);
      const reference = REF(m);
      const distractors = Array.from({ length: meta.nextInt(4) }, (_, i) => `D${i}`);
      const r = rates({
        omission: meta.nextInt(5) / 4,
        redundancy: meta.nextInt(5) / 4,
        skipping: meta.nextInt(5) / 4,
        reversal: meta.nextInt(5) / 4,
      });
      const seed = meta.nextUint32();
      const out = perturb(reference, r, createRng(seed), { distractors, skipMax: 2 + meta.nextInt(3) });
      const label = `trial ${trial} (m=${m}, seed ${seed})`;
      assert.deepEqual(deviationsOf(out.mapping, m), countDeviations(out.deviations), label);
      assert.equal(out.steps.length, out.mapping.length, label);
      const mapped = out.mapping.filter((x): x is number => x !== null);
      assert.equal(new Set(mapped).size, mapped.length, `${label}: a reference step is taken at most once`);
      if (m > 0) assert.ok(mapped.length >= 1, `${label}: the pathway is never emptied`);
      out.mapping.forEach((k, j) => {
        if (k !== null) assert.equal(out.steps[j], reference[k], label);
        else assert.ok(distractors.includes(out.steps[j]!) || reference.includes(out.steps[j]!), label);
      });
      for (const t of ['omission', 'redundancy', 'skipping', 'reversal'] as const) {
        if (r[t] === 0) assert.equal(countDeviations(out.deviations)[t], 0, `${label}: ${t} at rate 0`);
      }
    }
  });

  test('a profile object is accepted in place of bare rates, with its skipMax', () => {
    const profile = { rates: rates({ skipping: 1 }), skipMax: 3 };
    for (let seed = 0; seed < 20; seed++) {
      assert.deepEqual(perturb(REF(7), profile, createRng(seed)), perturb(REF(7), profile.rates, createRng(seed), { skipMax: 3 }));
    }
  });

  test('the same seed gives the same result', () => {
    const r = rates({ omission: 0.3, redundancy: 0.3, skipping: 0.3, reversal: 0.3 });
    const a = perturb(REF(10), r, createRng(77), { distractors: ['X', 'Y'] });
    const b = perturb(REF(10), r, createRng(77), { distractors: ['X', 'Y'] });
    assert.deepEqual(a, b);
  });

  // Paths with a single opportunity: the deviation frequency must match the rate (binomial, 4σ).
  const frequency = (m: number, r: DeviationRates, type: keyof DeviationRates, n = 4000) => {
    let hits = 0;
    for (let s = 0; s < n; s++) if (countDeviations(perturb(REF(m), r, createRng(s * 7919 + 1)).deviations)[type] > 0) hits++;
    return hits / n;
  };
  const within = (observed: number, p: number, n = 4000) => Math.abs(observed - p) <= 4 * Math.sqrt((p * (1 - p)) / n);

  test('reversal of a two-step path happens at the rate', () => {
    const f = frequency(2, rates({ reversal: 0.3 }), 'reversal');
    assert.ok(within(f, 0.3), `observed ${f}`);
  });

  test('skipping of a three-step path happens at the rate', () => {
    const f = frequency(3, rates({ skipping: 0.25 }), 'skipping');
    assert.ok(within(f, 0.25), `observed ${f}`);
  });

  test('redundancy after a one-step path happens at the rate', () => {
    const f = frequency(1, rates({ redundancy: 0.4 }), 'redundancy');
    assert.ok(within(f, 0.4), `observed ${f}`);
  });

  test('omission on a two-step path: first step at p, else second at p', () => {
    const p = 0.3;
    const f = frequency(2, rates({ omission: p }), 'omission');
    assert.ok(within(f, p + (1 - p) * p), `observed ${f}`);
  });

  test('rates outside [0, 1] are refused', () => {
    assert.throws(() => perturb(REF(3), rates({ omission: 1.5 }), createRng(1)), /omission rate must be a number in \[0, 1\]/);
    assert.throws(() => perturb(REF(3), rates({ reversal: Number.NaN }), createRng(1)), /reversal rate/);
  });
});

describe('deviationsOf on any mapping', () => {
  test('hand cases', () => {
    assert.deepEqual(deviationsOf([0, 1, 2], 3), { omission: 0, redundancy: 0, skipping: 0, reversal: 0 });
    assert.deepEqual(deviationsOf([], 3), { omission: 0, redundancy: 0, skipping: 1, reversal: 0 });
    assert.deepEqual(deviationsOf([1], 3), { omission: 2, redundancy: 0, skipping: 0, reversal: 0 });
    assert.deepEqual(deviationsOf([0, null, 0, 2, 1], 4), { omission: 1, redundancy: 2, skipping: 0, reversal: 1 });
    assert.deepEqual(deviationsOf([3, 0, 1, 2], 4), { omission: 0, redundancy: 0, skipping: 0, reversal: 1 });
    assert.deepEqual(deviationsOf([0, 3], 4), { omission: 0, redundancy: 0, skipping: 1, reversal: 0 });
    assert.deepEqual(deviationsOf([null, null], 0), { omission: 0, redundancy: 2, skipping: 0, reversal: 0 });
  });

  test('an index outside the reference is an error naming the step', () => {
    assert.throws(() => deviationsOf([0, 3], 3), /predicted step 2 maps to 3/);
    assert.throws(() => deviationsOf([0.5], 3), /predicted step 1/);
    assert.throws(() => deviationsOf([], -1), /non-negative/);
  });
});
