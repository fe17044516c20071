import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTemplate, renderTemplate } from '../../prompts/templates.ts';
import { unrenderTemplate } from './unrender-template.ts';

const t9 = loadTemplate('outcome-accuracy-scoring', 'en');

test('Prompt 9 round trip, multi-line and brace-holding values included', () => {
  const cases = [
    { Reference_Conclusion: 'Community-acquired pneumonia; start amoxicillin.', Candidate_Conclusion: 'Pneumonia' },
    { Reference_Conclusion: 'Line one.\nLine two {Candidate_Conclusion}.', Candidate_Conclusion: '诊断：社区获得性肺炎\n治疗：阿莫西林' },
    { Reference_Conclusion: '', Candidate_Conclusion: '' },
  ];
  for (const vars of cases) assert.deepEqual(unrenderTemplate(t9, renderTemplate(t9, vars)), vars);
});

test('a prompt from another template is not read back', () => {
  const t5 = loadTemplate('single-turn-step-level-consistency-scoring', 'en');
  const p5 = renderTemplate(t5, {
    Reference_Pathway_Length: 1,
    Candidate_Pathway_Length: 1,
    Reference_Pathway: 'R1: a',
    Candidate_Pathway: 'C1: b',
  });
  assert.equal(unrenderTemplate(t9, p5), null);
  assert.equal(unrenderTemplate(t9, 'hello'), null);
});

test('templates with a repeated placeholder are refused', () => {
  const t5 = loadTemplate('single-turn-step-level-consistency-scoring', 'en');
  assert.throws(() => unrenderTemplate(t5, 'x'), /more than once/);
});
