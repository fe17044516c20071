import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clinicalInquiryGoal } from './inquiry-goal.ts';

test('English goal: focus and title, whitespace in the title folded', () => {
  assert.equal(
    clinicalInquiryGoal('screening', 'Colorectal  cancer\nscreening', 'en'),
    'Determine the appropriate screening for this patient according to the guideline "Colorectal cancer screening".',
  );
});

test('Chinese goal for zh and its regional tags, each focus in Chinese', () => {
  assert.equal(clinicalInquiryGoal('diagnosis', '失眠障碍', 'zh'), '请根据指南《失眠障碍》确定该患者的诊断方案。');
  assert.equal(clinicalInquiryGoal('classification', '谵妄', 'zh-CN'), '请根据指南《谵妄》确定该患者的分类方案。');
  assert.deepEqual(
    ['screening', 'management'].map((f) => clinicalInquiryGoal(f, 'T', 'zh')),
    ['请根据指南《T》确定该患者的筛查方案。', '请根据指南《T》确定该患者的管理方案。'],
  );
});

test('languages without their own wording get the English goal; an empty focus reads as management', () => {
  assert.equal(
    clinicalInquiryGoal('', 'Guide', 'de'),
    'Determine the appropriate management for this patient according to the guideline "Guide".',
  );
});
