/**
 * Perturbing a reference pathway with the four process deviations of the paper's Figure 3, at
 * seeded rates, keeping the exact correspondence between predicted and reference steps. That
 * correspondence (`mapping`: predicted step j → reference step index, or null) is the ground
 * truth the simulated agents contribute in place of human labels, so the deviation types are
 * defined such that the mapping alone determines them (`deviationsOf`).
 *
 * Definitions (m reference steps, indices 0..m−1):
 * - omission: one reference step is left out while both its neighbours are kept. Two adjacent
 *   steps left out are not two omissions but a skipping.
 * - skipping: the pathway jumps ahead — a maximal run of ≥ 2 consecutive reference steps is left
 *   out and the step after the run (the landing step) is taken. (`deviationsOf` also counts a
 *   run of ≥ 2 at the end, "jumping to the conclusion", as a skipping; the generator always
 *   lands on a step.)
 * - reversal: two reference steps adjacent in the reference (k, k+1), both kept, are taken in
 *   the opposite order. Swapped pairs never share a step.
 * - redundancy: a step with no reference counterpart is inserted right after a kept step: a
 *   criterion from elsewhere in the same tree (a "distractor" the caller supplies, each used at
 *   most once per pathway), or, when no unused distractor is left, a repeat of the step just
 *   taken. Its mapping entry is null, including for a repeat: the repeat adds nothing the
 *   reference asks for.
 *
 * Rates. Each type scans its opportunities in reference order and takes each eligible one with
 * probability = its rate (one uniform draw per eligible opportunity, so rate 1 takes every
 * eligible one and the result is deterministic up to skip lengths and distractor choice):
 *   1. skipping: at each step k not yet decided, when a run of length ≥ 2 can start there and
 *      still land on a step; the run length is uniform in 2..min(skipMax, m−k−1) (skipMax
 *      default 2); the scan resumes after the landing step;
 *   2. omission: at each kept step whose neighbours are kept, while at least two steps are kept
 *      (a pathway is never emptied);
 *   3. reversal: at each adjacent pair of kept reference steps not already swapped; the scan
 *      resumes after a swapped pair;
 *   4. redundancy: after each kept step, in predicted order.
 * The order of the scans matters (a skipped run is never also an omission); all draws come from
 * the one `rng` in that order, so a seed reproduces the result.
 */
import type { Rng } from '../stats/rng.ts';

export type DeviationType = 'omission' | 'redundancy' | 'skipping' | 'reversal';

export const DEVIATION_TYPES: readonly DeviationType[] = ['omission', 'redundancy', 'skipping', 'reversal'];

export type Deviation =
  | { type: 'omission'; reference: number }
  /** Reference steps from..to (inclusive) are left out; to + 1 is taken next. */
  | { type: 'skipping'; from: number; to: number }
  /** Reference steps first and first + 1 are taken in swapped order. */
  | { type: 'reversal'; first: number }
  /** Inserted at predicted position `position` (final numbering); `repeats` names the repeated reference step. */
  | { type: 'redundancy'; position: number; source: 'distractor' | 'repeat'; text: string; repeats?: number };

export type DeviationRates = Record<DeviationType, number>;

export type DeviationCounts = Record<DeviationType, number>;

export interface PerturbOptions {
  /** Criteria from elsewhere in the tree, for redundant steps. */
  distractors?: readonly string[];
  /** Longest skipped run (≥ 2). Default 2. */
  skipMax?: number;
}

export interface PerturbResult {
  steps: string[];
  /** Predicted step j → reference step index, or null for a redundant step. */
  mapping: (number | null)[];
  deviations: Deviation[];
}

function checkRates(rates: DeviationRates): void {
  for (const t of DEVIATION_TYPES) {
    const r = rates[t];
    if (!(r >= 0 && r <= 1)) throw new RangeError(`perturb: the ${t} rate must be a number in [0, 1], got ${r}; fix the agent profile`);
  }
}

/** Rates alone, or a profile holding them (and its skipMax, which `options.skipMax` overrides). */
export type PerturbSpec = DeviationRates | { rates: DeviationRates; skipMax?: number };

export function perturb(reference: readonly string[], spec: PerturbSpec, rng: Rng, options: PerturbOptions = {}): PerturbResult {
  const rates: DeviationRates = 'rates' in spec ? spec.rates : spec;
  checkRates(rates);
  const skipMax = options.skipMax ?? ('rates' in spec ? spec.skipMax : undefined) ?? 2;
  if (!Number.isInteger(skipMax) || skipMax < 2)
    throw new RangeError(`perturb: skipMax must be an integer ≥ 2 (a skip leaves out at least two steps), got ${skipMax}`);
  const m = reference.length;
  const missing = new Array<boolean>(m).fill(false);
  const deviations: Deviation[] = [];

  if (rates.skipping > 0) {
    let k = 0;
    while (k < m) {
      const longest = Math.min(skipMax, m - k - 1);
      if (longest >= 2 && rng.nextFloat() < rates.skipping) {
        const length = 2 + (longest > 2 ? rng.nextInt(longest - 1) : 0);
        for (let i = k; i < k + length; i++) missing[i] = true;
        deviations.push({ type: 'skipping', from: k, to: k + length - 1 });
        k += length + 1;
      } else k++;
    }
  }

  if (rates.omission > 0) {
    let kept = missing.filter((x) => !x).length;
    for (let k = 0; k < m; k++) {
      const eligible = !missing[k] && (k === 0 || !missing[k - 1]) && (k === m - 1 || !missing[k + 1]) && kept > 1;
      if (eligible && rng.nextFloat() < rates.omission) {
        missing[k] = true;
        kept--;
        deviations.push({ type: 'omission', reference: k });
      }
    }
  }

  const order: number[] = [];
  for (let k = 0; k < m; k++) if (!missing[k]) order.push(k);
  if (rates.reversal > 0) {
    for (let p = 0; p + 1 < order.length; p++) {
      if (order[p + 1] !== order[p]! + 1) continue;
      if (rng.nextFloat() < rates.reversal) {
        deviations.push({ type: 'reversal', first: order[p]! });
        [order[p], order[p + 1]] = [order[p + 1]!, order[p]!];
        p++;
      }
    }
  }

  const steps: string[] = [];
  const mapping: (number | null)[] = [];
  const unused = [...new Set(options.distractors ?? [])];
  for (const k of order) {
    steps.push(reference[k]!);
    mapping.push(k);
    if (rates.redundancy > 0 && rng.nextFloat() < rates.redundancy) {
      const position = steps.length;
      if (unused.length > 0) {
        const text = unused.splice(rng.nextInt(unused.length), 1)[0]!;
        deviations.push({ type: 'redundancy', position, source: 'distractor', text });
        steps.push(text);
      } else {
        deviations.push({ type: 'redundancy', position, source: 'repeat', text: reference[k]!, repeats: k });
        steps.push(reference[k]!);
      }
      mapping.push(null);
    }
  }
  return { steps, mapping, deviations };
}

export function zeroCounts(): DeviationCounts {
  return { omission: 0, redundancy: 0, skipping: 0, reversal: 0 };
}

/** Counts of a list of applied deviations. */
export function countDeviations(deviations: readonly Deviation[]): DeviationCounts {
  const out = zeroCounts();
  for (const d of deviations) out[d.type]++;
  return out;
}

/**
 * The deviations a mapping shows, by the module's definitions, for any mapping (a generated
 * one, or one read off a judge's alignment):
 * - redundancy = predicted steps mapped to null, plus every occurrence of a reference step
 *   after its first (a repeat);
 * - the reference steps that never occur form maximal runs of consecutive indices: a run of one
 *   is an omission, a longer run a skipping;
 * - reversal = descents (a step followed by an earlier reference step) in the sequence of first
 *   occurrences. For disjoint adjacent swaps this is the number of swaps; for a general
 *   misordering it counts the points where the order goes back.
 */
export function deviationsOf(mapping: readonly (number | null)[], m: number): DeviationCounts {
  if (!Number.isInteger(m) || m < 0) throw new RangeError(`deviationsOf: the reference length must be a non-negative integer, got ${m}`);
  const out = zeroCounts();
  const seen = new Array<boolean>(m).fill(false);
  const firsts: number[] = [];
  mapping.forEach((r, j) => {
    if (r === null) {
      out.redundancy++;
      return;
    }
    if (!Number.isInteger(r) || r < 0 || r >= m) {
      throw new RangeError(
        `deviationsOf: predicted step ${j + 1} maps to ${r}, which is not a reference step index in 0..${m - 1}; fix the mapping`,
      );
    }
    if (seen[r]) out.redundancy++;
    else {
      seen[r] = true;
      firsts.push(r);
    }
  });
  for (let k = 0; k < m;) {
    if (seen[k]) {
      k++;
      continue;
    }
    let end = k;
    while (end + 1 < m && !seen[end + 1]) end++;
    if (end === k) out.omission++;
    else out.skipping++;
    k = end + 1;
  }
  for (let p = 0; p + 1 < firsts.length; p++) if (firsts[p]! > firsts[p + 1]!) out.reversal++;
  return out;
}
