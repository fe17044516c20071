// The run summary's facts about a stage's rows: failure reasons grouped with numbers folded, most
// frequent first (ties by reason), at most three; coverage as distinct values of one column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rowFacts } from './executor.ts';

test('failure reasons fold numbers, count, keep an example, and coverage counts rows without an error', () => {
  const rows = [
    { cdp_id: 'a', error: 'context overflow (120345 tokens > window 32768)' },
    { cdp_id: 'b', error: 'context overflow (99000 tokens > window 32768)' },
    { cdp_id: 'c', error: 'HTTP 500 after 5 attempts' },
    { cdp_id: 'd', error: 'HTTP 429 after 5 attempts' },
    { cdp_id: 'e', error: 'model x is inactive' },
    { cdp_id: 'f', error: 'zzz' },
    { cdp_id: 'g' },
    { cdp_id: 'g' },
    { cdp_id: 'h', error: null },
  ];
  assert.deepEqual(rowFacts(rows, 'cdp_id'), {
    failureReasons: [
      { reason: 'HTTP N after N attempts', count: 2, example: 'HTTP 500 after 5 attempts' },
      { reason: 'context overflow (N tokens > window N)', count: 2, example: 'context overflow (120345 tokens > window 32768)' },
      { reason: 'model x is inactive', count: 1, example: 'model x is inactive' },
    ],
    covered: { column: 'cdp_id', count: 2 },
  });
  assert.deepEqual(rowFacts([{ x: 1 }]), {});
});
