import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inverseDocumentFrequency, tfidfCosine, tfidfMatrix } from './similarity-tfidf.ts';
import { countBag } from './tokenise.ts';

const close = (a: number, b: number, msg?: string) => assert.ok(Math.abs(a - b) < 1e-12, `${msg ?? ''} ${a} vs ${b}`);

test('smoothed idf: ln((1 + N)/(1 + df)) + 1', () => {
  const idf = inverseDocumentFrequency([countBag(['a', 'b']), countBag(['a']), countBag(['c', 'c'])]);
  close(idf.get('a')!, Math.log(4 / 3) + 1);
  close(idf.get('b')!, Math.log(4 / 2) + 1);
  close(idf.get('c')!, Math.log(4 / 2) + 1, 'df counts documents, not occurrences');
});

test('hand-computed 2 × 2 case, IDF over all four steps', () => {
  // Documents: {fever, cough}, {rash}, {fever}, {rash: 2}; N = 4, df(fever) = df(rash) = 2, df(cough) = 1.
  const C = tfidfMatrix(['fever cough', 'rash'], ['fever', 'rash rash']);
  const f = Math.log(5 / 3) + 1; // 1.5108256237659907
  const c = Math.log(5 / 2) + 1; // 1.916290731874155
  // (R1, C1): (f, c)·(f, 0) / (‖(f, c)‖ · f) = f/√(f² + c²) ≈ 0.619130.
  close(C[0], f / Math.sqrt(f * f + c * c));
  close(C[0], 0.6191302964899972, 'numeric value (Python: f/math.sqrt(f*f+c*c))');
  assert.equal(C[1], 0);
  assert.equal(C[2], 0);
  close(C[3], 1, 'rash vs rash rash: same direction');
});

test('the corpus matters: a word in every step still counts, a rare shared word counts more', () => {
  close(tfidfMatrix(['fever'], ['fever'])[0], 1);
  // Same pair, two corpora: when "patient" is in every document it weighs less than "fever".
  const a = 'patient fever';
  const b = 'patient rash';
  const small = tfidfCosine(a, b, [a, b]);
  const big = tfidfCosine(a, b, [a, b, 'patient cough', 'patient headache']);
  // Small corpus: idf(patient) = 1, idf(fever) = idf(rash) = ln(3/2) + 1 = w; cos = 1/(1 + w²).
  const w = Math.log(3 / 2) + 1;
  close(small, 1 / (1 + w * w));
  const w2 = Math.log(5 / 2) + 1;
  close(big, 1 / (1 + w2 * w2));
  assert.ok(big < small, 'big < small');
});

test('empty steps and stop-word-only steps score 0', () => {
  assert.deepEqual(Array.from(tfidfMatrix(['', 'the of'], ['fever'])), [0, 0]);
});
