import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatPathway, pathwayVars } from '../../prompts/pathway-labels.ts';
import { loadTemplate, renderTemplate } from '../../prompts/templates.ts';
import { findLabelledPathways, unlabelPathway } from './unlabel-pathway.ts';

const folded = (s: string) => s.replace(/\s+/g, ' ').trim();

test('round trip: unlabel(format(steps)) is the steps as the judge saw them', () => {
  const steps = [
    'Does the patient have fever ≥ 38.5 °C?',
    '  multi\nline\tstep  ',
    'A step quoting "R2: something" and\nR3: a fake label',
    '',
    '患者是否咳嗽超过两周？',
    'R1-C1: 5',
    '😀 emoji',
  ];
  for (const side of ['R', 'C'] as const) {
    assert.deepEqual(unlabelPathway(formatPathway(steps, side), side), steps.map(folded));
  }
});

test('round trip on generated steps', () => {
  const alphabet = ['a', 'B', ' ', '\n', ':', 'R', 'C', '1', '2', '热', '-', '\t', 'é'];
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let trial = 0; trial < 200; trial++) {
    const steps = Array.from({ length: 1 + Math.floor(rand() * 12) }, () =>
      Array.from({ length: Math.floor(rand() * 15) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join(''),
    );
    assert.deepEqual(unlabelPathway(formatPathway(steps, 'R'), 'R'), steps.map(folded));
  }
});

test('a line out of sequence is refused, naming it', () => {
  assert.throws(() => unlabelPathway('R1: a\nR3: b', 'R'), /line 2 .* does not start with "R2:"/);
  assert.throws(() => unlabelPathway('C1: a', 'R'), /reference pathway/);
});

test('both pathways are found in rendered Prompts 5 and 8', () => {
  const reference = ['Fever above 38 °C?', 'Cough for more than two weeks?', 'Chest X-ray shows infiltrate?'];
  const candidate = ['Is the temperature above 38?', 'Order a chest X-ray'];
  for (const id of ['single-turn-step-level-consistency-scoring', 'multi-turn-step-level-consistency-scoring'] as const) {
    const prompt = renderTemplate(loadTemplate(id, 'en'), pathwayVars(reference, candidate));
    assert.deepEqual(findLabelledPathways(prompt), { reference, candidate });
  }
});

test('a prompt without labelled pathways gives null', () => {
  assert.equal(findLabelledPathways('R1-C1: 5, R1-C2: 2\nR2-C1: 3'), null);
  assert.equal(findLabelledPathways('R1: only a reference'), null);
});
