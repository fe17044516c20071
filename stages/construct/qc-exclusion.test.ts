// Which cases QC flags for exclusion, and what qc_summary reports about them (issue 11 item 5).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveParams, type Row, type StageContext, type TableStage } from '../../pipeline/stage.ts';
import { exclusionCounts, qcFlags } from './qc-exclusion.ts';
import qcSummaryStage from './qc-summary.stage.ts';

const ok = (id: string): Row => ({ cdp_id: id, cdp_ok: true, vignette_ok: true, narrative_ok: true, problems: [] });
const QC: Row[] = [
  ok('a'),
  {
    cdp_id: 'b',
    cdp_ok: true,
    vignette_ok: false,
    narrative_ok: true,
    problems: [{ kind: 'vignette-preamble' }, { kind: 'focus-missing' }, { kind: 'vignette-preamble' }],
  },
  {
    cdp_id: 'c',
    cdp_ok: false,
    vignette_ok: true,
    narrative_ok: false,
    problems: [{ kind: 'tree-mismatch' }, { kind: 'narrative-length' }],
  },
  ok('d'),
  { cdp_id: 'e', error: 'no vignette to check' },
  ok('f'),
];
const INSPECTION: Row[] = [
  { cdp_id: 'a', consistent: true, problems: [] },
  { cdp_id: 'd', consistent: false, problems: ['the vignette gives the diagnosis away', 'age missing'] },
  { cdp_id: 'c', consistent: false, problems: [] },
  { cdp_id: 'f', error: 'unreadable verdict' },
];

test('qcFlags: any deterministic problem or an inconsistent verdict flags a case; failure rows flag nothing', () => {
  const flags = qcFlags(QC, INSPECTION);
  assert.deepEqual(
    [...flags.values()],
    [
      { cdp_id: 'b', sources: ['checks'], reasons: ['vignette-preamble', 'focus-missing'] },
      { cdp_id: 'c', sources: ['checks', 'inspection'], reasons: ['tree-mismatch', 'narrative-length', 'inspection: inconsistent'] },
      { cdp_id: 'd', sources: ['inspection'], reasons: ['inspection: the vignette gives the diagnosis away; age missing'] },
    ],
  );
  assert.deepEqual([...qcFlags(QC).keys()], ['b', 'c'], 'offline (no inspection) only the checks decide');
});

test('exclusionCounts: over the test ids only, a case flagged twice counted once', () => {
  const flags = qcFlags(QC, INSPECTION);
  assert.deepEqual(exclusionCounts(['a', 'b', 'c', 'd', 'e', 'f'], flags), { byChecks: 2, byInspection: 2, flagged: 3 });
  assert.deepEqual(exclusionCounts(['a', 'c', 'c'], flags), { byChecks: 1, byInspection: 1, flagged: 1 });
  assert.deepEqual(exclusionCounts([], flags), { byChecks: 0, byInspection: 0, flagged: 0 });
});

test('qc_summary: test cases flagged, failed in construction and excluded, following excludeFlagged', async () => {
  const cdps: Row[] = ['a', 'b', 'c', 'd', 'e', 'f'].map((id, i) => ({ cdp_id: id, split: i < 4 || id === 'f' ? 'test' : 'non-test' }));
  // b, c, d and f are test; e is non-test; c is test and flagged by both.
  cdps[1] = { cdp_id: 'b', split: 'non-test' };
  const run = async (excludeFlagged: boolean | undefined) => {
    const ctx = {
      stage: 'qc_summary',
      params: resolveParams('qc_summary', qcSummaryStage.params, excludeFlagged === undefined ? {} : { excludeFlagged }).params,
      log: () => {},
    } as unknown as StageContext<{ excludeFlagged?: boolean }>;
    // f's vignette failed: no test case, whatever excludeFlagged says (the others were built).
    const vignettes = cdps.map((c) =>
      c.cdp_id === 'f' ? { cdp_id: 'f', error: 'writer: HTTP 500' } : { cdp_id: c.cdp_id, vignette: 'V.' },
    );
    const narratives = cdps.map((c) => ({ cdp_id: c.cdp_id, steps: ['S.'] }));
    const inputs = { qc: QC, qc_inspection: INSPECTION, cdps, vignettes, narratives };
    const rows = await (qcSummaryStage as TableStage<{ excludeFlagged?: boolean }>).run(inputs, ctx);
    return Object.fromEntries(rows.filter((r) => /^test cases/.test(String(r.measure))).map((r) => [r.measure, r.value]));
  };
  const want = {
    'test cases': 4,
    'test cases whose construction failed (no usable vignette or narrative)': 1,
    'test cases flagged by the QC checks': 1,
    'test cases flagged by the LLM inspection': 2,
  };
  // Flagged c and d, and f whose construction failed; without exclusion still f.
  assert.deepEqual(await run(undefined), { ...want, 'test cases excluded from the task settings': 3 });
  assert.deepEqual(await run(true), { ...want, 'test cases excluded from the task settings': 3 });
  assert.deepEqual(await run(false), { ...want, 'test cases excluded from the task settings': 1 });
});
