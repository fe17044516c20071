/**
 * Character n-gram cosine (n = 3 by default) between two steps. Text is NFKC-folded,
 * lower-cased, its whitespace runs collapsed to one space and trimmed; punctuation is kept
 * (it is part of the surface form this judge compares). Grams are taken over code points, with
 * no padding: "fever" has the trigrams "fev", "eve", "ver". A text shorter than n (but not
 * empty) is one gram, itself, so "CT" still matches "ct". Vectors are gram counts; the cosine
 * is dot/(‖a‖‖b‖) in [0, 1]; an empty text scores 0 against everything.
 *
 * Unlike the word judges this one needs no tokeniser, so it treats Chinese and English alike
 * and rewards shared stems ("hypertension" / "hypertensive").
 */

export const DEFAULT_NGRAM = 3;

export function normaliseForGrams(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function charNgrams(text: string, n = DEFAULT_NGRAM): Map<string, number> {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`character n-gram size n = ${n} must be an integer ≥ 1`);
  const cps = Array.from(normaliseForGrams(text));
  const grams = new Map<string, number>();
  if (cps.length === 0) return grams;
  if (cps.length < n) {
    grams.set(cps.join(''), 1);
    return grams;
  }
  for (let k = 0; k + n <= cps.length; k++) {
    let g = cps[k];
    for (let d = 1; d < n; d++) g += cps[k + d];
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  return grams;
}

/** Cosine of two count vectors held as maps. */
export function cosineOfCounts(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [g, c] of a) {
    na += c * c;
    const d = b.get(g);
    if (d !== undefined) dot += c * d;
  }
  for (const c of b.values()) nb += c * c;
  if (na === 0 || nb === 0) return 0;
  // Clamp: rounding can push the cosine of identical vectors a hair above 1.
  return Math.min(1, dot / Math.sqrt(na * nb));
}

export function charNgramCosine(a: string, b: string, n = DEFAULT_NGRAM): number {
  return cosineOfCounts(charNgrams(a, n), charNgrams(b, n));
}

export function charNgramMatrix(reference: readonly string[], candidate: readonly string[], n = DEFAULT_NGRAM): Float64Array {
  const ra = reference.map((s) => charNgrams(s, n));
  const cb = candidate.map((s) => charNgrams(s, n));
  const out = new Float64Array(reference.length * candidate.length);
  for (let i = 0; i < ra.length; i++) for (let j = 0; j < cb.length; j++) out[i * cb.length + j] = cosineOfCounts(ra[i], cb[j]);
  return out;
}
