import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createEvidenceMatcher, normaliseForMatch } from './evidence.ts';

describe('normaliseForMatch', () => {
  test('folds whitespace runs and trims', () => {
    assert.equal(normaliseForMatch('  Aspirin\n\tis   recommended. '), 'aspirin is recommended.');
  });
  test('removes emphasis, code, heading, blockquote and bullet markers', () => {
    assert.equal(
      normaliseForMatch('## Treatment\n> **Aspirin** is _recommended_ for `adults`.'),
      'treatment aspirin is recommended for adults.',
    );
    assert.equal(normaliseForMatch('- Give aspirin.\n* Give heparin.\n+ Rest.'), 'give aspirin. give heparin. rest.');
  });
  test('keeps # and - that are not line-start markers', () => {
    assert.equal(normaliseForMatch('grade #2 and 5-10 mg'), 'grade #2and 5-10mg');
  });
  test('folds curly quotes to straight ones', () => {
    assert.equal(normaliseForMatch('the patient\u2019s \u201cred flag\u201d signs'), 'the patient\'s "red flag" signs');
  });
  test('folds every dash and minus to a hyphen, and runs of hyphens to one', () => {
    assert.equal(normaliseForMatch('5\u201310 mg \u2014 or \u22121 -- x'), '5-10mg - or -1 - x');
  });
  test('folds full-width punctuation and letters to half-width', () => {
    assert.equal(normaliseForMatch('血压（ＢＰ）≥１４０：建议治疗；'), '血压(bp)≥140:建议治疗;');
    assert.equal(normaliseForMatch('建议治疗。合并糖尿病、高血压'), '建议治疗.合并糖尿病,高血压');
    assert.equal(normaliseForMatch('「推荐」'), '"推荐"');
  });
  test('folds Latin case', () => {
    assert.equal(normaliseForMatch('HbA1c Should Be Measured'), 'hba1c should be measured');
  });
  test('removes whitespace next to CJK text, where OCR breaks Chinese lines', () => {
    assert.equal(normaliseForMatch('患者 应\n接受 CT 检查'), '患者应接受ct检查');
  });
  test('removes citation markers and the spaces they leave before punctuation', () => {
    assert.equal(normaliseForMatch('Statins are recommended [12, 13].'), 'statins are recommended.');
    assert.equal(normaliseForMatch('Statins are recommended<sup>12</sup>.'), 'statins are recommended.');
    assert.equal(normaliseForMatch('Statins are recommended $^{4-6}$ .'), 'statins are recommended.');
  });
  test('a space between a number and a following unit or word is dropped', () => {
    assert.equal(normaliseForMatch('140 mmHg'), normaliseForMatch('140mmHg'));
    assert.equal(normaliseForMatch('140 mmHg'), '140mmhg');
    assert.notEqual(normaliseForMatch('1 40 mmHg'), normaliseForMatch('140 mmHg'));
  });
  test('links become their text and HTML line breaks become spaces', () => {
    assert.equal(normaliseForMatch('see [the table](http://x.org/t)<br>now'), 'see the table now');
  });
  test('drops zero-width characters and soft hyphens', () => {
    assert.equal(normaliseForMatch('treat\u00adment\u200b now'), 'treatment now');
  });
  test('is idempotent on a mixed sample', () => {
    const s = '## **Dose**: 5\u201310 mg/kg (see [12]) \u2014 “twice” daily。患者 应 治疗';
    assert.equal(normaliseForMatch(normaliseForMatch(s)), normaliseForMatch(s));
  });
});

describe('createEvidenceMatcher', () => {
  const markdown = [
    '# 2. Management',
    '',
    'In adults with **confirmed** hypertension, a thiazide diuretic is recommended as first\u2013line',
    'therapy [7]. Blood pressure should be re\u2011measured after 4 weeks.',
    '',
    '| col | col |',
    '患者 收缩压≥140 mmHg 时，',
    '应开始药物治疗。',
  ].join('\n');
  const m = createEvidenceMatcher(markdown);

  test('finds a quote across a line break, emphasis, a citation and a different dash', () => {
    assert.equal(m.contains('In adults with confirmed hypertension, a thiazide diuretic is recommended as first-line therapy.'), true);
    assert.equal(m.contains('Blood pressure should be re-measured after 4 weeks.'), true);
  });
  test('finds a Chinese quote broken over lines with full-width punctuation', () => {
    assert.equal(m.contains('患者收缩压≥140mmHg时,应开始药物治疗.'), true);
    assert.equal(m.contains('患者收缩压≥140 mmHg时，应开始药物治疗。'), true);
  });
  test('rejects reworded, truncated-in-the-middle or invented quotes', () => {
    assert.equal(m.contains('In adults with hypertension, a thiazide diuretic is recommended.'), false);
    assert.equal(m.contains('Blood pressure should be measured after 6 weeks.'), false);
    assert.equal(m.contains('ACE inhibitors are contraindicated in pregnancy.'), false);
  });
  test('an empty or whitespace-only quote never matches', () => {
    assert.equal(m.contains(''), false);
    assert.equal(m.contains('  \n '), false);
    assert.equal(m.contains('**'), false);
  });
});
