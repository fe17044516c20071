import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { buildVocabulary, EMPTY_VOCABULARY, joinLine, joinLines, keepsHyphen } from './reflow.ts';

describe('hyphenated line breaks', () => {
  test('a plain word broken across lines is joined', () => {
    assert.equal(joinLine('the first line of treat-', 'ment was', EMPTY_VOCABULARY), 'the first line of treatment was');
  });
  test('an uppercase continuation keeps the hyphen (non-Hispanic)', () => {
    assert.equal(joinLine('among non-', 'Hispanic adults', EMPTY_VOCABULARY), 'among non-Hispanic adults');
  });
  test('a known compound keeps the hyphen (follow-up, evidence-based)', () => {
    assert.equal(joinLine('at each follow-', 'up visit', EMPTY_VOCABULARY), 'at each follow-up visit');
    assert.equal(joinLine('uses evidence-', 'based care', EMPTY_VOCABULARY), 'uses evidence-based care');
  });
  test('the document vocabulary decides before the compound list', () => {
    // "cor-responding" would be kept by no rule but joined anyway; "pre-operative" is kept by the
    // prefix list unless the document writes "preoperative".
    const vocab = buildVocabulary(['preoperative factors matter', 'the corresponding nerve']);
    assert.equal(joinLine('the cor-', 'responding area', vocab), 'the corresponding area');
    assert.equal(joinLine('all pre-', 'operative care', vocab), 'all preoperative care');
    assert.equal(joinLine('all pre-', 'operative care', EMPTY_VOCABULARY), 'all pre-operative care');
    const hyph = buildVocabulary(['a well-being score', 'and well-being again']);
    assert.equal(keepsHyphen('well', 'being', hyph), true);
  });
  test('a line-final "treat-" is not counted as a hyphenated word', () => {
    const v = buildVocabulary(['we treat-', 'ment']);
    assert.equal(v.hyphenated.size, 0);
    assert.equal(v.joined.get('treat'), 1);
  });
  test('digits around a hyphen or dash keep it without a space', () => {
    assert.equal(joinLine('ORCID 0000-', '0001-7196', EMPTY_VOCABULARY), 'ORCID 0000-0001-7196');
    assert.equal(joinLine('during 2003–', '2014', EMPTY_VOCABULARY), 'during 2003–2014');
    assert.equal(keepsHyphen('COVID', '19', EMPTY_VOCABULARY), true);
  });
  test('a soft hyphen is always a break', () => {
    assert.equal(joinLine('manage\u00ad', 'ment', EMPTY_VOCABULARY), 'management');
  });
});

describe('joining lines', () => {
  test('Latin lines get one space', () => {
    assert.equal(joinLines(['Pain is one of the most  ', '  common reasons'], EMPTY_VOCABULARY), 'Pain is one of the most common reasons');
  });
  test('CJK lines get no space', () => {
    assert.equal(
      joinLines(['通常伴有知觉、思维、情绪和睡眠-觉醒周期的功能紊', '乱。'], EMPTY_VOCABULARY),
      '通常伴有知觉、思维、情绪和睡眠-觉醒周期的功能紊乱。',
    );
    assert.equal(joinLine('在 ICU（重症监护病', '房）中', EMPTY_VOCABULARY), '在 ICU（重症监护病房）中');
  });
  test('an em dash at the end joins without a space', () => {
    assert.equal(joinLine('for Pain —', 'United States', EMPTY_VOCABULARY), 'for Pain —United States');
  });
});
