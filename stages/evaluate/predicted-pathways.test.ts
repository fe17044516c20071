import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import stage from './predicted-pathways.stage.ts';
import { runTable } from './test-support.ts';

const cdp = {
  cdp_id: 'c1', guideline_id: 'g1', language: 'en', steps: [{ condition: 'A?' }, { condition: 'B?' }],
  conclusion: 'Do X.', reference_questions: ['Is A?', 'Is B?'],
};
const narrative = { cdp_id: 'c1', steps: ['Statement A.', 'Statement B.', 'Therefore do X.'] };
const single = (over: object) => ({ model: 'm', cdp_id: 'c1', guideline_id: 'g1', language: 'en', steps: ['s1'], outcome: 'X', parse_ok: true, parse_error: null, simulated: false, error: null, ...over });
const multi = (over: object) => ({ model: 'm', cdp_id: 'c1', guideline_id: 'g1', language: 'en', questions: ['q1', 'q2'], outcome: 'X', success: true, end_reason: 'conclusion', simulated: true, error: null, ...over });

describe('predicted_pathways', () => {
  test('single: the first m narrative statements are the reference; the closing statement is left out', async () => {
    const [r] = await runTable(stage, { predictions_single: [single({})], cdps: [cdp], narratives: [narrative] }, {});
    assert.deepEqual(r, {
      setting: 'single', model: 'm', cdp_id: 'c1', guideline_id: 'g1', language: 'en', reference: ['Statement A.', 'Statement B.'], candidate: ['s1'],
      reference_conclusion: 'Do X.', candidate_outcome: 'X', success: null, simulated: false, usable: true, reason: null,
    });
  });

  test('single: a parse failure is an empty, usable pathway; a failed call is unusable; a missing narrative is unusable', async () => {
    const rows = await runTable(stage, {
      predictions_single: [single({ parse_ok: false, parse_error: 'no steps section' }), single({ model: 'broken', error: 'HTTP 500' }), single({ cdp_id: 'c2' })],
      cdps: [cdp, { ...cdp, cdp_id: 'c2' }],
      narratives: [narrative],
    }, {});
    assert.deepEqual([rows[0]!.candidate, rows[0]!.usable], [[], true]);
    assert.match(String(rows[0]!.reason), /did not parse: no steps section/);
    assert.deepEqual([rows[1]!.usable, rows[1]!.reason], [false, 'prediction failed: HTTP 500']);
    assert.deepEqual([rows[2]!.usable, rows[2]!.reason], [false, 'no reference pathway: no narrative']);
  });

  test('multi: reference questions vs asked questions; an unsuccessful dialogue keeps its questions and is usable', async () => {
    const rows = await runTable(stage, {
      dialogues_multi: [multi({}), multi({ model: 'm2', success: false, end_reason: 'turn limit', questions: ['q1'] }), multi({ model: 'm3', error: 'patient failed' })],
      cdps: [cdp],
    }, {});
    assert.deepEqual(rows.map((r) => [r.setting, r.reference, r.candidate, r.success, r.usable]), [
      ['multi', ['Is A?', 'Is B?'], ['q1', 'q2'], true, true],
      ['multi', ['Is A?', 'Is B?'], ['q1'], false, true],
      ['multi', ['Is A?', 'Is B?'], ['q1', 'q2'], true, false],
    ]);
    assert.match(String(rows[1]!.reason), /without success \(turn limit\)/);
    assert.equal(rows[2]!.reason, 'dialogue failed: patient failed');
  });
});
