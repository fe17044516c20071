import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseDoctorTurn } from './parse-doctor-turn.ts';

const Q = 'Is your body temperature 38.5 °C or higher?';
const C = 'Community-acquired pneumonia, treat with oral amoxicillin';

describe('questions: the question read and the format recorded', () => {
  const rows: Array<{ name: string; input: string; question?: string; format: string }> = [
    { name: 'bare', input: Q, format: 'strict' },
    { name: 'trailing whitespace and newline', input: `${Q}  \n\n`, format: 'strict' },
    { name: 'bold', input: `**${Q}**`, format: 'bold-marker' },
    { name: 'double quotes', input: `"${Q}"`, format: 'quotes' },
    { name: 'curly quotes', input: `“${Q}”`, format: 'quotes' },
    {
      name: 'reasoning block first',
      input: `<think>The next criterion is fever. Should I ask about CRP? No, fever first.</think>\n${Q}`,
      format: 'think-block',
    },
    { name: 'label "Question:"', input: `Question: ${Q}`, format: 'label-prefix' },
    { name: 'label "Doctor:"', input: `Doctor: ${Q}`, format: 'label-prefix' },
    { name: 'numbered label "**Question 4:**"', input: `**Question 4:** ${Q}`, format: 'bold-marker+label-prefix' },
    { name: 'list marker', input: `1. ${Q}`, format: 'list-style' },
    { name: 'courtesy line before', input: `Thank you for your answer.\n${Q}`, format: 'preamble' },
    { name: 'instruction after', input: `${Q}\n(Please answer Yes or No.)`, format: 'trailing-note' },
    { name: 'doubled question mark', input: Q.replace('?', '??'), format: 'strict' },
    { name: 'code fence', input: `\`\`\`\n${Q}\n\`\`\``, format: 'fence' },
    { name: 'full-width question mark in English', input: Q.replace('?', '？'), format: 'full-width' },
    {
      name: 'Chinese question keeps its punctuation',
      input: '问题：您的体温是否≥38.5℃？',
      question: '您的体温是否≥38.5℃？',
      format: 'label-prefix',
    },
    { name: 'prose before it on the same line is kept', input: `Noted. ${Q}`, question: `Noted. ${Q}`, format: 'strict' },
  ];
  for (const row of rows) {
    test(row.name, () =>
      assert.deepEqual(parseDoctorTurn(row.input), { kind: 'question', question: row.question ?? Q, format: row.format }),
    );
  }
});

describe('conclusions: the conclusion read and the format recorded', () => {
  const RULE_11 =
    'The guideline does not contain an explicit rule or conclusion that can be directly applied based on the available patient information.';
  const rows: Array<{ name: string; input: string; conclusion?: string; format: string; finishReason?: string }> = [
    { name: 'exact format', input: `Final Conclusion: ${C}`, format: 'strict' },
    { name: 'exact format, finish_reason stop', input: `Final Conclusion: ${C}`, format: 'strict', finishReason: 'stop' },
    { name: 'the "not applicable" conclusion of rule 11', input: `Final Conclusion: ${RULE_11}`, conclusion: RULE_11, format: 'strict' },
    { name: "the paper's own ’…’ quotes", input: `’Final Conclusion: ${C}’`, format: 'quotes' },
    { name: 'single quotes', input: `'Final Conclusion: ${C}'`, format: 'quotes' },
    { name: 'bold marker', input: `**Final Conclusion:** ${C}`, format: 'bold-marker' },
    { name: 'lower case and full-width colon', input: `final conclusion：${C}`, format: 'case+full-width' },
    {
      name: 'reasoning block and trailing spaces',
      input: `<think>All criteria resolved?</think>Final Conclusion: ${C}   \n`,
      format: 'think-block',
    },
    {
      name: 'prose before that asks nothing',
      input: `Based on your answers, the criteria are met.\nFinal Conclusion: ${C}`,
      format: 'preamble',
    },
    {
      name: 'conclusion wrapped onto two lines',
      input: 'Final Conclusion: Community-acquired pneumonia,\ntreat with oral amoxicillin',
      format: 'separator',
    },
    { name: '"Conclusion:"', input: `Conclusion: ${C}`, format: 'heading-synonym' },
    { name: '"Final Conclusion - …"', input: `Final Conclusion - ${C}`, format: 'separator' },
    {
      name: '"**Final Conclusion**" on its own line, the text below',
      input: `**Final Conclusion**\n${C}`,
      format: 'bold-marker+separator',
    },
    { name: 'a markdown heading', input: `## Final Conclusion: ${C}`, format: 'markdown-heading' },
    { name: '"Final Answer:"', input: `Final Answer: ${C}`, format: 'heading-synonym' },
    {
      name: 'a trailing note is not part of the conclusion',
      input: `Final Conclusion: ${C}\n\nNote: this follows the guideline's first algorithm.`,
      format: 'trailing-note',
    },
    {
      name: 'a note line right after the conclusion',
      input: `Final Conclusion: ${C}\nNote: based on the answers given.`,
      format: 'trailing-note',
    },
    { name: 'Chinese marker', input: '最终结论：社区获得性肺炎', conclusion: '社区获得性肺炎', format: 'chinese-marker' },
    { name: 'Chinese "结论："', input: '结论：社区获得性肺炎', conclusion: '社区获得性肺炎', format: 'chinese-marker+heading-synonym' },
  ];
  for (const row of rows) {
    test(row.name, () => {
      assert.deepEqual(parseDoctorTurn(row.input, row.finishReason), {
        kind: 'conclusion',
        conclusion: row.conclusion ?? C,
        format: row.format,
      });
    });
  }
});

describe('invalid turns say why', () => {
  const rows: Array<{ name: string; input: string; reason: RegExp; finishReason?: string }> = [
    { name: 'empty', input: '   ', reason: /empty/ },
    { name: 'only reasoning', input: '<think>Let me consider', reason: /only reasoning: a <think> block was opened and never closed/ },
    { name: 'truncated', input: `Final Conclusion: ${C}`, finishReason: 'length', reason: /^truncated answer \(finish_reason: length\)/ },
    { name: 'two questions on one line', input: 'Do you have fever? Do you have a cough?', reason: /asks 2 questions/ },
    {
      name: 'three questions on separate lines',
      input: 'Do you have fever?\nDo you have a cough?\nAre you pregnant?',
      reason: /asks 3 questions/,
    },
    {
      name: 'a statement, no question mark',
      input: 'Please tell me whether you have a fever.',
      reason: /no question mark and no "Final Conclusion:"/,
    },
    { name: 'question then conclusion', input: `${Q}\nFinal Conclusion: Pneumonia`, reason: /both a question and a "Final Conclusion:"/ },
    { name: 'conclusion phrased as a question', input: 'Final Conclusion: Is it pneumonia?', reason: /both a question/ },
    { name: 'two conclusions', input: 'Final Conclusion: A\nFinal Conclusion: B', reason: /2 "Final Conclusion:" markers/ },
    {
      name: 'two conclusions under different markers',
      input: 'Conclusion: A\n\nFinal Conclusion: B',
      reason: /2 "Final Conclusion:" markers/,
    },
    { name: 'marker with nothing after it', input: 'Final Conclusion:  ’', reason: /followed by no conclusion/ },
    { name: 'a heading marker with nothing below it', input: '**Final Conclusion**', reason: /followed by no conclusion/ },
    { name: 'a lone question mark', input: '?', reason: /follows no question/ },
    {
      name: '"final conclusion" without a colon mid-sentence is no marker',
      input: 'I cannot reach a final conclusion yet.',
      reason: /no question mark/,
    },
    { name: '"In conclusion," is no marker', input: 'In conclusion, more information is needed.', reason: /no question mark/ },
  ];
  for (const row of rows) {
    test(row.name, () => {
      const r = parseDoctorTurn(row.input, row.finishReason);
      assert.equal(r.kind, 'invalid', JSON.stringify(r));
      assert.match(r.kind === 'invalid' ? r.reason : '', row.reason);
    });
  }
});
