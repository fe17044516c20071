import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseDoctorTurn } from './parse-doctor-turn.ts';

const Q = 'Is your body temperature 38.5 °C or higher?';

describe('questions', () => {
  const cases: Array<[string, string]> = [
    ['bare', Q],
    ['trailing whitespace and newline', `${Q}  \n\n`],
    ['bold', `**${Q}**`],
    ['double quotes', `"${Q}"`],
    ['curly quotes', `“${Q}”`],
    ['reasoning block first', `<think>The next criterion is fever. Should I ask about CRP? No, fever first.</think>\n${Q}`],
    ['label "Question:"', `Question: ${Q}`],
    ['label "Doctor:"', `Doctor: ${Q}`],
    ['numbered label "**Question 4:**"', `**Question 4:** ${Q}`],
    ['list marker', `1. ${Q}`],
    ['courtesy line before', `Thank you for your answer.\n${Q}`],
    ['instruction after', `${Q}\n(Please answer Yes or No.)`],
    ['doubled question mark', Q.replace('?', '??')],
    ['code fence', `\`\`\`\n${Q}\n\`\`\``],
  ];
  for (const [name, raw] of cases) {
    test(name, () => assert.deepEqual(parseDoctorTurn(raw), { kind: 'question', question: Q }));
  }

  test('Chinese question with a full-width question mark', () => {
    assert.deepEqual(parseDoctorTurn('问题：您的体温是否≥38.5℃？'), { kind: 'question', question: '您的体温是否≥38.5℃？' });
  });

  test('the question keeps its own words when the same line has prose before it', () => {
    assert.deepEqual(parseDoctorTurn(`Noted. ${Q}`), { kind: 'question', question: `Noted. ${Q}` });
  });
});

describe('conclusions', () => {
  const C = 'Community-acquired pneumonia, treat with oral amoxicillin';
  const cases: Array<[string, string]> = [
    ['exact format', `Final Conclusion: ${C}`],
    ["the paper's own ’…’ quotes", `’Final Conclusion: ${C}’`],
    ['single quotes', `'Final Conclusion: ${C}'`],
    ['bold marker', `**Final Conclusion:** ${C}`],
    ['lower case and full-width colon', `final conclusion：${C}`],
    ['reasoning block and trailing spaces', `<think>All criteria resolved?</think>Final Conclusion: ${C}   \n`],
    ['prose before that asks nothing', `Based on your answers, the criteria are met.\nFinal Conclusion: ${C}`],
    ['conclusion wrapped onto two lines', `Final Conclusion: Community-acquired pneumonia,\ntreat with oral amoxicillin`],
  ];
  for (const [name, raw] of cases) {
    test(name, () => assert.deepEqual(parseDoctorTurn(raw), { kind: 'conclusion', conclusion: C }));
  }

  test('the "not applicable" conclusion of rule 11', () => {
    const text = 'The guideline does not contain an explicit rule or conclusion that can be directly applied based on the available patient information.';
    assert.deepEqual(parseDoctorTurn(`Final Conclusion: ${text}`), { kind: 'conclusion', conclusion: text });
  });

  test('Chinese marker', () => {
    assert.deepEqual(parseDoctorTurn('最终结论：社区获得性肺炎'), { kind: 'conclusion', conclusion: '社区获得性肺炎' });
  });
});

describe('invalid turns', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['empty', '   ', /empty/],
    ['only reasoning', '<think>Let me consider', /empty/],
    ['two questions on one line', 'Do you have fever? Do you have a cough?', /asks 2 questions/],
    ['three questions on separate lines', 'Do you have fever?\nDo you have a cough?\nAre you pregnant?', /asks 3 questions/],
    ['a statement, no question mark', 'Please tell me whether you have a fever.', /no question mark and no "Final Conclusion:"/],
    ['question then conclusion', `${Q}\nFinal Conclusion: Pneumonia`, /both a question and a "Final Conclusion:"/],
    ['conclusion phrased as a question', 'Final Conclusion: Is it pneumonia?', /both a question/],
    ['two conclusions', 'Final Conclusion: A\nFinal Conclusion: B', /2 "Final Conclusion:" markers/],
    ['marker with nothing after it', 'Final Conclusion:  ’', /followed by no conclusion/],
    ['a lone question mark', '?', /follows no question/],
    ['"final conclusion" without a colon is no marker', 'I cannot reach a final conclusion yet.', /no question mark/],
  ];
  for (const [name, raw, reason] of cases) {
    test(name, () => {
      const r = parseDoctorTurn(raw);
      assert.equal(r.kind, 'invalid');
      assert.match(r.kind === 'invalid' ? r.reason : '', reason);
    });
  }
});
