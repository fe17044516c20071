/**
 * The test / non-test split is drawn over guidelines, not paths, so no guideline's pathways
 * leak between the two (paper §4.1: 440 test guidelines, 210 zh + 230 en, of 2,274).
 *
 * Rule: a guideline is test when its split score u = sha256("<seed>\0<guideline_id>"), first 52
 * bits read as an integer and divided by 2^52 (so u is in [0, 1)), is below testFraction.
 * The decision reads nothing but the guideline's own id, so adding or removing other guidelines
 * (or a guideline whose PDF or tree failed) never moves a guideline between the splits, and a
 * benchmark keeps its test cases as it grows. Raising testFraction only adds test guidelines.
 *
 * Why the paper's exact counts (440 of 2,274; 210 zh + 230 en) are now only expected: stability
 * makes each guideline's split a property of that guideline alone, so a large enough set made
 * only of test guidelines has all of them test, not round(fraction × count): for 0 < fraction < 1
 * no rule is both stable and exact. The score ignores the language, so each language gets its
 * share in expectation (stratified in expectation): with the paper's fraction, 1,085 zh
 * guidelines give 210 ± 13 (one standard deviation) test guidelines and 1,189 en give 230 ± 14.
 * Whoever needs exact lists pins them: `testIds` (exactly these are test) or pins (a
 * `guideline_id,split` file read by split-pins.ts) for chosen guidelines, the rest by score.
 *
 * sha256 rather than a faster hash because anyone can recompute a split with standard tools:
 *   printf '156\0nhc-2020-insomnia' | sha256sum   → 13f67577d116c… ; 0x13f67577d116c / 16^13 = 0.078
 */
import { createHash } from 'node:crypto';

export type Split = 'test' | 'non-test';

export interface SplitOptions {
  /** Probability that a guideline is test (the expected share of each language), in [0, 1]. */
  testFraction: number;
  /** Integer seed: a different seed is an independent draw. */
  seed: number;
  /** An explicit test list; overrides the rule. Every id must be among the guidelines. */
  testIds?: readonly string[];
  /**
   * Per-guideline pins (e.g. from a pin file); the other guidelines follow the rule. Pins of ids
   * that are not among the guidelines are ignored, so one pin file can serve a benchmark and its
   * subsets; the caller reports them (unusedPins).
   */
  pins?: ReadonlyMap<string, Split>;
}

/** The guideline's split score in [0, 1) under `seed`: 52 bits of sha256, exact in a double. */
export function splitScore(guidelineId: string, seed: number): number {
  const hex = createHash('sha256').update(`${seed}\u0000${guidelineId}`, 'utf8').digest('hex');
  return parseInt(hex.slice(0, 13), 16) / 2 ** 52;
}

function checkRule(testFraction: number, seed: number): void {
  if (!(testFraction >= 0 && testFraction <= 1)) {
    throw new RangeError(`splitGuidelines: testFraction must be in [0, 1], got ${testFraction}; the paper's is 440/2274`);
  }
  if (!Number.isSafeInteger(seed)) throw new RangeError(`splitGuidelines: seed must be an integer, got ${seed}`);
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const quoted = (ids: readonly string[]) =>
  ids
    .slice(0, 5)
    .map((s) => JSON.stringify(s))
    .join(', ') + (ids.length > 5 ? ` and ${ids.length - 5} more` : '');

/** Every guideline's split, keyed by id in code-unit order (independent of input order and locale). */
export function splitGuidelines(guidelines: readonly { guideline_id: string }[], options: SplitOptions): Map<string, Split> {
  const { testFraction, seed, testIds, pins } = options;
  const seen = new Set<string>();
  for (const { guideline_id: id } of guidelines) {
    if (seen.has(id)) throw new Error(`splitGuidelines: guideline id ${JSON.stringify(id)} appears more than once; ids must be unique`);
    seen.add(id);
  }
  if (testIds !== undefined && pins !== undefined && pins.size > 0) {
    throw new Error(
      'splitGuidelines: both testIds and split pins were given; use one of them ' +
        '(testIds fixes the whole split, pins fix single guidelines)',
    );
  }
  const sortedIds = [...seen].sort(byCodeUnit);
  const result = new Map<string, Split>();

  if (testIds !== undefined) {
    const unknown = testIds.filter((id) => !seen.has(id));
    if (unknown.length > 0) {
      throw new Error(
        `splitGuidelines: test ids ${quoted(unknown)} are not among the guidelines; remove them from the list or add the guidelines`,
      );
    }
    const test = new Set(testIds);
    for (const id of sortedIds) result.set(id, test.has(id) ? 'test' : 'non-test');
    return result;
  }

  checkRule(testFraction, seed);
  for (const id of sortedIds) result.set(id, pins?.get(id) ?? (splitScore(id, seed) < testFraction ? 'test' : 'non-test'));
  return result;
}

/** Pinned ids that are not among the guidelines (sorted), for the caller to report. */
export function unusedPins(guidelines: readonly { guideline_id: string }[], pins: ReadonlyMap<string, Split>): string[] {
  const ids = new Set(guidelines.map((g) => g.guideline_id));
  return [...pins.keys()].filter((id) => !ids.has(id)).sort(byCodeUnit);
}
