import { test } from 'node:test';
import assert from 'node:assert/strict';
import excludedCases from './excluded-cases.stage.ts';
import testCases from './test-cases.stage.ts';
import { runTable } from '../evaluate/testing/stage-harness.ts';

// Four test cases and a non-test one: t1 fails a check, t2 the inspection, t3 has no usable
// vignette, t4 is fine; n1 (non-test) fails a check.
const cdps = [
  ...['t1', 't2', 't3', 't4'].map((cdp_id) => ({ cdp_id, guideline_id: 'g', split: 'test', length: 1 })),
  { cdp_id: 'n1', guideline_id: 'g', split: 'non-test', length: 1 },
];
const ok = { cdp_ok: true, vignette_ok: true, narrative_ok: true, problems: [], error: null };
const inputs = {
  cdps,
  qc: [
    { cdp_id: 't1', ...ok, vignette_ok: false, problems: [{ kind: 'preamble' }] },
    { cdp_id: 't2', ...ok },
    { cdp_id: 't3', error: 'no vignette to check' },
    { cdp_id: 't4', ...ok },
    { cdp_id: 'n1', ...ok, cdp_ok: false, problems: [{ kind: 'evidence' }] },
  ],
  qc_inspection: [{ cdp_id: 't2', consistent: false, problems: ['the vignette contradicts step 1'], error: null }],
  vignettes: [
    ...['t1', 't2', 't4', 'n1'].map((cdp_id) => ({ cdp_id, vignette: 'A patient …', error: null })),
    { cdp_id: 't3', vignette: null, error: 'writer refused' },
  ],
  narratives: ['t1', 't2', 't3', 't4', 'n1'].map((cdp_id) => ({ cdp_id, steps: ['I check.'], error: null })),
};

test('excluded_cases: every test case left out or flagged, by whom and why, as test_cases decides', async () => {
  assert.deepEqual(await runTable(excludedCases, inputs, {}), [
    { cdp_id: 't1', guideline_id: 'g', flagged_by: ['checks'], reasons: ['preamble'], excluded: true },
    {
      cdp_id: 't2',
      guideline_id: 'g',
      flagged_by: ['inspection'],
      reasons: ['inspection: the vignette contradicts step 1'],
      excluded: true,
    },
    { cdp_id: 't3', guideline_id: 'g', flagged_by: ['construction'], reasons: ['no usable vignette: writer refused'], excluded: true },
  ]);
  // excludeFlagged off: the flagged cases stay test cases; a construction failure never does.
  assert.deepEqual(
    (await runTable(excludedCases, inputs, { excludeFlagged: false })).map((r) => [r.cdp_id, r.excluded]),
    [
      ['t1', false],
      ['t2', false],
      ['t3', true],
    ],
  );
});

test('excluded_cases records exactly the test cases test_cases leaves out, under either excludeFlagged', async () => {
  for (const excludeFlagged of [true, false]) {
    const kept = new Set((await runTable(testCases, inputs, { excludeFlagged })).map((r) => String(r.cdp_id)));
    const leftOut = cdps.filter((c) => c.split === 'test' && !kept.has(c.cdp_id)).map((c) => c.cdp_id);
    const recorded = (await runTable(excludedCases, inputs, { excludeFlagged })).filter((r) => r.excluded).map((r) => r.cdp_id);
    assert.deepEqual(recorded, leftOut, `excludeFlagged ${excludeFlagged}`);
  }
});
