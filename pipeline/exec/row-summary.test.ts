// The run summary's facts about a stage's rows: failure reasons grouped with numbers folded, most
// frequent first (ties by reason), at most three; rows by failure_kind (failure rows and rows kept
// as results apart, unlabelled failure rows as 'other'); coverage as distinct values of one column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reusedFacts, rowFacts } from './row-summary.ts';

test('failure reasons fold numbers, count, keep an example, kinds are counted, and coverage counts rows without an error', () => {
  const rows = [
    { cdp_id: 'a', error: 'context overflow (120345 tokens > window 32768)', failure_kind: 'server' },
    { cdp_id: 'b', error: 'context overflow (99000 tokens > window 32768)', failure_kind: 'server' },
    { cdp_id: 'c', error: 'HTTP 500 after 5 attempts', failure_kind: 'server' },
    { cdp_id: 'd', error: 'HTTP 429 after 5 attempts', failure_kind: 'patient' },
    { cdp_id: 'e', error: 'model x is inactive' },
    { cdp_id: 'f', error: 'zzz', failure_kind: null },
    { cdp_id: 'g' },
    { cdp_id: 'g', failure_kind: 'answer' },
    { cdp_id: 'h', error: null },
  ];
  assert.deepEqual(rowFacts(rows, 'cdp_id'), {
    failureReasons: [
      { reason: 'HTTP N after N attempts', count: 2, example: 'HTTP 500 after 5 attempts' },
      { reason: 'context overflow (N tokens > window N)', count: 2, example: 'context overflow (120345 tokens > window 32768)' },
      { reason: 'model x is inactive', count: 1, example: 'model x is inactive' },
    ],
    failureKinds: {
      server: { failed: 3, results: 0 },
      patient: { failed: 1, results: 0 },
      other: { failed: 2, results: 0 },
      answer: { failed: 0, results: 1 },
    },
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
    failureKinds: { other: { failed: 1, results: 0 } },
    covered: { column: 'cdp_id', count: 2 },
  });
  // Facts recorded for another covers column are not taken for this one.
  assert.deepEqual(reusedFacts({ ...entry, failed: 1 }, 'guideline_id', rows).covered, { column: 'guideline_id', count: 0 });
  assert.deepEqual(reusedFacts({ ...old, failed: 0 }, undefined, unread), {});
});
