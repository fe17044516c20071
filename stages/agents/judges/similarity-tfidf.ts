/**
 * TF-IDF cosine between steps, with the IDF computed over the documents of one prompt: every
 * reference step and every candidate step shown to the judge (m + n documents; for an outcome
 * prompt, the two conclusions). So a word that every step of both pathways repeats ("patient")
 * weighs little, and a word only one step and its counterpart share weighs much — a judge that
 * reads only the prompt can know no other corpus. When a long reference is split into blocks,
 * each block's prompt has its own corpus (its rows plus the whole candidate).
 *
 * Tokens from tokenise.ts (stop words dropped by default). tf = raw count in the step;
 * idf(t) = ln((1 + N) / (1 + df(t))) + 1 (the smoothed form, as in scikit-learn's default), which
 * stays positive for a term present in every document, so two identical steps still score 1.
 * Weights tf·idf, cosine in [0, 1]; a step with no tokens scores 0.
 */
import { cosineOfCounts } from './similarity-char-ngram.ts';
import { countBag, tokenise, type TokeniseOptions } from './tokenise.ts';

/** idf(t) over the given documents (token bags). */
export function inverseDocumentFrequency(docs: readonly ReadonlyMap<string, number>[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = new Map<string, number>();
  for (const [t, c] of df) idf.set(t, Math.log((1 + docs.length) / (1 + c)) + 1);
  return idf;
}

function weigh(bag: ReadonlyMap<string, number>, idf: ReadonlyMap<string, number>): Map<string, number> {
  const w = new Map<string, number>();
  for (const [t, c] of bag) w.set(t, c * (idf.get(t) ?? 0));
  return w;
}

/** m×n row-major TF-IDF cosines, the IDF taken over the m + n steps. */
export function tfidfMatrix(reference: readonly string[], candidate: readonly string[], options: TokeniseOptions = {}): Float64Array {
  const ra = reference.map((s) => countBag(tokenise(s, options)));
  const cb = candidate.map((s) => countBag(tokenise(s, options)));
  const idf = inverseDocumentFrequency([...ra, ...cb]);
  const rw = ra.map((b) => weigh(b, idf));
  const cw = cb.map((b) => weigh(b, idf));
  const out = new Float64Array(reference.length * candidate.length);
  for (let i = 0; i < rw.length; i++) for (let j = 0; j < cw.length; j++) out[i * cw.length + j] = cosineOfCounts(rw[i], cw[j]);
  return out;
}

/** The TF-IDF cosine of two texts with the IDF over `corpus` (which should contain both). */
export function tfidfCosine(a: string, b: string, corpus: readonly string[], options: TokeniseOptions = {}): number {
  const idf = inverseDocumentFrequency(corpus.map((s) => countBag(tokenise(s, options))));
  return cosineOfCounts(weigh(countBag(tokenise(a, options)), idf), weigh(countBag(tokenise(b, options)), idf));
}
