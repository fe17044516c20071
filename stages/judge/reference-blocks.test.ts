import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TOKENS_PER_MESSAGE, TOKENS_PER_REPLY } from '../../pipeline/llm/tokens.ts';
import { planReferenceBlocks } from './reference-blocks.ts';

const FRAMING = TOKENS_PER_MESSAGE + TOKENS_PER_REPLY;
// A prompt of 10 fixed "tokens" (the candidate) plus 1 per reference row; the counter counts words.
const render = (start: number, end: number) =>
  ['x', ...Array.from({ length: 9 }, () => 'c'), ...Array.from({ length: end - start }, (_, k) => `r${start + k}`)].join(' ');
const words = (s: string) => s.split(' ').length;

test('no limits: one block with every row', () => {
  assert.deepEqual(planReferenceBlocks(7, render), { ok: true, blocks: [{ start: 0, end: 7 }] });
});

test('blockRows: greedy full blocks, the remainder last', () => {
  assert.deepEqual(planReferenceBlocks(5, render, { blockRows: 2 }), {
    ok: true,
    blocks: [
      { start: 0, end: 2 },
      { start: 2, end: 4 },
      { start: 4, end: 5 },
    ],
  });
});

test('maxPromptTokens: each block is the largest that fits', () => {
  // 10 + rows + framing ≤ budget  ⇒  rows ≤ budget − 10 − framing = 3.
  const plan = planReferenceBlocks(8, render, { maxPromptTokens: 13 + FRAMING, countTokens: words });
  assert.deepEqual(plan, {
    ok: true,
    blocks: [
      { start: 0, end: 3 },
      { start: 3, end: 6 },
      { start: 6, end: 8 },
    ],
  });
  for (const b of plan.ok ? plan.blocks : [])
    assert.ok(words(render(b.start, b.end)) + FRAMING <= 13 + FRAMING, 'words(render(b.start, b.end)) + FRAMING <= 13 + FRAMING');
  // Both limits: the tighter wins per block.
  assert.deepEqual(planReferenceBlocks(4, render, { maxPromptTokens: 13 + FRAMING, blockRows: 2, countTokens: words }), {
    ok: true,
    blocks: [
      { start: 0, end: 2 },
      { start: 2, end: 4 },
    ],
  });
});

test('rows of different sizes: blocks adapt', () => {
  const sizes = [1, 5, 1, 1, 1, 4];
  const r = (s: number, e: number) =>
    sizes
      .slice(s, e)
      .map((k) => 'w '.repeat(k).trim())
      .join(' ');
  const plan = planReferenceBlocks(6, r, { maxPromptTokens: 6 + FRAMING, countTokens: (t) => (t ? t.split(' ').length : 0) });
  assert.deepEqual(plan, {
    ok: true,
    blocks: [
      { start: 0, end: 2 },
      { start: 2, end: 5 },
      { start: 5, end: 6 },
    ],
  });
});

test('the default counter accepts a prompt by its free byte bound (no tokenizer needed)', () => {
  // 20 ASCII bytes per row block; generous budget: decided by the free bound.
  const ascii = (s: number, e: number) => 'a'.repeat(20 * (e - s));
  assert.deepEqual(planReferenceBlocks(3, ascii, { maxPromptTokens: 60 + FRAMING }), { ok: true, blocks: [{ start: 0, end: 3 }] });
});

test('a single row that cannot fit is a failure with the reason', () => {
  const plan = planReferenceBlocks(3, render, { maxPromptTokens: 10 + FRAMING, countTokens: words });
  assert.equal(plan.ok, false);
  assert.match(
    plan.ok ? '' : plan.reason,
    /single reference step \(R1\) and the whole candidate pathway needs 18 tokens, over the budget of 17; the candidate is never split/,
  );
});

test('bad parameters are refused', () => {
  assert.throws(() => planReferenceBlocks(0, render), /m = 0/);
  assert.throws(() => planReferenceBlocks(3, render, { blockRows: 0 }), /blockRows = 0/);
  assert.throws(() => planReferenceBlocks(3, render, { maxPromptTokens: 0 }), /maxPromptTokens = 0/);
});
