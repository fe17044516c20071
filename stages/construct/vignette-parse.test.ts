import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseVignette } from './vignette-parse.ts';

const CASE = 'A 54-year-old patient presented with a blood pressure of 162/98 mmHg. The clinical question concerns management.';
const ZH = '患者，男，54岁，血压162/98 mmHg。本病例的临床问题涉及管理。';

test('vignettes: accepted variants keep exactly the case text and say how they departed from the format', () => {
  const cases: [string, string, string, string?][] = [
    ['plain prose', CASE, 'strict'],
    ['lead-in line', `Here is the clinical case vignette:\n\n${CASE}`, 'preamble'],
    ['bold title', `**Case Vignette:**\n${CASE}`, 'preamble'],
    ['bold title, same line', `**Case Vignette:** ${CASE}`, 'preamble'],
    ['markdown heading', `## Clinical Case Vignette\n\n${CASE}`, 'preamble'],
    ['sure, here is', `Sure! Here's the vignette you asked for:\n${CASE}`, 'preamble'],
    ['think block', `<think>Step 1 is a yes, so the value is high.</think>\n${CASE}`, 'think-block'],
    ['think block and lead-in', `<think>plan</think>Here is the case vignette:\n${CASE}`, 'preamble+think-block'],
    ['quoted', `"${CASE}"`, 'quotes'],
    ['Chinese lead-in', `以下是临床病例：\n${ZH}`, 'preamble', ZH],
    ['Chinese title', `**病例描述：**${ZH}`, 'preamble', ZH],
    ['Chinese prose', ZH, 'strict', ZH],
  ];
  for (const [name, text, format, want = CASE] of cases) {
    const p = parseVignette(text, 'stop');
    assert.deepEqual(p, { ok: true, vignette: want, format }, name);
  }
});

test('vignettes: refusals, code, JSON, truncated and empty answers are rejected with the reason', () => {
  const cases: [string, string, RegExp, string?][] = [
    ['the garbled answer', "I'm sorry, here is something unrelated: ```{not json", /refusal or apology/],
    ['fenced JSON', '```json\n{"vignette": "A patient"}\n```', /code fence/],
    ['a fence inside prose', `${CASE}\n\`\`\`\nextra\n\`\`\``, /code fence/],
    ['bare JSON', '{"vignette": "A patient presented."}', /is JSON/],
    ['JSON after a lead-in', 'Here is the vignette:\n["A patient presented."]', /is JSON/],
    ['I cannot', 'I cannot write a vignette without more detail.', /refusal/],
    ['as an AI', 'As an AI language model, I do not give medical advice.', /refusal/],
    ['Chinese apology', '抱歉，我无法完成这个任务。', /refusal/],
    ['empty', '   ', /empty/],
    ['only reasoning', '<think>the value should be', /only reasoning/],
    ['only a lead-in', '**Case Vignette:**', /only a lead-in/],
    ['truncated', CASE.slice(0, 40), /truncated answer \(finish_reason: length\)/, 'length'],
  ];
  for (const [name, text, reason, finish = 'stop'] of cases) {
    const p = parseVignette(text, finish);
    assert.equal(p.ok, false, name);
    assert.match((p as { reason: string }).reason, reason, name);
  }
});
