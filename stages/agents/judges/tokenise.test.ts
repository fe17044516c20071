import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countBag, DEFAULT_STOP_WORDS, tokenise } from './tokenise.ts';

test('Latin words are lower-cased; punctuation separates', () => {
  assert.deepEqual(tokenise('Does the Patient have FEVER, rash?'), ['patient', 'fever', 'rash']);
  assert.deepEqual(tokenise('Does the Patient have FEVER, rash?', { stopWords: null }), [
    'does',
    'the',
    'patient',
    'have',
    'fever',
    'rash',
  ]);
});

test('CJK one token per character; Latin runs next to Han stay apart', () => {
  assert.deepEqual(tokenise('发热三天'), ['发', '热', '三', '天']);
  assert.deepEqual(tokenise('CT检查阴性'), ['ct', '检', '查', '阴', '性']);
  assert.deepEqual(tokenise('患者的体温'), ['患', '者', '体', '温'], '的 is a stop word');
  assert.deepEqual(tokenise('カタカナ'), ['カ', 'タ', 'カ', 'ナ']);
});

test('numbers keep their decimals and leave their units; thresholds keep their signs', () => {
  assert.deepEqual(tokenise('Temperature ≥ 38.5 °C for 5mg'), ['temperature', '≥', '38.5', 'c', '5', 'mg']);
  assert.deepEqual(tokenise('HbA1c < 7%'), ['hba1c', '<', '7', '%']);
  assert.deepEqual(tokenise('1,000 cells'), ['1,000', 'cells']);
});

test('NFKC folds full-width forms; Greek, Cyrillic and Hangul are words', () => {
  assert.deepEqual(tokenise('ＣＴ　３８'), ['ct', '38']);
  assert.deepEqual(tokenise('β-blocker Лечение 발열'), ['β', 'blocker', 'лечение', '발열']);
});

test('negations are not stop words', () => {
  for (const w of ['no', 'not', 'without', '不', '无', '未']) assert.ok(!DEFAULT_STOP_WORDS.has(w), w);
  assert.deepEqual(tokenise('No fever; not febrile; 无发热'), ['no', 'fever', 'not', 'febrile', '无', '发', '热']);
});

test('a custom stop list replaces the default', () => {
  assert.deepEqual(tokenise('the fever and cough', { stopWords: new Set(['fever']) }), ['the', 'and', 'cough']);
});

test('countBag counts repeats', () => {
  assert.deepEqual(
    [...countBag(['a', 'b', 'a'])],
    [
      ['a', 2],
      ['b', 1],
    ],
  );
});
