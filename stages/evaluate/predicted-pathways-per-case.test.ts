// predicted_pathways per test case gives the rows of the whole-table stage: every row, each
// (setting, model)'s rows in the test cases' order (what every mean and paired difference reads).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import whole from './predicted-pathways.stage.ts';
import perCase from './predicted-pathways-per-case.stage.ts';
import { fakeCtx, runTable } from './testing/stage-harness.ts';
import type { Row } from '../../pipeline/stage.ts';

const cdps: Row[] = ['c1', 'c2', 'c3'].map((id, i) => ({
  cdp_id: id,
  guideline_id: `g${i % 2}`,
  language: 'en',
  steps: [{ condition: 'A?' }, { condition: 'B?' }],
  conclusion: `Do ${id}.`,
  reference_questions: ['Is A?', 'Is B?'],
}));
// c3 has no narrative: its single-turn rows have no reference pathway.
const narratives: Row[] = [
  { cdp_id: 'c1', steps: ['A.', 'B.', 'So do c1.'] },
  { cdp_id: 'c2', steps: ['A.', 'B.', 'So do c2.'] },
];
const models = ['m-a', 'm-b'];
const predictions_single: Row[] = models.flatMap((model) =>
  cdps.map((c, i) => ({
    model,
    cdp_id: c.cdp_id,
    guideline_id: c.guideline_id,
    language: 'en',
    steps: [`${model} ${i}`],
    outcome: 'X',
    parse_ok: !(model === 'm-b' && i === 1),
    simulated: false,
    error: model === 'm-a' && i === 2 ? 'HTTP 503: upstream overloaded' : null,
  })),
);
const dialogues_multi: Row[] = models.flatMap((model) =>
  cdps.map((c, i) => ({
    model,
    cdp_id: c.cdp_id,
    guideline_id: c.guideline_id,
    language: 'en',
    questions: [`${model} q${i}`],
    outcome: 'X',
    success: i !== 1,
    end_reason: i === 1 ? (model === 'm-a' ? 'turn-cap' : 'patient-refused') : 'conclusion',
    simulated: true,
    error: null,
  })),
);

test('per test case: the same rows as the whole table, each setting × model in test-case order', async () => {
  const test_cases = cdps;
  const table = await runTable(whole, { predictions_single, dialogues_multi, cdps, narratives, test_cases }, {});
  const ctx = fakeCtx({});
  const byCase: Row[] = [];
  for (const row of test_cases) {
    const on = (rows: Row[]) => rows.filter((r) => r.cdp_id === row.cdp_id);
    const joined = {
      predictions_single: on(predictions_single),
      dialogues_multi: on(dialogues_multi),
      cdps: on(cdps),
      narratives: on(narratives),
    };
    const got = await perCase.run({ row, joined, whole: {} }, ctx);
    byCase.push(...(Array.isArray(got) ? got : [got]));
  }
  assert.equal(byCase.length, 12);
  const cell = (rows: Row[], setting: string, model: string) => rows.filter((r) => r.setting === setting && r.model === model);
  for (const setting of ['single', 'multi'])
    for (const model of models) assert.deepEqual(cell(byCase, setting, model), cell(table, setting, model), `${setting} × ${model}`);
  // Case by case: c1's four rows (single m-a, m-b, multi m-a, m-b), then c2's.
  assert.deepEqual(
    byCase.slice(0, 4).map((r) => [r.cdp_id, r.setting, r.model]),
    [
      ['c1', 'single', 'm-a'],
      ['c1', 'single', 'm-b'],
      ['c1', 'multi', 'm-a'],
      ['c1', 'multi', 'm-b'],
    ],
  );
  // The conventions came through: a server failure, an unreadable answer, a patient failure, no narrative.
  const at = (setting: string, model: string, id: string) =>
    byCase.find((r) => r.setting === setting && r.model === model && r.cdp_id === id)!;
  assert.equal(at('single', 'm-a', 'c3').usable, false);
  assert.match(String(at('single', 'm-a', 'c3').reason), /no reference pathway: no narrative/);
  assert.equal(at('single', 'm-b', 'c2').failure, 'answer');
  assert.equal(at('multi', 'm-b', 'c2').failure, 'patient');
  assert.equal(at('multi', 'm-a', 'c2').failure, null, 'the turn cap is no failure');
  assert.deepEqual(at('single', 'm-a', 'c1').reference, ['A.', 'B.']);
});
