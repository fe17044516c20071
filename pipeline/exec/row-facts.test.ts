// The run summary's facts about a stage's rows: failure reasons grouped with numbers folded, most
// frequent first (ties by reason), at most three; coverage as distinct values of one column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reusedFacts, rowFacts } from './row-facts.ts';

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

test('a reused stage takes its facts from the ledger, reading no artifact; an older ledger entry reads them back', async () => {
  const facts = { covered: { column: 'cdp_id', count: 7 } };
  const entry = { key: 'k', components: null, artifact: 'a', rows: 9, failed: 0, finishedAt: '', facts };
  const unread = () => {
    throw new Error('the artifact was read');
  };
  assert.equal(reusedFacts(entry, 'cdp_id', unread), facts);
  const rows = () => [{ cdp_id: 'x' }, { cdp_id: 'y' }, { cdp_id: 'z', error: 'HTTP 500 after 5 attempts' }];
  const old = { ...entry, facts: undefined, failed: 1 };
  assert.deepEqual(reusedFacts(old, 'cdp_id', rows), {
    failureReasons: [{ reason: 'HTTP N after N attempts', count: 1, example: 'HTTP 500 after 5 attempts' }],
    covered: { column: 'cdp_id', count: 2 },
  });
  // Facts recorded for another covers column are not taken for this one.
  assert.deepEqual(reusedFacts({ ...entry, failed: 1 }, 'guideline_id', rows).covered, { column: 'guideline_id', count: 0 });
  assert.deepEqual(reusedFacts({ ...old, failed: 0 }, undefined, unread), {});
});
