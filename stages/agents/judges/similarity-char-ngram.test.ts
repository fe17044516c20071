import { test } from 'node:test';
import assert from 'node:assert/strict';
import { charNgramCosine, charNgramMatrix, charNgrams } from './similarity-char-ngram.ts';

const close = (a: number, b: number, msg?: string) => assert.ok(Math.abs(a - b) < 1e-15, `${msg ?? ''} ${a} vs ${b}`);

test('hand-computed trigram cosines', () => {
  // {abc, bcd} · {bcd, cde} = 1; norms √2 · √2.
  close(charNgramCosine('abcd', 'bcde'), 0.5);
  // {abc, bca, cab} vs {abc}: 1/√3.
  close(charNgramCosine('abcab', 'abc'), 1 / Math.sqrt(3));
  // Counts, not sets: {aaa: 2} vs {aaa: 1} point the same way.
  close(charNgramCosine('aaaa', 'aaa'), 1);
  // {发热三, 热三天} vs {发热三, 热三天, 三天半}: 2/(√2·√3).
  close(charNgramCosine('发热三天', '发热三天半'), 2 / Math.sqrt(6));
  assert.equal(charNgramCosine('发热三天', '发热两天'), 0);
});

test('grams are taken after NFKC, lower case and whitespace folding, over code points', () => {
  assert.deepEqual(
    [...charNgrams('Fe  VER\n')],
    [
      ['fe ', 1],
      ['e v', 1],
      [' ve', 1],
      ['ver', 1],
    ],
  );
  // Surrogate pairs are one character each: two emoji are shorter than n = 3, so one gram.
  assert.deepEqual([...charNgrams('😀😀')], [['😀😀', 1]]);
  assert.deepEqual([...charNgrams('😀😀😀')], [['😀😀😀', 1]]);
  close(charNgramCosine('ＣＴ', 'ct'), 1);
});

test('n is a parameter; short texts are one gram; empty scores 0', () => {
  close(charNgramCosine('abcd', 'bcde', 2), 2 / 3); // {ab, bc, cd} vs {bc, cd, de}
  assert.equal(charNgramCosine('CT', 'ct'), 1);
  assert.equal(charNgramCosine('CT', 'CT scan'), 0);
  assert.equal(charNgramCosine('', ''), 0);
  assert.throws(() => charNgrams('abc', 0), /n = 0/);
});

test('the matrix is row-major and in [0, 1], exactly 1 on identical steps', () => {
  const ref = ['Hypertension stage 2', '高血压'];
  const cand = ['hypertensive crisis', '高血压', 'Hypertension stage 2'];
  const C = charNgramMatrix(ref, cand);
  assert.equal(C.length, 6);
  for (const v of C) assert.ok(v >= 0 && v <= 1, 'v >= 0 && v <= 1');
  assert.equal(C[2], 1);
  assert.equal(C[4], 1);
  close(C[0], charNgramCosine(ref[0], cand[0]));
  assert.ok(C[0] > 0, 'shared stem "hypertens" gives overlap');
});
