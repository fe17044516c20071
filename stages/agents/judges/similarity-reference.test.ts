/**
 * The three similarity functions against values from an independent Python implementation
 * (fixtures/similarity_reference.py, standard library only; its output is committed as
 * fixtures/similarity-reference.json, so no Python is needed here).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { charNgramCosine } from './similarity-char-ngram.ts';
import { tfidfMatrix } from './similarity-tfidf.ts';
import { tokenF1 } from './similarity-token-f1.ts';
import { tokenise } from './tokenise.ts';

interface Fixture {
  pairs: Array<{ a: string; b: string; tokens_a: string[]; tokens_b: string[]; token_f1: number; char3: number }>;
  pathways: Array<{ reference: string[]; candidate: string[]; tfidf: number[] }>;
}
const fixture = JSON.parse(readFileSync(new URL('./fixtures/similarity-reference.json', import.meta.url), 'utf8')) as Fixture;
const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-12, `${what}: ${a} vs Python ${b}`);

test('tokens match the Python scanner on English, Chinese, German, full-width and threshold text', () => {
  assert.equal(fixture.pairs.length, 12);
  for (const p of fixture.pairs) {
    assert.deepEqual(tokenise(p.a), p.tokens_a, p.a);
    assert.deepEqual(tokenise(p.b), p.tokens_b, p.b);
  }
});

test('token F1 and character-trigram cosine match Python', () => {
  for (const p of fixture.pairs) {
    near(tokenF1(p.a, p.b), p.token_f1, `token F1 of ${p.a} / ${p.b}`);
    near(charNgramCosine(p.a, p.b), p.char3, `char3 of ${p.a} / ${p.b}`);
  }
  assert.ok(
    fixture.pairs.some((p) => p.token_f1 > 0 && p.token_f1 < 1),
    'the fixture has partial overlaps',
  );
});

test('prompt-local TF-IDF matrices match Python', () => {
  for (const p of fixture.pathways) {
    const C = tfidfMatrix(p.reference, p.candidate);
    assert.equal(C.length, p.tfidf.length);
    C.forEach((v, k) => near(v, p.tfidf[k], `tfidf[${k}] of ${p.reference[0]}`));
  }
});
