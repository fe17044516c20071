import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateJson, formatEstimate } from './estimate-report.ts';
import type { EstimateRow } from './types.ts';

const rows: EstimateRow[] = [
  {
    stage: 'judge',
    model: 'gpt-5.4-mini',
    calls: 10,
    inputTokens: 20_000,
    outputTokens: 1_000,
    costUsd: 0.5,
    priced: true,
    overflows: 2,
    stoodIn: 10,
    unanswered: 0,
  },
  {
    stage: 'single',
    model: 'Qwen3-8B',
    calls: 2,
    inputTokens: 300,
    outputTokens: 40,
    costUsd: 0,
    priced: false,
    overflows: 0,
    stoodIn: 2,
    unanswered: 0,
  },
];

test('the plan lists stage × model: requests, tokens, cost and overflows, a total, unpriced models flagged', () => {
  assert.equal(
    formatEstimate(rows),
    [
      // The cost column is as wide as its widest cell, "0.50 + unpriced" (15 characters).
      'stage   model         requests  input tokens  output tokens       cost (USD)  overflows',
      '------  ------------  --------  ------------  -------------  ---------------  ---------',
      'judge   gpt-5.4-mini        10         20000           1000             0.50          2',
      'single  Qwen3-8B             2           300             40    price not set          0',
      'total                       12         20300           1040  0.50 + unpriced          2',
      "warning: 2 judge prompt(s) exceed gpt-5.4-mini's context window; they would fail before sending (raise contextWindow if the server serves more, or use a model with a larger window)",
    ].join('\n'),
  );
  assert.equal(formatEstimate([]), 'nothing to send: every call is cached');
});

test('--json: the same plan per stage, per model and in total', () => {
  const j = estimateJson(rows);
  assert.deepEqual(j.total, { requests: 12, inputTokens: 20_300, outputTokens: 1_040, cost: 0.5, priced: false, overflows: 2 });
  assert.deepEqual(
    j.models.map((m) => [(m as { model: string }).model, (m as { requests: number }).requests]),
    [
      ['gpt-5.4-mini', 10],
      ['Qwen3-8B', 2],
    ],
  );
});
