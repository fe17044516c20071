// QC flags a preamble, a reasoning block or meta-commentary left in a vignette or a narrative
// (issue 11 item 5), and nothing in ordinary case text.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { metaCommentary } from './qc-preamble.ts';
import { checkInstance } from './qc-checks.ts';
import { writeNarrative } from '../agents/writers/narrative-writer.ts';
import { writeVignette } from '../agents/writers/vignette-writer.ts';
import { makeCdp } from './testing/sample-cdps.ts';

const flagged: [string, string][] = [
  ['Here is the clinical case vignette:\nThe patient was aged 32 years.', 'Here is'],
  ["Here's a vignette: The patient was aged 32 years.", "Here's"],
  ['**Case Vignette:**\nThe patient was aged 32 years.', '**Case Vignette:'],
  ['**Case Vignette**\nThe patient was aged 32 years.', '**Case Vignette**'],
  ['## Clinical Vignette\nThe patient was aged 32 years.', '## Clinical Vignette'],
  ['Vignette: The patient was aged 32 years.', 'Vignette:'],
  ['Reasoning Narrative: The patient is 32.', 'Reasoning Narrative:'],
  ['Sure! The patient was aged 32 years.', 'Sure'],
  ['Certainly, the patient was aged 32 years.', 'Certainly'],
  ['<think>Keep it short.</think>The patient was aged 32 years.', '<think>'],
  ['The patient was aged 32 years.</think>', '</think>'],
  ['The patient was aged 32 years. I have avoided revealing the pathway.', 'I have avoided'],
  ["The patient was aged 32 years. I've kept the outcome hidden.", "I've kept"],
  ['The patient was aged 32 years.\n\nThis vignette reflects every step.', 'This vignette'],
  ['The patient was aged 32 years. Let me know if you need changes.', 'Let me know'],
  ['The patient was aged 32 years. (Word count: 40)', 'Word count'],
  ['以下是病例简介：患者32岁。', '以下是'],
  ['病例简介：患者32岁。', '病例简介：'],
  ['**临床病例**：患者32岁。', '**临床病例**：'],
  ['好的，患者32岁。', '好的'],
  ['患者32岁。希望这个病例对你有帮助。', '希望这'],
];

const clean = [
  'The patient was aged 32 years. Blood pressure was 150/96 mmHg. The clinical question concerns management.',
  'The patient, here for a routine visit, reported no chest pain.',
  'A 45-year-old patient presented with a cough; sure signs of pneumonia were absent.',
  'The narrative of the illness began three weeks ago.',
  'Vignettes of this kind are rare; the patient was aged 32 years.',
  'The patient has kept a sleep diary for two weeks.',
  '患者32岁，当然无糖尿病史。',
  '患者症状持续4个月，伴日间功能损害。该临床问题涉及诊断。',
];

describe('metaCommentary', () => {
  for (const [text, phrase] of flagged) {
    test(`flags ${JSON.stringify(text.slice(0, 40))}`, () => {
      const hit = metaCommentary(text);
      assert.ok(hit !== null, 'flagged');
      if (phrase) assert.equal(hit, phrase);
    });
  }
  for (const text of clean) test(`leaves ${JSON.stringify(text.slice(0, 40))}`, () => assert.equal(metaCommentary(text), null));
});

describe('checkInstance: the preamble checks', () => {
  const cdp = makeCdp('en', [['Does the patient have diabetes?', 'no']]);
  const vignette = writeVignette(cdp).vignette;
  const narrative = writeNarrative(cdp).steps;

  test('the offline writers are clean', () => assert.deepEqual(checkInstance({ cdp, vignette, narrative }).problems, []));
  test('a vignette preamble is a vignette problem; the rest of the case still checks clean', () => {
    const r = checkInstance({ cdp, vignette: `Here is the clinical case vignette:\n${vignette}`, narrative });
    assert.deepEqual(
      r.problems.map((p) => [p.kind, p.scope, p.step]),
      [['vignette-preamble', 'vignette', null]],
    );
    assert.match(r.problems[0]!.message, /preamble or meta-commentary \("Here is"\)/);
    assert.deepEqual([r.cdpOk, r.vignetteOk, r.narrativeOk], [true, false, true]);
  });
  test('a narrative statement with meta-commentary is a narrative problem at its statement', () => {
    const bad = [...narrative];
    bad[1] = `${bad[1]} I hope this helps.`;
    const r = checkInstance({ cdp, vignette, narrative: bad });
    assert.deepEqual(
      r.problems.map((p) => [p.kind, p.scope, p.step]),
      [['narrative-preamble', 'narrative', 2]],
    );
    assert.deepEqual([r.cdpOk, r.vignetteOk, r.narrativeOk], [true, true, false]);
  });
});
