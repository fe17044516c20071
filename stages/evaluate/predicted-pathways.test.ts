import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import stage from './predicted-pathways.stage.ts';
import { runTable } from './testing/stage-harness.ts';

const cdp = {
  cdp_id: 'c1',
  guideline_id: 'g1',
  language: 'en',
  steps: [{ condition: 'A?' }, { condition: 'B?' }],
  conclusion: 'Do X.',
  reference_questions: ['Is A?', 'Is B?'],
};
const narrative = { cdp_id: 'c1', steps: ['Statement A.', 'Statement B.', 'Therefore do X.'] };
const single = (over: object) => ({
  model: 'm',
  cdp_id: 'c1',
  guideline_id: 'g1',
  language: 'en',
  steps: ['s1'],
  outcome: 'X',
  parse_ok: true,
  parse_error: null,
  simulated: false,
  error: null,
  ...over,
});
const multi = (over: object) => ({
  model: 'm',
  cdp_id: 'c1',
  guideline_id: 'g1',
  language: 'en',
  questions: ['q1', 'q2'],
  outcome: 'X',
  success: true,
  end_reason: 'conclusion',
  simulated: true,
  error: null,
  ...over,
});

describe('predicted_pathways', () => {
  test('single: the first m narrative statements are the reference; the closing statement is left out', async () => {
    const [r] = await runTable(
      stage,
      { test_cases: [], predictions_single: [single({})], dialogues_multi: [], cdps: [cdp], narratives: [narrative] },
      {},
    );
    assert.deepEqual(r, {
      setting: 'single',
      model: 'm',
      cdp_id: 'c1',
      guideline_id: 'g1',
      language: 'en',
      reference: ['Statement A.', 'Statement B.'],
      candidate: ['s1'],
      reference_conclusion: 'Do X.',
      candidate_outcome: 'X',
      success: null,
      success_strict: null,
      simulated: false,
      usable: true,
      reason: null,
      failure: null,
    });
  });

  test('single: a parse failure is an empty, usable pathway; a failed call is unusable; a missing narrative is unusable', async () => {
    const rows = await runTable(
      stage,
      {
        test_cases: [],
        predictions_single: [
          single({ parse_ok: false, parse_error: 'no steps section' }),
          single({ model: 'broken', error: 'HTTP 500' }),
          single({ cdp_id: 'c2' }),
        ],
        dialogues_multi: [],
        cdps: [cdp, { ...cdp, cdp_id: 'c2' }],
        narratives: [narrative],
      },
      {},
    );
    assert.deepEqual([rows[0]!.candidate, rows[0]!.usable, rows[0]!.failure], [[], true, 'answer']);
    assert.match(String(rows[0]!.reason), /did not parse: no steps section/);
    assert.deepEqual([rows[1]!.usable, rows[1]!.reason, rows[1]!.failure], [false, 'prediction failed: HTTP 500', 'server']);
    assert.deepEqual(
      [rows[2]!.usable, rows[2]!.reason, rows[2]!.failure],
      [false, 'no reference pathway: no narrative', null],
      'no model is to blame',
    );
  });

  test('multi: reference questions vs asked questions; a dialogue that reached the turn cap keeps its questions, usable, no failure', async () => {
    const rows = await runTable(
      stage,
      {
        test_cases: [],
        dialogues_multi: [
          multi({}),
          multi({ model: 'm2', success: false, end_reason: 'turn-cap', questions: ['q1'] }),
          multi({ model: 'm3', error: 'doctor m3, turn 2: HTTP 500' }),
        ],
        cdps: [cdp],
        predictions_single: [],
        narratives: [],
      },
      {},
    );
    assert.deepEqual(
      rows.map((r) => [r.setting, r.reference, r.candidate, r.success, r.usable, r.failure]),
      [
        ['multi', ['Is A?', 'Is B?'], ['q1', 'q2'], true, true, null],
        ['multi', ['Is A?', 'Is B?'], ['q1'], false, true, null],
        ['multi', ['Is A?', 'Is B?'], ['q1', 'q2'], true, false, 'server'],
      ],
    );
    assert.match(String(rows[1]!.reason), /without success \(turn-cap\)/);
    assert.equal(rows[2]!.reason, 'dialogue failed: doctor m3, turn 2: HTTP 500');
  });

  test("multi: a broken doctor turn is unreadable; every form of patient failure is the patient's, with success null", async () => {
    const rows = await runTable(
      stage,
      {
        test_cases: [],
        dialogues_multi: [
          multi({ model: 'bad', success: false, end_reason: 'invalid-turn: two questions in one turn', questions: ['q1'] }),
          multi({
            model: 'p1',
            success: null,
            patient_failed: true,
            end_reason: 'patient-failure: unreadable after a re-ask',
            questions: ['q1'],
          }),
          multi({ model: 'p2', success: false, end_reason: 'patient-invalid: neither Yes nor No', questions: ['q1'] }),
          multi({ model: 'p3', error: 'patient simulated-patient, turn 1: HTTP 503', questions: ['q1'] }),
        ],
        cdps: [cdp],
        predictions_single: [],
        narratives: [],
      },
      {},
    );
    assert.deepEqual(
      rows.map((r) => [r.model, r.success, r.success_strict, r.usable, r.failure]),
      [
        ['bad', false, false, true, 'answer'],
        ['p1', null, null, false, 'patient'],
        ['p2', null, null, false, 'patient'],
        ['p3', null, null, false, 'patient'],
      ],
    );
    assert.equal(rows[1]!.reason, "patient failure, not the doctor's: patient-failure: unreadable after a re-ask");
    assert.equal(rows[3]!.reason, "patient failure, not the doctor's: patient simulated-patient, turn 1: HTTP 503");
  });

  test('multi: success_strict is read from dialogues_multi when present, else it is the lenient success', async () => {
    const rows = await runTable(
      stage,
      {
        test_cases: [],
        dialogues_multi: [
          multi({ success_strict: false }),
          multi({ model: 'm2', success_strict: true }),
          multi({ model: 'm3' }),
          multi({ model: 'm4', success: false, end_reason: 'turn-cap' }),
        ],
        cdps: [cdp],
        predictions_single: [],
        narratives: [],
      },
      {},
    );
    assert.deepEqual(
      rows.map((r) => [r.success, r.success_strict]),
      [
        [true, false],
        [true, true],
        [true, true],
        [false, false],
      ],
    );
  });
});
