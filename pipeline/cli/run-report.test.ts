// The end of `cdp run`'s summary: failure rows by kind per stage, failures kept as results with
// the flag that asks them again, what a retry cleared, and last the outstanding failures by kind
// with the command that retries them; and the exit code that says where the run stands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { outstandingKinds, runReport } from './run-report.ts';
import { EXIT, runExitCode } from './exit-code.ts';
import type { StageResult } from '../exec/executor.ts';

const stage = (over: Partial<StageResult>): StageResult => ({
  stage: 's',
  status: 'ran',
  rowsComputed: 0,
  rowsReused: 0,
  rowsFailed: 0,
  llmCalls: 0,
  llmCached: 0,
  counters: {},
  tokensIn: 0,
  tokensOut: 0,
  seconds: 0,
  ...over,
});

// A run with 3 server and 2 patient failures, 8 judging rows downstream of them, one unlabelled
// failure of an older stage and 2 unreadable answers kept as results.
const stages = [
  stage({ stage: 'guidelines', rowsFailed: 1, failureReasons: [{ reason: 'not a PDF', count: 1, example: 'not a PDF' }] }),
  stage({
    stage: 'predictions_single',
    rowsFailed: 3,
    failureKinds: { server: { failed: 3, results: 0 }, answer: { failed: 0, results: 2 } },
    failureReasons: [{ reason: 'm: HTTP N after N attempts', count: 3, example: 'm: HTTP 500 after 5 attempts' }],
  }),
  stage({ stage: 'dialogues_multi', rowsFailed: 2, failureKinds: { patient: { failed: 2, results: 0 } } }),
  stage({ stage: 'step_scores', rowsFailed: 8, failureKinds: { upstream: { failed: 8, results: 0 } } }),
];

test('failure rows by kind, failures kept as results, and the outstanding failures by kind last, with the retry command', () => {
  assert.equal(
    runReport({ stages }),
    [
      'failure rows: 14 in 4 stages (each is a row with its reason; nothing else was lost)',
      '  guidelines: 1 [other 1] — 1× not a PDF',
      '  predictions_single: 3 [server 3] — 3× m: HTTP 500 after 5 attempts',
      '  dialogues_multi: 2 [patient 2]',
      '  step_scores: 8 [upstream 8]',
      'failures kept as results: predictions_single answer 2 (ask them again as fresh samples: cdp run --retry-answers)',
      'outstanding failures: other 1, patient 2, server 3 (and 8 failure rows downstream of them) — retry them with: cdp run --retry-failed',
      '',
    ].join('\n'),
  );
  assert.deepEqual(outstandingKinds(stages), { kinds: { other: 1, server: 3, patient: 2 }, upstream: 8 });
  assert.equal(runReport({ stages: [stage({})] }), '', 'a clean run says nothing more');
});

test('a retry says what it cleared and what remains, by kind', () => {
  const after = [
    stage({ stage: 'guidelines', status: 'reused', rowsFailed: 1 }),
    stage({
      stage: 'predictions_single',
      rowsFailed: 0,
      failureKinds: { answer: { failed: 0, results: 1 } },
      previous: { rowsFailed: 3, failureKinds: stages[1]!.failureKinds },
    }),
    stage({
      stage: 'dialogues_multi',
      rowsFailed: 1,
      failureKinds: { patient: { failed: 1, results: 0 } },
      previous: { rowsFailed: 2, failureKinds: stages[2]!.failureKinds },
    }),
  ];
  const text = runReport({ stages: after }, { retryFailed: true, retryKinds: ['answer'] });
  assert.match(text, /^--retry-failed: cleared 4 of 6 failures \(other 1, patient 2, server 3\); 2 remain \(other 1, patient 1\)$/m);
  assert.match(text, /^--retry-answers: asked 2 answer failures again; 1 remain$/m);
  assert.match(text, /outstanding failures: other 1, patient 1 — retry them with: cdp run --retry-failed\n$/);
});

test('the exit code: 0 clean or answer failures only, 3 with failure rows, 4 with nothing to evaluate, 1 when a stage failed', () => {
  const answersOnly = [stage({ failureKinds: { answer: { failed: 0, results: 4 } } })];
  assert.equal(runExitCode({ ok: true, stages: answersOnly }), EXIT.ok);
  assert.equal(runExitCode({ ok: true, stages }), EXIT.failuresRemain);
  const empty = [...stages, stage({ stage: 'test_cases', empty: 'no test case is left' })];
  assert.equal(runExitCode({ ok: true, stages: empty }), EXIT.nothingToEvaluate);
  assert.equal(runExitCode({ ok: false, stages: empty }), EXIT.stageFailed);
  assert.deepEqual(Object.values(EXIT), [0, 1, 2, 3, 4], 'the codes are distinct');
  assert.match(runReport({ stages: empty }), /^nothing to evaluate: test_cases has no rows: no test case is left$/m);
});
