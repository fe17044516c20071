/**
 * The test / non-test split is drawn over guidelines, not paths, so no guideline's pathways
 * leak between the two (paper §4.1: 440 test guidelines, 210 zh + 230 en, of 2,274).
 *
 * Rule: within each language, the guidelines are sorted by id (code-unit order, independent
 * of locale) and round(testFraction × count) of them are drawn without replacement by a
 * partial Fisher–Yates shuffle driven by `createRng`. Rounding is half up, and products within
 * 1e-9 of a half count as halves so binary floating point cannot flip them (0.05 × 50 → 3).
 * Each language has its own stream, seeded from the seed and an FNV-1a hash of the language
 * code, so adding guidelines in one language never changes which are drawn in another.
 * The result depends only on the set of (id, language) pairs and the seed, not on input order.
 *
 * `testIds` overrides the draw: exactly those guidelines are test (the fraction and seed are
 * then ignored), e.g. to reuse a published test list.
 */
import { createRng } from '../stats/rng.ts';

export type Split = 'test' | 'non-test';

export interface SplitOptions {
  /** Share of each language's guidelines to put in the test split, in [0, 1]. */
  testFraction: number;
  /** Integer seed for the draw. */
  seed: number;
  /** An explicit test list; overrides the draw. Every id must be among the guidelines. */
  testIds?: readonly string[];
}

/** The number of test guidelines for a language with `count` guidelines. */
export function testCount(count: number, testFraction: number): number {
  const x = count * testFraction;
  return Math.min(count, Math.floor(x + 0.5 + 1e-9));
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h;
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function splitGuidelines(
  guidelines: readonly { guideline_id: string; language: string }[],
  options: SplitOptions,
): Map<string, Split> {
  const { testFraction, seed, testIds } = options;
  const ids = guidelines.map((g) => g.guideline_id);
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw new Error(`splitGuidelines: guideline id ${JSON.stringify(id)} appears more than once; ids must be unique`);
    seen.add(id);
  }

  const result = new Map<string, Split>();
  const sortedIds = [...ids].sort(byCodeUnit);

  if (testIds !== undefined) {
    const unknown = testIds.filter((id) => !seen.has(id));
    if (unknown.length > 0) {
      throw new Error(`splitGuidelines: test ids ${unknown.slice(0, 5).map((s) => JSON.stringify(s)).join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''} are not among the guidelines; remove them from the list or add the guidelines`);
    }
    const test = new Set(testIds);
    for (const id of sortedIds) result.set(id, test.has(id) ? 'test' : 'non-test');
    return result;
  }

  if (!(testFraction >= 0 && testFraction <= 1)) {
    throw new RangeError(`splitGuidelines: testFraction must be in [0, 1], got ${testFraction}`);
  }
  if (!Number.isSafeInteger(seed)) throw new RangeError(`splitGuidelines: seed must be an integer, got ${seed}`);

  const byLanguage = new Map<string, string[]>();
  for (const g of guidelines) {
    const list = byLanguage.get(g.language);
    if (list) list.push(g.guideline_id);
    else byLanguage.set(g.language, [g.guideline_id]);
  }

  const chosen = new Set<string>();
  for (const [language, members] of byLanguage) {
    members.sort(byCodeUnit);
    const k = testCount(members.length, testFraction);
    // Mix the seed's low and high words with the language so streams differ per language.
    const rng = createRng((Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.floor(seed / 4294967296) ^ fnv1a(language)) >>> 0);
    for (let i = 0; i < k; i++) {
      const j = i + rng.nextInt(members.length - i);
      const t = members[i]!;
      members[i] = members[j]!;
      members[j] = t;
      chosen.add(members[i]!);
    }
  }
  for (const id of sortedIds) result.set(id, chosen.has(id) ? 'test' : 'non-test');
  return result;
}
