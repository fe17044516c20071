import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatEstimate } from './estimate-report.ts';

test('the estimate table lists stage × model rows and a total, flagging unpriced models', () => {
  const out = formatEstimate([
    {
      stage: 'judge',
      model: 'gpt-5.4-mini',
      calls: 10,
      inputTokens: 20_000,
      outputTokens: 1_000,
      costUsd: 0.5,
      priced: true,
      overflows: 0,
    },
    { stage: 'single', model: 'Qwen3-8B', calls: 2, inputTokens: 300, outputTokens: 40, costUsd: 0, priced: false, overflows: 0 },
  ]);
  assert.equal(
    out,
    [
      // The cost column is as wide as its widest cell, "0.50 + unpriced" (15 characters).
      'stage   model         calls  input tokens  output tokens       cost (USD)',
      '------  ------------  -----  ------------  -------------  ---------------',
      'judge   gpt-5.4-mini     10         20000           1000             0.50',
      'single  Qwen3-8B          2           300             40    price not set',
      'total                    12         20300           1040  0.50 + unpriced',
    ].join('\n'),
  );
  assert.equal(formatEstimate([]), 'nothing to send: every call is cached');
});
