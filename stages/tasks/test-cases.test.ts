// Stage test_cases: the test split without the cases QC flagged (issue 11 item 5), before --limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveParams, stageInputs, type Row, type StageContext, type TableStage } from '../../pipeline/stage.ts';
import testCasesStage, { type TestCasesParams } from './test-cases.stage.ts';
import { smokeOrder } from './case-selection.ts';

const cdps: Row[] = [
  ...['h1', 'h2', 'h3', 'h4'].map((id) => ({ cdp_id: id, guideline_id: 'htn', language: 'en', split: 'test', length: 1 })),
  ...['z1', 'z2'].map((id) => ({ cdp_id: id, guideline_id: 'ins', language: 'zh', split: 'test', length: 1 })),
  { cdp_id: 'n1', guideline_id: 'other', language: 'en', split: 'non-test' },
  { guideline_id: 'broken', error: 'tree failed' },
];
const clean = (id: string): Row => ({ cdp_id: id, cdp_ok: true, vignette_ok: true, narrative_ok: true, problems: [] });
const qc: Row[] = [
  clean('h1'),
  { cdp_id: 'h2', cdp_ok: true, vignette_ok: false, narrative_ok: true, problems: [{ kind: 'vignette-preamble' }] },
  clean('h3'),
  clean('h4'),
  clean('z1'),
  clean('z2'),
  // A flagged non-test case changes nothing: it was never evaluated.
  { cdp_id: 'n1', cdp_ok: false, vignette_ok: true, narrative_ok: true, problems: [{ kind: 'tree-mismatch' }] },
];
const inspection: Row[] = [
  { cdp_id: 'z1', consistent: false, problems: ['gives the answer away'] },
  { cdp_id: 'h3', consistent: true, problems: [] },
];

// Every case was built: a vignette and a narrative of length + 1 statements.
const built = {
  vignettes: cdps.filter((c) => c.cdp_id).map((c) => ({ cdp_id: c.cdp_id, vignette: `Case ${String(c.cdp_id)}.` })),
  narratives: cdps.filter((c) => c.cdp_id).map((c) => ({ cdp_id: c.cdp_id, steps: ['So.'] })),
};

async function run(given: Partial<TestCasesParams>, given_inputs: Record<string, Row[]>) {
  const inputs = { ...built, ...given_inputs };
  const logs: string[] = [];
  // The declared defaults under what the test gives, and the inputs, as the runner hands them.
  const params = resolveParams('test_cases', testCasesStage.params, given).params as unknown as TestCasesParams;
  const ctx = { stage: 'test_cases', params, log: (m: string) => logs.push(m) } as unknown as StageContext<TestCasesParams>;
  const rows = await (testCasesStage as TableStage<TestCasesParams>).run(stageInputs('test_cases', testCasesStage.inputs, inputs), ctx);
  return { ids: rows.map((r) => String(r.cdp_id ?? `error:${String(r.guideline_id)}`)), logs };
}

test('test_cases: flagged test cases are left out by default, with a log line naming them; failure rows pass', async () => {
  const r = await run({ limit: null }, { cdps, qc, qc_inspection: inspection });
  assert.deepEqual(r.ids, ['h1', 'h3', 'h4', 'z2', 'error:broken']);
  assert.deepEqual(r.logs, [
    'QC: left out 2 of 6 test cases (1 by the checks, 1 by the inspection): h2 (vignette-preamble); z1 (inspection: gives the answer away)',
  ]);
  // The rows are the cdps rows themselves: the task units' keys do not depend on QC.
  const rows = await (testCasesStage as TableStage<TestCasesParams>).run({ cdps, qc, qc_inspection: [], ...built }, {
    params: { limit: null, excludeFlagged: true },
    log: () => {},
  } as never);
  assert.equal(rows[0], cdps[0]);
});

test('test_cases: without the inspection only the checks decide; excludeFlagged false keeps every test case', async () => {
  assert.deepEqual((await run({ limit: null }, { cdps, qc, qc_inspection: [] })).ids, ['h1', 'h3', 'h4', 'z1', 'z2', 'error:broken']);
  const kept = await run({ limit: null, excludeFlagged: false }, { cdps, qc, qc_inspection: inspection });
  assert.deepEqual([kept.ids, kept.logs], [['h1', 'h2', 'h3', 'h4', 'z1', 'z2', 'error:broken'], []]);
});

test('test_cases: --limit chooses among the cases QC kept, in smoke order', async () => {
  const keptOrder = smokeOrder(cdps.filter((c) => ['h1', 'h3', 'h4', 'z2'].includes(String(c.cdp_id))) as never[]).map(
    (c: Row) => c.cdp_id,
  );
  const r = await run({ limit: 2 }, { cdps, qc, qc_inspection: inspection });
  assert.deepEqual(new Set(r.ids), new Set([...keptOrder.slice(0, 2), 'error:broken']));
  assert.ok(!r.ids.includes('h2') && !r.ids.includes('z1'));
  assert.equal(r.logs[1], '--limit 2: 2 of 4 test cases, from 2 guidelines in 2 languages');
});

test('test_cases: a case whose construction failed is no test case, whatever excludeFlagged says, and the log says why', async () => {
  const vignettes = built.vignettes.map((v) => (v.cdp_id === 'h3' ? { cdp_id: 'h3', error: 'writer: HTTP 500 after 5 attempts' } : v));
  const narratives = built.narratives.map((n) =>
    n.cdp_id === 'z2' ? { cdp_id: 'z2', steps: [] } : n.cdp_id === 'h4' ? { cdp_id: 'h4', error: 'no valid answer after 3 attempts' } : n,
  );
  for (const excludeFlagged of [true, false]) {
    const r = await run({ limit: null, excludeFlagged }, { cdps, qc, qc_inspection: [], vignettes, narratives });
    assert.deepEqual(r.ids, excludeFlagged ? ['h1', 'z1', 'error:broken'] : ['h1', 'h2', 'z1', 'error:broken']);
    assert.equal(
      r.logs[0],
      'construction failed for 3 of 6 test cases, left out of the test set: h3 (no usable vignette: writer: HTTP 500 after 5 attempts); ' +
        'h4 (no usable narrative: no valid answer after 3 attempts); z2 (no usable narrative: 0 statements for 1 decision step)',
    );
  }
  const empty = await run(
    { limit: null },
    { cdps, qc, qc_inspection: [], vignettes: built.vignettes.map((v) => (v.cdp_id === 'h1' ? { ...v, vignette: ' ' } : v)) },
  );
  assert.ok(!empty.ids.includes('h1'), 'an empty vignette is no usable vignette');
});

test('test_cases: bad params are refused, saying what to do', async () => {
  await assert.rejects(
    run({ limit: null, excludeFlagged: 'yes' as never }, { cdps, qc, qc_inspection: [] }),
    /excludeFlagged must be true or false, got "yes"/,
  );
  await assert.rejects(run({ limit: 0 }, { cdps, qc, qc_inspection: [] }), /limit must be a positive integer or null, got 0/);
});
