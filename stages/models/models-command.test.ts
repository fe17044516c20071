// What `cdp models` says about context windows before anything is sent, and what `cdp run` says
// at its end about failure rows and coverage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { windowWarnings, type ModelListing } from './models-command.ts';
import { runReport } from '../../pipeline/cli/run-report.ts';
import type { StageResult } from '../../pipeline/exec/executor.ts';

const listing = (over: Partial<ModelListing>): ModelListing => ({
  name: 'm',
  roles: ['evaluated'],
  active: true,
  reason: 'evaluated',
  endpoint: ['http://h/v1'],
  model: 'm',
  contextWindow: 131072,
  contextWindowAssumed: false,
  price: null,
  paper: null,
  declaredIn: 'models.json',
  ...over,
});

test("windows: an assumed one, one below the paper's 40K floor, one larger than the server serves; unused models say nothing", () => {
  const w = windowWarnings([
    listing({ name: 'a', contextWindow: 32768, contextWindowAssumed: true }),
    listing({ name: 'b', contextWindow: 16384 }),
    listing({ name: 'c', check: { name: 'c', ok: true, detail: '', latencyMs: 1, serverContextWindow: 32768 } }),
    listing({ name: 'd', contextWindow: 8192, active: false }),
    listing({ name: 'e' }),
  ]);
  assert.equal(w.length, 3);
  assert.match(w[0], /^a: no contextWindow declared, 32768 tokens assumed/);
  assert.match(w[1], /^b: a 16384-token window is below the paper's 40K floor/);
  assert.match(w[2], /^c: the server serves 32768 tokens, less than the declared 131072/);
});

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

test('the end of a run lists failure rows per stage with their commonest reasons, the retry command and the coverage', () => {
  const text = runReport({
    ok: true,
    stages: [
      stage({
        stage: 'trees',
        rowsFailed: 1,
        failureReasons: [
          { reason: 'context overflow (N tokens > window N)', count: 1, example: 'context overflow (120345 tokens > window 32768)' },
        ],
      }),
      stage({
        stage: 'predictions_single',
        rowsFailed: 3,
        covered: { column: 'cdp_id', count: 5 },
        failureReasons: [{ reason: 'm: HTTP N after N attempts', count: 3, example: 'm: HTTP 500 after 5 attempts' }],
      }),
      stage({ stage: 'dialogues_multi', covered: { column: 'cdp_id', count: 5 } }),
    ],
  });
  assert.equal(
    text,
    [
      'covered: predictions_single 5, dialogues_multi 5 (distinct cdp_id)',
      'failure rows: 4 in 2 stages (each is a row with its reason; nothing else was lost)',
      '  trees: 1 [other 1] — 1× context overflow (120345 tokens > window 32768)',
      '  predictions_single: 3 [other 3] — 3× m: HTTP 500 after 5 attempts',
      'outstanding failures: other 4 — retry them with: cdp run --retry-failed',
      '',
    ].join('\n'),
  );
  assert.equal(runReport({ ok: true, stages: [stage({})] }), '');
});
