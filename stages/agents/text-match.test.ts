import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { clausesOf, contentTokens, coverage, dice, isNegated, normaliseQuestion, stemEn } from './text-match.ts';

describe('text matching', () => {
  test('content tokens drop scaffolding and stem', () => {
    assert.deepEqual(contentTokens('Does the patient have diabetes?'), ['diabet']);
    assert.deepEqual(contentTokens('Is it true that she is breastfeeding?'), ['breast']);
    assert.deepEqual(contentTokens("Is the patient's BMI ≥ 27.5 kg/m²?"), ['bmi', '27.5', 'kg', 'm2']);
    assert.deepEqual(contentTokens('Is there no end-organ damage?'), ['end', 'organ', 'damage']);
    assert.deepEqual(contentTokens('患者是否存在谵妄？'), ['谵妄']);
    assert.deepEqual(contentTokens('是否存在日间功能损害？'), ['日间', '间功', '功能', '能损', '损害']);
    assert.deepEqual(['diabetes', 'diabetic', 'NSAIDs', 'class'].map(stemEn), ['diabet', 'diabet', 'nsaid', 'class']);
  });

  test('negation parity, with Chinese question words excluded', () => {
    assert.equal(isNegated('The patient did not have diabetes.'), true);
    assert.equal(isNegated("The patient doesn't smoke."), true);
    assert.equal(isNegated('Rectal bleeding was not absent.'), false);
    assert.equal(isNegated('是否存在谵妄？'), false);
    assert.equal(isNegated('有无发热？'), false);
    assert.equal(isNegated('患者无发热。'), true);
    assert.equal(isNegated('患者未出现注意力不集中。'), false);
  });

  test('clauses split at sentence ends (not decimals) and before "but"', () => {
    assert.deepEqual(clausesOf('BMI was 27.5 kg/m². The patient had diabetes but did not have CKD; 无发热。'), [
      'BMI was 27.5 kg/m².',
      'The patient had diabetes',
      'but did not have CKD;',
      '无发热。',
    ]);
  });

  test('coverage, Dice and question normalisation', () => {
    assert.equal(coverage(['a', 'b', 'c'], ['b', 'c', 'd']), 2 / 3);
    assert.equal(coverage([], ['a']), 0);
    assert.equal(dice(['a', 'b'], ['b', 'c', 'd']), 2 / 5);
    assert.equal(normaliseQuestion('  Is BMI  ≥ 30?? '), 'is bmi ≥ 30');
  });
});
