import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePatientAnswer } from './parse-patient-answer.ts';

type Row = { input: string; answer: 'Yes' | 'No'; format: string; finishReason?: string };

test('accepted replies: the answer read and the format recorded', () => {
  const rows: Row[] = [
    { input: 'Yes', answer: 'Yes', format: 'strict' },
    { input: 'No', answer: 'No', format: 'strict' },
    { input: 'Yes.', answer: 'Yes', format: 'strict' },
    { input: 'No!', answer: 'No', format: 'strict' },
    { input: '  No  \n', answer: 'No', format: 'strict' },
    { input: 'Yes', answer: 'Yes', format: 'strict', finishReason: 'stop' },
    { input: 'yes', answer: 'Yes', format: 'case' },
    { input: 'NO', answer: 'No', format: 'case' },
    { input: '"Yes"', answer: 'Yes', format: 'quotes' },
    { input: '“No”', answer: 'No', format: 'quotes' },
    { input: "'Yes'", answer: 'Yes', format: 'quotes' },
    { input: '**Yes**', answer: 'Yes', format: 'bold-marker' },
    { input: 'Answer: Yes', answer: 'Yes', format: 'label-prefix' },
    { input: 'A: Yes', answer: 'Yes', format: 'label-prefix' },
    { input: 'Ｙｅｓ', answer: 'Yes', format: 'full-width' },
    { input: '<think>The vignette says the fever lasted 3 days, so no? Actually yes.</think>Yes', answer: 'Yes', format: 'think-block' },
    { input: '```\nNo\n```', answer: 'No', format: 'fence' },
    { input: 'No, I have not had a fever.', answer: 'No', format: 'extra-words' },
    { input: 'Yes, for about three days.', answer: 'Yes', format: 'extra-words' },
    // Read as "No" before: the "no" inside the explanation asserts nothing.
    { input: 'Yes, I have no other complaints.', answer: 'Yes', format: 'extra-words' },
    { input: 'I believe so, yes — it started last week.', answer: 'Yes', format: 'extra-words+yes-no-synonym' },
    { input: 'Yeah.', answer: 'Yes', format: 'yes-no-synonym' },
    { input: 'Yep', answer: 'Yes', format: 'yes-no-synonym' },
    { input: 'Nope.', answer: 'No', format: 'yes-no-synonym' },
    { input: 'Not really.', answer: 'No', format: 'yes-no-synonym' },
    { input: "I don't think so.", answer: 'No', format: 'yes-no-synonym' },
    { input: 'Well, no.', answer: 'No', format: 'case+preamble' },
    { input: 'No, no.', answer: 'No', format: 'extra-words' },
    { input: 'Sure! No.', answer: 'No', format: 'preamble' },
    { input: '是', answer: 'Yes', format: 'chinese-marker' },
    { input: '是的。', answer: 'Yes', format: 'chinese-marker' },
    { input: '有', answer: 'Yes', format: 'chinese-marker' },
    { input: '有的。', answer: 'Yes', format: 'chinese-marker' },
    { input: '对', answer: 'Yes', format: 'chinese-marker' },
    { input: '否', answer: 'No', format: 'chinese-marker' },
    { input: '不是', answer: 'No', format: 'chinese-marker' },
    { input: '没有。', answer: 'No', format: 'chinese-marker' },
    { input: '不', answer: 'No', format: 'chinese-marker' },
    { input: '无。', answer: 'No', format: 'chinese-marker' },
    { input: '是的，我发热三天了。', answer: 'Yes', format: 'chinese-marker+extra-words' },
    { input: '没有发热', answer: 'No', format: 'chinese-marker+extra-words' },
    { input: '回答：是', answer: 'Yes', format: 'chinese-marker+label-prefix' },
  ];
  for (const row of rows) {
    assert.deepEqual(parsePatientAnswer(row.input, row.finishReason), { ok: true, answer: row.answer, format: row.format }, row.input);
  }
});

test('faults: each reason says what is wrong and what to reply', () => {
  const rows: Array<{ input: string; reason: RegExp; finishReason?: string }> = [
    { input: '', reason: /^the answer is empty; reply with exactly "Yes" or "No"$/ },
    { input: '<think>hmm', reason: /only reasoning: a <think> block was opened and never closed/ },
    { input: 'Yes', finishReason: 'length', reason: /^truncated answer \(finish_reason: length\)/ },
    { input: 'I am not sure.', reason: /"I am not sure\." does not start with Yes or No: it is uncertain; reply with exactly/ },
    { input: 'Maybe', reason: /is uncertain/ },
    { input: "I don't know.", reason: /is uncertain/ },
    { input: 'Sometimes.', reason: /is uncertain/ },
    { input: 'Sure.', reason: /does not start with Yes or No/ },
    { input: '不知道', reason: /is uncertain/ },
    { input: 'Yesterday I had a fever', reason: /does not start with Yes or No/ },
    { input: 'I have a fever', reason: /does not start with Yes or No/ },
    { input: 'Yes and no.', reason: /both Yes and No/ },
    { input: 'No — well, yes, sometimes.', reason: /both Yes and No/ },
    { input: 'Yes. No.', reason: /both Yes and No/ },
    { input: '是的，不是。', reason: /both Yes and No/ },
    { input: '有点发热', reason: /does not start with Yes or No/ },
    { input: '**', reason: /empty/ },
  ];
  for (const row of rows) {
    const r = parsePatientAnswer(row.input, row.finishReason);
    assert.equal(r.ok, false, row.input);
    assert.match(r.ok ? '' : r.reason, row.reason, row.input);
  }
});
