/**
 * Chooses one concrete value per numeric indicator along a decision path, as Prompt 2 asks:
 * inside the threshold's interval when the step's outcome is yes, outside when no, and, when
 * several steps test the same indicator, inside the intersection of all of them. An empty
 * intersection means the path contradicts itself; it is reported, never papered over.
 *
 * Value rule (documented default): stay near the deciding threshold but clearly on the right
 * side of it. The distance from a threshold is 7% of its magnitude when a "yes" step set the
 * bound and 10% when a "no" step did (a failing value a little further away does not read as
 * borderline), at least the precision the guideline writes (27.5 → 0.1) and at least 1 for
 * whole-number units (ages, durations, mmHg, counts). Between two thresholds, the value goes
 * near the lower one, but never past the midpoint. The result is rounded to the coarsest of
 * 1, 0.5, 0.1, 0.05, 0.01 … not larger than that distance, so ≥ 30 gives 32 (yes) / 27 (no),
 * ≥ 140 mmHg gives 150 / 126, and "more than 3 months" gives 4 / 2. When the "no" side has two
 * pieces (outside a range) the lower piece is used, unless its value would be the bottom of the
 * domain ("0 weeks"), which reads as absent rather than as a low value. Values also stay in a plausible domain:
 * non-negative unless a threshold is negative, ≤ 100 for %, ≤ 120 for ages.
 */
import {
  complementSet,
  containsValue,
  formatSet,
  intersectSets,
  interval,
  tagBounds,
  unionSets,
  type Interval,
} from './numeric-interval.ts';
import { parseThresholds, substituteValues, type Threshold } from './numeric-threshold.ts';
import { convert, type UnitInfo } from './numeric-units.ts';

export interface NumericStepInput {
  condition: string;
  decision_outcome: 'yes' | 'no';
}

/** One indicator tracked along the path (several steps' keys may map to one group). */
export interface IndicatorGroup {
  id: number;
  key: string;
  /** The unit values are chosen and reported in (the first one the path writes). */
  unit: UnitInfo;
  precision: number;
  /** Feasible values after all steps (empty when contradictory). */
  feasible: Interval[];
  value: number | null;
  /** Step indices (0-based) that test this indicator. */
  steps: number[];
}

export interface NumericPlan {
  /** Thresholds per step, in step order. */
  thresholds: Threshold[][];
  /** For each step, threshold and component: the group id it belongs to. */
  groupOf: number[][][];
  groups: IndicatorGroup[];
  problems: string[];
}

const RESOLUTIONS = [1, 0.5, 0.1, 0.05, 0.01, 0.005, 0.001];

function keysCompatible(a: string, b: string): boolean {
  if (a === b) return true;
  if (a === 'age' || b === 'age') return false;
  if (/[\u3400-\u9fff]/.test(a + b)) return a.includes(b) || b.includes(a);
  const wa = a.split(' ');
  const wb = b.split(' ');
  const sub = (x: string[], y: string[]) => x.every((w) => y.includes(w));
  // "systolic" and "diastolic" never merge even though both contain "blood pressure".
  const side = (ws: string[]) => ws.find((w) => w === 'systolic' || w === 'diastolic');
  if (side(wa) && side(wb) && side(wa) !== side(wb)) return false;
  return sub(wa, wb) || sub(wb, wa);
}

function toUnit(set: readonly Interval[], from: UnitInfo, to: UnitInfo): Interval[] {
  if (from === to || from.family !== to.family) return set.slice();
  return set.map((i) => ({
    ...i,
    lo: Number.isFinite(i.lo) ? convert(i.lo, from, to) : i.lo,
    hi: Number.isFinite(i.hi) ? convert(i.hi, from, to) : i.hi,
  }));
}

function round(x: number, r: number): number {
  return Number((Math.round(x / r) * r).toFixed(6));
}

function margin(bound: number, src: string, precision: number, integer: boolean): number {
  const share = src === 'no' ? 0.1 : 0.07;
  return Math.max(Math.abs(bound) * share, precision, integer ? 1 : 0);
}

/** A plausible value inside one interval, or null when none exists at the unit's granularity. */
export function pickInInterval(piece: Interval, precision: number, integer: boolean): number | null {
  const loT = Number.isFinite(piece.lo) && piece.loSrc !== 'domain';
  const hiT = Number.isFinite(piece.hi) && piece.hiSrc !== 'domain';
  const mid = (piece.lo + piece.hi) / 2;
  let cand: number;
  let scale: number;
  if (piece.lo === piece.hi) {
    cand = piece.lo;
    scale = precision;
  } else if (loT) {
    const m = margin(piece.lo, piece.loSrc, precision, integer);
    cand = piece.lo + m;
    scale = m;
    if (Number.isFinite(piece.hi) && cand >= mid) [cand, scale] = [mid, (piece.hi - piece.lo) / 2];
  } else if (hiT) {
    const m = margin(piece.hi, piece.hiSrc, precision, integer);
    cand = piece.hi - m;
    scale = m;
    if (Number.isFinite(piece.lo) && cand <= mid) [cand, scale] = [mid, (piece.hi - piece.lo) / 2];
  } else {
    cand = Number.isFinite(piece.lo) ? piece.lo : Number.isFinite(piece.hi) ? piece.hi : 0;
    scale = precision;
  }
  const strictlyInside = (x: number) =>
    (x > piece.lo || (x === piece.lo && piece.loClosed && (!loT || piece.lo === piece.hi))) &&
    (x < piece.hi || (x === piece.hi && piece.hiClosed && (!hiT || piece.lo === piece.hi)));
  const resolutions = integer ? [1] : RESOLUTIONS.filter((r, k) => r <= scale || k === RESOLUTIONS.length - 1);
  for (const r of resolutions) {
    const x = round(cand, r);
    if (strictlyInside(x)) return x;
  }
  if (integer) {
    // Narrow pieces: the whole numbers inside, nearest to the candidate first.
    const lo = Math.ceil(piece.lo);
    const hi = Math.floor(piece.hi);
    const inside: number[] = [];
    for (let x = lo; x <= hi && inside.length < 1000; x++) if (strictlyInside(x)) inside.push(x);
    inside.sort((a, b) => Math.abs(a - cand) - Math.abs(b - cand));
    if (inside.length) return inside[0]!;
    // Fall back to a closed threshold bound itself rather than inventing a fraction.
    for (let x = lo; x <= hi; x++) if (containsValue([piece], x)) return x;
    return null;
  }
  return containsValue([piece], cand) ? cand : null;
}

export function pickValue(set: readonly Interval[], precision: number, integer: boolean): number | null {
  let first: number | null = null;
  for (const piece of set) {
    const x = pickInInterval(piece, precision, integer);
    if (x === null) continue;
    // A value sitting on the bottom of the domain ("0 weeks") reads as absent; use a later piece if any.
    const atDomainFloor = piece.loSrc === 'domain' && Number.isFinite(piece.lo) && x === piece.lo;
    if (!atDomainFloor) return x;
    first ??= x;
  }
  return first;
}

export function formatNumber(x: number): string {
  return String(Number(x.toFixed(3)));
}

/** Parses every step, groups indicators across steps, intersects and picks the values. */
export function chooseValues(steps: readonly NumericStepInput[]): NumericPlan {
  const thresholds = steps.map((s) => parseThresholds(s.condition));
  const groups: IndicatorGroup[] = [];
  const minThreshold = new Map<number, number>();
  const groupOf = thresholds.map((ts, stepIndex) =>
    ts.map((t) =>
      t.components.map((c) => {
        let g = groups.find((x) => x.unit.family === t.unit.family && keysCompatible(x.key, c.key));
        if (!g) {
          g = {
            id: groups.length,
            key: c.key,
            unit: t.unit,
            precision: t.precision,
            feasible: [interval(-Infinity, Infinity, false, false, 'domain')],
            value: null,
            steps: [],
          };
          groups.push(g);
        }
        g.precision = Math.min(g.precision, (t.precision * t.unit.factor) / g.unit.factor);
        if (!g.steps.includes(stepIndex)) g.steps.push(stepIndex);
        for (const n of t.numbers) minThreshold.set(g.id, Math.min(minThreshold.get(g.id) ?? Infinity, convert(n, t.unit, g.unit)));
        return g.id;
      }),
    ),
  );
  const problems: string[] = [];
  for (let s = 0; s < steps.length; s++) {
    // One step's constraint per group: its thresholds combined with and/or.
    const perGroup = new Map<number, Interval[]>();
    thresholds[s]!.forEach((t, ti) =>
      t.components.forEach((c, ci) => {
        const gid = groupOf[s]![ti]![ci]!;
        const g = groups[gid]!;
        const set = toUnit(c.set, t.unit, g.unit);
        const prev = perGroup.get(gid);
        perGroup.set(gid, prev === undefined ? set : t.joiner === 'or' ? unionSets(prev, set) : intersectSets(prev, set));
      }),
    );
    for (const [gid, set] of perGroup) {
      const g = groups[gid]!;
      const wanted = steps[s]!.decision_outcome === 'yes' ? tagBounds(set, 'yes') : tagBounds(complementSet(set), 'no');
      const before = g.feasible;
      g.feasible = intersectSets(g.feasible, wanted);
      if (g.feasible.length === 0 && before.length > 0) {
        problems.push(
          `contradictory path: "${g.key}" must lie in ${formatSet(before)} from earlier steps but step ${s + 1} ` +
            `("${steps[s]!.condition}", ${steps[s]!.decision_outcome}) requires ${formatSet(wanted)}; ` +
            'the intersection is empty, so no value is chosen — check the tree for inconsistent branches',
        );
      }
    }
  }
  for (const g of groups) {
    if (g.feasible.length === 0) continue;
    const lowest = minThreshold.get(g.id) ?? 0;
    const domain = interval(lowest < 0 ? -Infinity : (g.unit.min ?? 0), g.unit.max ?? Infinity, true, true, 'domain');
    const bounded = intersectSets(g.feasible, [domain]);
    g.value = pickValue(bounded, g.precision, g.unit.integer);
    if (g.value === null) {
      problems.push(
        `no plausible value for "${g.key}": the path allows ${formatSet(g.feasible)} ${g.unit.canonical}, ` +
          `which leaves nothing ${g.unit.integer ? 'whole-numbered ' : ''}within ${formatSet([domain])}; check the thresholds`,
      );
    }
  }
  return { thresholds, groupOf, groups, problems };
}

/** The chosen value for one threshold component, in the group's unit, formatted; null if none. */
export function valueText(plan: NumericPlan, step: number, threshold: number, component: number): string | null {
  const g = plan.groups[plan.groupOf[step]?.[threshold]?.[component] ?? -1];
  return g && g.value !== null ? formatNumber(g.value) : null;
}

/** The group's unit when it differs from the one this threshold wrote, else null. */
export function unitRename(plan: NumericPlan, step: number, threshold: number): string | null {
  const t = plan.thresholds[step]?.[threshold];
  const g = plan.groups[plan.groupOf[step]?.[threshold]?.[0] ?? -1];
  if (!t || !g || g.unit === t.unit) return null;
  return g.unit.canonical;
}

/**
 * Step `step`'s condition text with the chosen values written in place of its thresholds.
 * `marker` is put before each written value (the sentence builder uses it to find where the
 * predicate starts); callers remove it afterwards.
 */
export function writeValuesInto(plan: NumericPlan, step: number, text: string, marker = ''): string {
  const ts = plan.thresholds[step] ?? [];
  const groupOf = plan.groupOf[step] ?? [];
  return substituteValues(
    text,
    ts,
    (t, c) => {
      const v = valueText(plan, step, ts.indexOf(t), c);
      return v === null ? null : marker + v;
    },
    (t) => unitRename(plan, step, ts.indexOf(t)),
    (k) => !ts[k]!.pair && !ts[k - 1]!.pair && groupOf[k]![0] === groupOf[k - 1]![0],
  );
}
