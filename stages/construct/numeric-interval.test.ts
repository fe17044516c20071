import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  complementSet,
  containsValue,
  formatSet,
  fromOp,
  interval,
  intersectSets,
  isEmptyInterval,
  normalise,
  tagBounds,
  unionSets,
  type Interval,
} from './numeric-interval.ts';
import { createRng } from '../stats/rng.ts';

describe('intervals', () => {
  test('operators map to the right open/closed half-lines', () => {
    assert.equal(formatSet([fromOp('ge', 30)]), '[30, ∞)');
    assert.equal(formatSet([fromOp('gt', 30)]), '(30, ∞)');
    assert.equal(formatSet([fromOp('le', 30)]), '(−∞, 30]');
    assert.equal(formatSet([fromOp('lt', 30)]), '(−∞, 30)');
    assert.equal(containsValue([fromOp('ge', 30)], 30), true);
    assert.equal(containsValue([fromOp('gt', 30)], 30), false);
    assert.equal(containsValue([fromOp('le', 30)], 30), true);
    assert.equal(containsValue([fromOp('lt', 30)], 30), false);
  });

  test('emptiness of degenerate intervals depends on both ends being closed', () => {
    assert.equal(isEmptyInterval(interval(3, 3, true, true)), false);
    assert.equal(isEmptyInterval(interval(3, 3, true, false)), true);
    assert.equal(isEmptyInterval(interval(4, 3, true, true)), true);
  });

  test('complement of a closed range is two open-ended pieces with flipped closedness', () => {
    const c = complementSet([interval(130, 139, true, true)]);
    assert.equal(formatSet(c), '(−∞, 130) ∪ (139, ∞)');
    assert.equal(containsValue(c, 130), false);
    assert.equal(containsValue(c, 129.999), true);
    assert.equal(containsValue(c, 139.001), true);
  });

  test('complement of ≥ x is < x and complement twice is the identity', () => {
    assert.equal(formatSet(complementSet([fromOp('ge', 30)])), '(−∞, 30)');
    const twice = complementSet(complementSet([interval(1, 2, false, true), interval(5, 7, true, false)]));
    assert.equal(formatSet(twice), '(1, 2] ∪ [5, 7)');
    assert.equal(formatSet(complementSet([])), '(−∞, ∞)');
    assert.equal(formatSet(complementSet([interval(-Infinity, Infinity, false, false)])), '∅');
  });

  test('intersections of three steps: ≥23 yes, ≥27.5 no, <25 yes', () => {
    let s: Interval[] = [fromOp('ge', 23)];
    s = intersectSets(s, complementSet([fromOp('ge', 27.5)]));
    assert.equal(formatSet(s), '[23, 27.5)');
    s = intersectSets(s, [fromOp('lt', 25)]);
    assert.equal(formatSet(s), '[23, 25)');
  });

  test('touching open ends do not intersect; touching closed ends meet in a point', () => {
    assert.equal(formatSet(intersectSets([fromOp('lt', 30)], [fromOp('ge', 30)])), '∅');
    assert.equal(formatSet(intersectSets([fromOp('le', 30)], [fromOp('ge', 30)])), '[30, 30]');
    assert.equal(formatSet(intersectSets([fromOp('le', 30)], [fromOp('gt', 30)])), '∅');
  });

  test('a two-piece complement intersected with a range keeps both remaining pieces', () => {
    const outside = complementSet([interval(130, 139, true, true)]);
    const s = intersectSets(outside, [interval(100, 150, true, true)]);
    assert.equal(formatSet(s), '[100, 130) ∪ (139, 150]');
  });

  test('union merges overlapping and touching pieces', () => {
    assert.equal(formatSet(unionSets([fromOp('lt', 18.5)], [fromOp('ge', 25)])), '(−∞, 18.5) ∪ [25, ∞)');
    assert.equal(formatSet(unionSets([interval(1, 3, true, false)], [interval(3, 5, true, true)])), '[1, 5]');
    assert.equal(formatSet(unionSets([interval(1, 3, true, false)], [interval(3, 5, false, true)])), '[1, 3) ∪ (3, 5]');
    assert.equal(formatSet(normalise([interval(5, 6, true, true), interval(1, 2, true, true), interval(1.5, 5, false, false)])), '[1, 6]');
  });

  test('bound sources survive intersection and complement; tagging relabels finite bounds only', () => {
    const yes = tagBounds([fromOp('ge', 23)], 'yes');
    const no = tagBounds(complementSet([fromOp('ge', 27.5)]), 'no');
    const [piece] = intersectSets(yes, no);
    assert.equal(piece!.loSrc, 'yes');
    assert.equal(piece!.hiSrc, 'no');
    assert.equal(tagBounds([fromOp('ge', 1)], 'no')[0]!.hiSrc, 'domain');
  });

  // Reference: membership tested point by point on a grid that contains every endpoint.
  test('property: set operations agree with point-wise membership (random sets, 300 trials)', () => {
    const rng = createRng(20260601);
    const randomSet = (): Interval[] => {
      const k = 1 + rng.nextInt(3);
      const out: Interval[] = [];
      for (let j = 0; j < k; j++) {
        const a = rng.nextInt(21);
        const b = a + rng.nextInt(6);
        const lo = rng.nextInt(8) === 0 ? -Infinity : a;
        const hi = rng.nextInt(8) === 0 ? Infinity : b;
        out.push(interval(lo, hi, rng.nextInt(2) === 0, rng.nextInt(2) === 0));
      }
      return out;
    };
    const grid: number[] = [];
    for (let x = -2; x <= 28; x += 0.5) grid.push(x);
    const raw = (set: Interval[], x: number) =>
      set.some((i) => (x > i.lo || (x === i.lo && i.loClosed)) && (x < i.hi || (x === i.hi && i.hiClosed)));
    for (let trial = 0; trial < 300; trial++) {
      const A = randomSet();
      const B = randomSet();
      const I = intersectSets(A, B);
      const U = unionSets(A, B);
      const C = complementSet(A);
      for (const x of grid) {
        assert.equal(containsValue(I, x), raw(A, x) && raw(B, x), `∩ at ${x}: ${formatSet(A)} / ${formatSet(B)}`);
        assert.equal(containsValue(U, x), raw(A, x) || raw(B, x), `∪ at ${x}`);
        assert.equal(containsValue(C, x), !raw(A, x), `complement at ${x}: ${formatSet(A)}`);
      }
      // Normalised: sorted and disjoint with a gap between pieces.
      for (let j = 1; j < U.length; j++) {
        const p = U[j - 1]!;
        const q = U[j]!;
        assert.ok(p.hi < q.lo || (p.hi === q.lo && !p.hiClosed && !q.loClosed), `not normalised: ${formatSet(U)}`);
      }
    }
  });
});
