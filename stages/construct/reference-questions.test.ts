import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { asYesNoQuestion, referenceQuestions } from './reference-questions.ts';
import { enumeratePaths } from './paths.ts';
import type { ReasoningTree } from './types.ts';

describe('asYesNoQuestion', () => {
  test('a question is kept, with whitespace collapsed', () => {
    assert.equal(asYesNoQuestion('Is systolic BP  >= 140\nmmHg?'), 'Is systolic BP >= 140 mmHg?');
    assert.equal(asYesNoQuestion(' 患者是否妊娠？ '), '患者是否妊娠？');
    assert.equal(asYesNoQuestion('HbA1c >= 6.5%?'), 'HbA1c >= 6.5%?');
  });
  test('an English statement starting with an auxiliary gets a question mark', () => {
    assert.equal(asYesNoQuestion('Does the patient have a fever.'), 'Does the patient have a fever?');
    assert.equal(asYesNoQuestion('Has chest pain lasted over 20 minutes'), 'Has chest pain lasted over 20 minutes?');
  });
  test('another English statement becomes "Is it true that …?"', () => {
    assert.equal(asYesNoQuestion('Patient age is 65 years or older.'), 'Is it true that patient age is 65 years or older?');
    assert.equal(asYesNoQuestion('HbA1c >= 6.5%'), 'Is it true that HbA1c >= 6.5%?');
    assert.equal(asYesNoQuestion('CT shows a haemorrhage;'), 'Is it true that CT shows a haemorrhage?');
  });
  test('a Chinese statement gets 吗？ unless it already reads as a question', () => {
    assert.equal(asYesNoQuestion('患者妊娠。'), '患者妊娠吗？');
    assert.equal(asYesNoQuestion('患者收缩压≥140 mmHg'), '患者收缩压≥140 mmHg吗？');
    assert.equal(asYesNoQuestion('患者是否存在发热'), '患者是否存在发热？');
    assert.equal(asYesNoQuestion('有无胸痛呢'), '有无胸痛呢？');
  });
  test('an empty description is an error', () => {
    assert.throws(() => asYesNoQuestion('  '), /description is empty/);
  });
});

describe('referenceQuestions', () => {
  const tree: ReasoningTree = {
    primary_clinical_focus: 'diagnosis',
    decision_tree: {
      index: 1,
      description: 'Is fever present?',
      yes: {
        index: 2,
        description: 'Cough lasting more than 3 weeks',
        yes: { index: 4, leaf: true, conclusion: 'Test for TB' },
        no: { index: 5, leaf: true, conclusion: 'Viral' },
      },
      no: { index: 3, leaf: true, conclusion: 'No work-up' },
    },
    node_guideline_mapping: {},
  };
  const { cdps } = enumeratePaths(tree, { guideline_id: 'g', language: 'en', split: 'test' });

  test('one question per decision step, in path order, without the conclusion', () => {
    assert.deepEqual(referenceQuestions(cdps[0]!), ['Is fever present?', 'Is it true that cough lasting more than 3 weeks?']);
    assert.deepEqual(referenceQuestions(cdps[2]!), ['Is fever present?']);
    assert.ok(cdps.every((c) => referenceQuestions(c).length === c.length));
  });

  test('an empty condition names the step, node and CDP', () => {
    const bad = { cdp_id: 'g-abc', steps: [{ node_index: 7, condition: '', decision_outcome: 'yes' as const, evidence: [] }] };
    assert.throws(() => referenceQuestions(bad), /step 1 \(node 7\) of CDP g-abc has an empty condition/);
  });
});
