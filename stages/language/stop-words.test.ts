import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CHINESE_STOP_WORDS,
  ENGLISH_QUESTION_AUXILIARIES,
  ENGLISH_STOP_WORDS,
  INDICATOR_EXTRA_STOP_WORDS,
  JUDGE_EXTRA_STOP_WORDS,
} from './stop-words.ts';
import { DEFAULT_STOP_WORDS, tokenise } from '../agents/judges/tokenise.ts';
import { indicatorWordsEn } from '../construct/numeric-threshold.ts';
import { asYesNoQuestion } from '../construct/reference-questions.ts';

test("the judges' tokens drop the English list, their extras and the Chinese particles, and keep negations and modals", () => {
  assert.deepEqual(new Set(DEFAULT_STOP_WORDS), new Set([...ENGLISH_STOP_WORDS, ...JUDGE_EXTRA_STOP_WORDS, ...CHINESE_STOP_WORDS]));
  // does, the, have, a, be, in: the English list; which, as, these: the judges' extras.
  assert.deepEqual(tokenise('Does the patient have a fever which should not be ignored, as in these cases?'), [
    'patient',
    'fever',
    'should',
    'not',
    'ignored',
    'cases',
  ]);
  // 是, 的, 吗 dropped; 否 (of 是否) kept as a character of its own.
  assert.deepEqual(tokenise('患者是否有发热的症状吗'), ['患', '者', '否', '有', '发', '热', '症', '状']);
});

test('indicator words drop the English list and the words of measuring, and keep what the judges drop', () => {
  // is, the: the English list; patient's, total, level, still, measured: the indicator extras; "as" stays.
  assert.deepEqual(indicatorWordsEn("Is the patient's total cholesterol level still above 5 mmol/L, as measured?"), [
    'cholesterol',
    'above',
    '5',
    'mmol',
    'l',
    'as',
  ]);
  assert.deepEqual(indicatorWordsEn('Which of these drugs should the patient take?'), ['which', 'these', 'drug', 'take']);
});

test('a description opening with an auxiliary or a modal is already a question; "been" is not an opener', () => {
  assert.equal(asYesNoQuestion('May the patient drive'), 'May the patient drive?');
  assert.equal(asYesNoQuestion('Am I eligible'), 'Am I eligible?');
  assert.equal(asYesNoQuestion('Been vaccinated'), 'Is it true that been vaccinated?');
  assert.ok(ENGLISH_QUESTION_AUXILIARIES.includes('shall') && !ENGLISH_STOP_WORDS.includes('shall'));
});

test('no negation is a stop word, and no word is both in a base list and in an extra list', () => {
  const lists = [ENGLISH_STOP_WORDS, CHINESE_STOP_WORDS, JUDGE_EXTRA_STOP_WORDS, INDICATOR_EXTRA_STOP_WORDS];
  for (const negation of ['no', 'not', 'without', 'never', 'none', '不', '无', '未', '没'])
    assert.ok(!lists.some((l) => l.includes(negation)), negation);
  const all = lists.flat();
  assert.equal(new Set(all).size, all.length);
});
