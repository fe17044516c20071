import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractJson, prepareAnswer, readReasoning, stripReasoning } from './structured.ts';
import { formatOf, variantsOf } from './answer-format.ts';

test('extractJson: one row per variant, with the value read and the format recorded', () => {
  const rows: Array<{ input: string; value: unknown; format: string }> = [
    { input: '{"a": 1}', value: { a: 1 }, format: 'strict' },
    { input: '  [1, 2]\n', value: [1, 2], format: 'strict' },
    { input: '{"a": [1, 2,],}', value: { a: [1, 2] }, format: 'lenient-json:trailing-comma' },
    { input: '{\n  // the root\n  "a": 1 /* one */\n}', value: { a: 1 }, format: 'lenient-json:comment' },
    {
      input: '{"url": "http://x.org/a,]", "b": 2, // note\n}',
      value: { url: 'http://x.org/a,]', b: 2 },
      format: 'lenient-json:comment+lenient-json:trailing-comma',
    },
    { input: '```json\n{"a": 1}\n```', value: { a: 1 }, format: 'fence' },
    { input: 'Sure! Here is the JSON:\n```json\n{"a": 1}\n```\nHope that helps.', value: { a: 1 }, format: 'fence+preamble+trailing-note' },
    { input: 'Here is the array: ["x", "y"]', value: ['x', 'y'], format: 'preamble' },
    { input: '<think>let me see {not json}</think>\n{"a": 1}', value: { a: 1 }, format: 'think-block' },
    { input: 'Options [a] or [b]: {"a": 1}', value: { a: 1 }, format: 'preamble' },
  ];
  for (const row of rows) {
    assert.deepEqual(extractJson(row.input), { ok: true, value: row.value, format: row.format }, row.input);
  }
});

test('extractJson: faults state the real problem, never a fragment nested in the answer', () => {
  const rows: Array<{ input: string; finishReason?: string; problem: RegExp }> = [
    { input: '', problem: /^the answer is empty$/ },
    { input: '<think>I will build the tree', problem: /only reasoning: a <think> block was opened and never closed/ },
    { input: 'I cannot help with that.', problem: /no parseable JSON object or array/ },
    { input: '{"a": 1}', finishReason: 'length', problem: /^truncated answer \(finish_reason: length\)/ },
    // The inner node parses on its own; reading it would make the re-ask talk about a top-level "index".
    {
      input: '{"decision_tree": {"index": 1, "leaf": true}, "x": \'single\'}',
      problem: /^the answer is not valid JSON \(even allowing trailing commas and comments\): Unexpected token/,
    },
    { input: 'Here: {"a": {"index": 1}', problem: /never closes/ },
  ];
  for (const row of rows) {
    const r = extractJson(row.input, { finishReason: row.finishReason });
    assert.equal(r.ok, false, row.input);
    assert.match(r.ok ? '' : r.problem, row.problem, row.input);
  }
});

test('reasoning blocks: closed, lone closing tag, unclosed after an answer, unclosed from the start', () => {
  assert.deepEqual(readReasoning('<think>x</think> Yes'), { answer: 'Yes', hadReasoning: true, onlyReasoning: false });
  assert.deepEqual(readReasoning('thinking…</think>No'), { answer: 'No', hadReasoning: true, onlyReasoning: false });
  assert.deepEqual(readReasoning('Yes <think>but maybe'), { answer: 'Yes', hadReasoning: true, onlyReasoning: false });
  assert.deepEqual(readReasoning('  <thinking>only this'), { answer: '', hadReasoning: true, onlyReasoning: true });
  assert.equal(stripReasoning('No reasoning here'), 'No reasoning here');
});

test('prepareAnswer: truncation, reasoning only, empty fence, and the variants it saw', () => {
  assert.deepEqual(prepareAnswer('Yes', 'length'), {
    ok: false,
    reason: 'truncated answer (finish_reason: length): cut off at the output token limit; answer again, complete and more concisely',
  });
  assert.deepEqual(prepareAnswer('Yes', 'stop'), { ok: true, text: 'Yes', variants: [] });
  assert.deepEqual(prepareAnswer('<think>a</think>\n```\nYes\n```'), { ok: true, text: 'Yes', variants: ['think-block', 'fence'] });
  assert.equal(prepareAnswer('<think>only').ok, false);
  assert.deepEqual(prepareAnswer('```\n```'), { ok: false, reason: 'the answer is an empty code fence' });
});

test('format strings: sorted, de-duplicated, and read back; unknown labels are refused', () => {
  assert.equal(formatOf([]), 'strict');
  assert.equal(formatOf(['preamble', 'fence', 'preamble']), 'fence+preamble');
  assert.deepEqual(variantsOf('fence+preamble'), ['fence', 'preamble']);
  assert.deepEqual(variantsOf('strict'), []);
  assert.throws(() => variantsOf('fence+sloppy'), /unknown answer-format label "sloppy"/);
});

test('extractJson: a scalar answer is still JSON', () => {
  assert.deepEqual(extractJson(' 42 '), { ok: true, value: 42, format: 'strict' });
});
