/**
 * Interval arithmetic on the real line for the numeric-value chooser. A decision step's
 * threshold is an interval; its "no" outcome is the complement, which may be two pieces; a
 * path's steps on one indicator are intersected. Sets are kept normalised (sorted, disjoint,
 * no empty pieces) so that emptiness is simply `length === 0`.
 *
 * Each finite bound carries where it came from (`src`): the value picker keeps a larger
 * distance from a bound a "no" step put there than from one a "yes" step put there, and never
 * treats a plausibility limit of the domain (`domain`) as a threshold to stay near.
 */

export type BoundSource = 'yes' | 'no' | 'domain' | 'threshold';

export interface Interval {
  lo: number;
  hi: number;
  loClosed: boolean;
  hiClosed: boolean;
  loSrc: BoundSource;
  hiSrc: BoundSource;
}

export type IntervalSet = readonly Interval[];

export function interval(lo: number, hi: number, loClosed: boolean, hiClosed: boolean, src: BoundSource = 'threshold'): Interval {
  return {
    lo,
    hi,
    // An infinite end is never attained, so it is open whatever the caller said.
    loClosed: Number.isFinite(lo) && loClosed,
    hiClosed: Number.isFinite(hi) && hiClosed,
    loSrc: Number.isFinite(lo) ? src : 'domain',
    hiSrc: Number.isFinite(hi) ? src : 'domain',
  };
}

/** [x, ∞), (x, ∞), (−∞, x], (−∞, x) for the four comparison operators. */
export type Op = 'ge' | 'gt' | 'le' | 'lt';

export function fromOp(op: Op, x: number, src: BoundSource = 'threshold'): Interval {
  switch (op) {
    case 'ge':
      return interval(x, Infinity, true, false, src);
    case 'gt':
      return interval(x, Infinity, false, false, src);
    case 'le':
      return interval(-Infinity, x, false, true, src);
    case 'lt':
      return interval(-Infinity, x, false, false, src);
  }
}

export function isEmptyInterval(i: Interval): boolean {
  if (i.lo > i.hi) return true;
  if (i.lo === i.hi) return !(i.loClosed && i.hiClosed);
  return false;
}

export function containsValue(set: IntervalSet, x: number): boolean {
  return set.some((i) => (x > i.lo || (x === i.lo && i.loClosed)) && (x < i.hi || (x === i.hi && i.hiClosed)));
}

/** Which source a shared bound keeps: the one that makes it open, else a threshold over the domain. */
function tieSource(aClosed: boolean, aSrc: BoundSource, bClosed: boolean, bSrc: BoundSource): BoundSource {
  if (aClosed !== bClosed) return aClosed ? bSrc : aSrc;
  return aSrc === 'domain' ? bSrc : aSrc;
}

export function intersectIntervals(a: Interval, b: Interval): Interval {
  let lo: number, loClosed: boolean, loSrc: BoundSource;
  if (a.lo > b.lo) [lo, loClosed, loSrc] = [a.lo, a.loClosed, a.loSrc];
  else if (b.lo > a.lo) [lo, loClosed, loSrc] = [b.lo, b.loClosed, b.loSrc];
  else [lo, loClosed, loSrc] = [a.lo, a.loClosed && b.loClosed, tieSource(a.loClosed, a.loSrc, b.loClosed, b.loSrc)];
  let hi: number, hiClosed: boolean, hiSrc: BoundSource;
  if (a.hi < b.hi) [hi, hiClosed, hiSrc] = [a.hi, a.hiClosed, a.hiSrc];
  else if (b.hi < a.hi) [hi, hiClosed, hiSrc] = [b.hi, b.hiClosed, b.hiSrc];
  else [hi, hiClosed, hiSrc] = [a.hi, a.hiClosed && b.hiClosed, tieSource(a.hiClosed, a.hiSrc, b.hiClosed, b.hiSrc)];
  return { lo, hi, loClosed, hiClosed, loSrc, hiSrc };
}

/** Sorts, drops empty pieces and merges pieces that overlap or touch. */
export function normalise(set: IntervalSet): Interval[] {
  const pieces = set.filter((i) => !isEmptyInterval(i)).slice();
  pieces.sort((a, b) => a.lo - b.lo || Number(b.loClosed) - Number(a.loClosed));
  const out: Interval[] = [];
  for (const p of pieces) {
    const last = out[out.length - 1];
    const touches = last !== undefined && (p.lo < last.hi || (p.lo === last.hi && (p.loClosed || last.hiClosed)));
    if (!last || !touches) {
      out.push({ ...p });
      continue;
    }
    if (p.hi > last.hi || (p.hi === last.hi && p.hiClosed && !last.hiClosed)) {
      last.hi = p.hi;
      last.hiClosed = p.hiClosed;
      last.hiSrc = p.hiSrc;
    }
  }
  return out;
}

export function intersectSets(a: IntervalSet, b: IntervalSet): Interval[] {
  const out: Interval[] = [];
  for (const x of a) for (const y of b) out.push(intersectIntervals(x, y));
  return normalise(out);
}

export function unionSets(a: IntervalSet, b: IntervalSet): Interval[] {
  return normalise([...a, ...b]);
}

/** The complement within the real line; bounds keep their source so they stay traceable. */
export function complementSet(set: IntervalSet): Interval[] {
  const norm = normalise(set);
  const out: Interval[] = [];
  let lo = -Infinity;
  let loClosed = false;
  let loSrc: BoundSource = 'domain';
  for (const i of norm) {
    out.push({ lo, hi: i.lo, loClosed, hiClosed: Number.isFinite(i.lo) && !i.loClosed, loSrc, hiSrc: i.loSrc });
    lo = i.hi;
    loClosed = Number.isFinite(i.hi) && !i.hiClosed;
    loSrc = i.hiSrc;
  }
  out.push({ lo, hi: Infinity, loClosed, hiClosed: false, loSrc, hiSrc: 'domain' });
  return normalise(out);
}

/** Relabels every finite bound's source (the chooser tags a step's set with its outcome). */
export function tagBounds(set: IntervalSet, src: BoundSource): Interval[] {
  return set.map((i) => ({
    ...i,
    loSrc: Number.isFinite(i.lo) ? src : i.loSrc,
    hiSrc: Number.isFinite(i.hi) ? src : i.hiSrc,
  }));
}

export function formatInterval(i: Interval): string {
  const l = Number.isFinite(i.lo) ? String(i.lo) : '−∞';
  const h = Number.isFinite(i.hi) ? String(i.hi) : '∞';
  return `${i.loClosed ? '[' : '('}${l}, ${h}${i.hiClosed ? ']' : ')'}`;
}

export function formatSet(set: IntervalSet): string {
  return set.length === 0 ? '∅' : set.map(formatInterval).join(' ∪ ');
}
