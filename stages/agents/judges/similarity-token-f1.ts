/**
 * Token-overlap F1 between two steps (the SQuAD-style answer F1), on the tokens of tokenise.ts.
 * Tokens are a multiset: overlap = Σ_t min(count_a(t), count_b(t)); precision = overlap/|b|,
 * recall = overlap/|a|, F1 = 2PR/(P+R) = 2·overlap/(|a|+|b|). Symmetric, in [0, 1], 1 exactly
 * when the two bags are equal. A step with no tokens (empty, or only stop words) scores 0
 * against everything, itself included: there is no evidence that it matches.
 */
import { countBag, tokenise, type TokeniseOptions } from './tokenise.ts';

export function tokenF1(a: string, b: string, options: TokeniseOptions = {}): number {
  return tokenF1Bags(countBag(tokenise(a, options)), countBag(tokenise(b, options)));
}

export function tokenF1Bags(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let sizeA = 0;
  let sizeB = 0;
  let overlap = 0;
  for (const c of a.values()) sizeA += c;
  for (const c of b.values()) sizeB += c;
  if (sizeA === 0 || sizeB === 0) return 0;
  for (const [t, c] of a) overlap += Math.min(c, b.get(t) ?? 0);
  return (2 * overlap) / (sizeA + sizeB);
}

/** m×n row-major F1 of every reference step against every candidate step. */
export function tokenF1Matrix(reference: readonly string[], candidate: readonly string[], options: TokeniseOptions = {}): Float64Array {
  const ra = reference.map((s) => countBag(tokenise(s, options)));
  const cb = candidate.map((s) => countBag(tokenise(s, options)));
  const out = new Float64Array(reference.length * candidate.length);
  for (let i = 0; i < ra.length; i++) for (let j = 0; j < cb.length; j++) out[i * cb.length + j] = tokenF1Bags(ra[i], cb[j]);
  return out;
}
