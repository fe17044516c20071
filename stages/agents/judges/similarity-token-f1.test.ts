import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenF1, tokenF1Matrix } from './similarity-token-f1.ts';

test('hand-computed F1 = 2·overlap / (|a| + |b|)', () => {
  // [fever, above, 38, degrees] vs [fever, below, 38, degrees]: overlap 3 → 6/8.
  assert.equal(tokenF1('Fever above 38 degrees', 'fever below 38 degrees'), 0.75);
  // Multisets: {cough:2, fever:1} vs {cough:1, fever:2}: overlap 1 + 1 = 2 → 4/6.
  assert.equal(tokenF1('cough cough fever', 'cough fever fever'), 4 / 6);
  // Chinese per character: 发热三天 vs 高热三天 share 热, 三, 天 → 6/8.
  assert.equal(tokenF1('发热三天', '高热三天'), 0.75);
  // Thresholds: [≥, 38] vs [<, 38] → 2/4.
  assert.equal(tokenF1('≥ 38', '< 38'), 0.5);
  // Unequal lengths: [rash] vs [rash, arms] ("on" dropped) → 2/3.
  assert.equal(tokenF1('rash', 'rash on arms'), 2 / 3);
});

test('stop words: dropped by default, kept on request', () => {
  assert.equal(tokenF1('Is the patient febrile?', 'Patient febrile'), 1);
  // [is, the, patient, febrile] vs [patient, febrile] → 4/6.
  assert.equal(tokenF1('Is the patient febrile?', 'Patient febrile', { stopWords: null }), 4 / 6);
});

test('identity, symmetry, disjointness, empty sides', () => {
  assert.equal(tokenF1('Start amoxicillin 500 mg', 'start AMOXICILLIN 500 mg'), 1);
  assert.equal(tokenF1('ＣＴ', 'ct'), 1);
  assert.equal(tokenF1('fever', 'rash'), 0);
  assert.equal(tokenF1('a b c fever', 'fever x'), tokenF1('fever x', 'a b c fever'));
  assert.equal(tokenF1('', 'fever'), 0);
  assert.equal(tokenF1('the', 'the'), 0, 'only stop words: no evidence, 0 even against itself');
});

test('the matrix is row-major reference × candidate', () => {
  const C = tokenF1Matrix(['fever above 38 degrees', 'rash'], ['fever below 38 degrees', 'rash on arms', 'headache']);
  assert.deepEqual(Array.from(C), [0.75, 0, 0, 0, 2 / 3, 0]);
});
