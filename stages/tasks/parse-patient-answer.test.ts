import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePatientAnswer } from './parse-patient-answer.ts';

const yes = { ok: true, answer: 'Yes' } as const;
const no = { ok: true, answer: 'No' } as const;

test('the two answers Prompt 7 asks for, and their usual decorations', () => {
  const cases: Array<[string, typeof yes | typeof no]> = [
    ['Yes', yes],
    ['No', no],
    ['yes', yes],
    ['NO', no],
    ['Yes.', yes],
    ['No!', no],
    ['"Yes"', yes],
    ['“No”', no],
    ["'Yes'", yes],
    ['**Yes**', yes],
    ['  No  \n', no],
    ['Answer: Yes', yes],
    ['Ｙｅｓ', yes],
    ['<think>The vignette says the fever lasted 3 days, so no? Actually yes.</think>Yes', yes],
    ['No, I have not had a fever.', no],
    ['Yes, for about three days.', yes],
  ];
  for (const [raw, expected] of cases) assert.deepEqual(parsePatientAnswer(raw), expected, raw);
});

test('Chinese replies', () => {
  const cases: Array<[string, typeof yes | typeof no]> = [
    ['是', yes],
    ['是的。', yes],
    ['有', yes],
    ['对', yes],
    ['否', no],
    ['不是', no],
    ['没有', no],
    ['不', no],
    ['无。', no],
    ['是的，我发热三天了。', yes],
  ];
  for (const [raw, expected] of cases) assert.deepEqual(parsePatientAnswer(raw), expected, raw);
});

test('invalid replies say why', () => {
  const cases: Array<[string, RegExp]> = [
    ['', /empty/],
    ['<think>hmm', /empty/],
    ['I am not sure.', /does not start with Yes or No/],
    ['Maybe', /does not start with Yes or No/],
    ['Yesterday I had a fever', /does not start with Yes or No/],
    ['Yes and no.', /both Yes and No/],
    ['No — well, yes, sometimes.', /both Yes and No/],
    ['有点发热', /does not start with Yes or No/],
  ];
  for (const [raw, reason] of cases) {
    const r = parsePatientAnswer(raw);
    assert.equal(r.ok, false, raw);
    assert.match(r.ok ? '' : r.reason, reason, raw);
  }
});
