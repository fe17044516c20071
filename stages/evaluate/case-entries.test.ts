/**
 * The case and cell keys of case-entries.ts: values that JSON would tell apart never share a key,
 * and the cells do not depend on the order rows come in (the last run's cells are looked up first).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Row } from '../../pipeline/stage.ts';
import { caseKey, cellEntries } from './case-entries.ts';

test('caseKey: tuples that differ never share a key, whatever their strings hold', () => {
  const tuples: unknown[][] = [
    ['a\u0000b', 'c', 'd'],
    ['a', 'b\u0000c', 'd'],
    ['multi', 'null', 'c1'],
    ['multi', null, 'c1'],
    ['multi', '\u0001null', 'c1'],
    ['multi', 1, 'c1'],
    ['multi', '1', 'c1'],
    ['multi', '', 'c1'],
    ['multi', '\u0001""', 'c1'],
    ['', '', ''],
  ];
  const keys = tuples.map(([setting, model, cdp_id]) => caseKey({ setting, model, cdp_id }));
  assert.equal(new Set(keys).size, tuples.length, keys.map((k) => JSON.stringify(k)).join(' '));
  // undefined is null, as it was in JSON.stringify of the tuple.
  assert.equal(caseKey({ setting: 's', model: undefined, cdp_id: 'c' }), caseKey({ setting: 's', model: null, cdp_id: 'c' }));
});

const metricRow = (setting: string, model: string, judge: string, cdp_id: string, dtw: number): Row => ({
  setting,
  model,
  judge,
  judge_simulated: false,
  cdp_id,
  guideline_id: 'g1',
  simulated: false,
  error: null,
  dtw_pcc: dtw,
  ot_pcc: dtw / 2,
  lnds_pcs: 1 - dtw,
});

test('cellEntries: the same cells and entries whether rows come grouped or interleaved', () => {
  const grouped: Row[] = [];
  for (const model of ['A', 'B'])
    for (const judge of ['j1', 'j2'])
      for (const c of ['c1', 'c2', 'c3'])
        grouped.push(metricRow('multi', model, judge, c, Number(c.slice(1)) / 10 + (model === 'B' ? 0.5 : 0)));
  // Every row after one of another cell: the last-run lookup misses each time.
  const interleaved = [0, 6, 3, 9, 1, 7, 4, 10, 2, 8, 5, 11].map((i) => grouped[i]!);
  const cellsOf = (rows: Row[]) =>
    Object.fromEntries(
      cellEntries({ pathway_metrics: rows })
        .map((c) => [`${c.model} ${c.judge} ${c.metric}`, c.entries.map((e) => `${e.caseId}=${e.value}`).sort()] as const)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    );
  const a = cellsOf(grouped);
  assert.equal(Object.keys(a).length, 2 * 2 * 3);
  assert.deepEqual(a['B j2 ot_pcc'], ['c1=0.3', 'c2=0.35', 'c3=0.4']);
  assert.deepEqual(cellsOf(interleaved), a);
});
