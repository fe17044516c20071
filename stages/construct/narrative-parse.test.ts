import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseNarrative } from './narrative-parse.ts';

const S = [
  'The guideline states that fever ≥ 38.5 °C suggests infection; the patient had 39 °C, so the criterion is met.',
  'Taken together, these findings lead to the conclusion: start amoxicillin.',
];
const JSON_S = JSON.stringify(S);

test('Prompt 3 answers: the statements read and the format recorded', () => {
  const rows: Array<{ input: string; format: string; finishReason?: string }> = [
    { input: JSON_S, format: 'strict' },
    { input: JSON.stringify(S, null, 2), format: 'strict', finishReason: 'stop' },
    { input: '```json\n' + JSON_S + '\n```', format: 'fence' },
    { input: `Sure! Here are the reasoning statements:\n${JSON_S}`, format: 'preamble' },
    { input: `${JSON_S}\n\nEach statement links one step to the evidence.`, format: 'trailing-note' },
    { input: `[\n  ${JSON.stringify(S[0])},\n  ${JSON.stringify(S[1])},\n]`, format: 'lenient-json:trailing-comma' },
    { input: `<think>Two statements: one step, one conclusion.</think>\n${JSON_S}`, format: 'think-block' },
  ];
  for (const row of rows)
    assert.deepEqual(parseNarrative(row.input, 2, row.finishReason), { ok: true, steps: S, format: row.format }, row.input);
});

test('faults name the problem', () => {
  const rows: Array<{ input: string; problems: string[]; finishReason?: string }> = [
    {
      input: JSON_S,
      finishReason: 'length',
      problems: ['truncated answer (finish_reason: length): cut off at the output token limit; answer again, complete and more concisely'],
    },
    { input: 'The patient has a fever.', problems: ['the answer contains no parseable JSON object or array'] },
    { input: JSON.stringify({ statements: S }), problems: ['the answer must be a JSON array of 2 statements (strings), but is an object'] },
    { input: JSON.stringify([S[0]]), problems: ['expected 2 statements (one per decision step and one for the conclusion), got 1'] },
    { input: JSON.stringify([S[0], ' ']), problems: ['statement 2 is empty'] },
    {
      input: JSON.stringify([S[0], 7, S[1]]),
      problems: [
        'statement 2 is a number, not a string',
        'expected 2 statements (one per decision step and one for the conclusion), got 3',
      ],
    },
  ];
  for (const row of rows)
    assert.deepEqual(parseNarrative(row.input, 2, row.finishReason), { ok: false, problems: row.problems }, row.input);
  assert.throws(() => parseNarrative(JSON_S, 0), /expected = 0 statements must be an integer ≥ 1/);
});
