// The SR-relevant fields of hand-made dialogues (issue 11 item 2): lenient and strict success,
// patient failures apart, the dialogue's doctor format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accountDialogue, type DialogueEnd } from './dialogue-outcome.ts';

const cases: { name: string; end: DialogueEnd; formats: (string | null)[]; want: ReturnType<typeof accountDialogue> }[] = [
  {
    name: 'a conclusion, every doctor turn strict',
    end: { kind: 'conclusion', conclusion: 'Start an ACE inhibitor.' },
    formats: ['strict', 'strict', 'strict'],
    want: {
      end_reason: 'conclusion',
      outcome: 'Start an ACE inhibitor.',
      success: true,
      success_strict: true,
      patient_failed: false,
      format: 'strict',
    },
  },
  {
    name: 'a conclusion after a bold question: lenient success only, the variants united and sorted',
    end: { kind: 'conclusion', conclusion: 'x' },
    formats: ['strict', 'label-prefix+bold-marker', 'think-block+bold-marker'],
    want: {
      end_reason: 'conclusion',
      outcome: 'x',
      success: true,
      success_strict: false,
      patient_failed: false,
      format: 'bold-marker+label-prefix+think-block',
    },
  },
  {
    name: 'an unreadable doctor turn: failure, no dialogue format',
    end: { kind: 'invalid-turn', reason: 'the turn asks 2 questions' },
    formats: ['strict', null],
    want: {
      end_reason: 'invalid-turn: the turn asks 2 questions',
      outcome: null,
      success: false,
      success_strict: false,
      patient_failed: false,
      format: null,
    },
  },
  {
    name: 'the turn cap',
    end: { kind: 'turn-cap' },
    formats: ['strict', 'strict'],
    want: { end_reason: 'turn-cap', outcome: null, success: false, success_strict: false, patient_failed: false, format: 'strict' },
  },
  {
    name: 'a patient failure: neither success nor failure of the doctor',
    end: { kind: 'patient-failure', reason: 'the answer "Maybe" is uncertain' },
    formats: ['strict'],
    want: {
      end_reason: 'patient-failure: the answer "Maybe" is uncertain',
      outcome: null,
      success: null,
      success_strict: null,
      patient_failed: true,
      format: 'strict',
    },
  },
];

for (const c of cases) test(`accountDialogue: ${c.name}`, () => assert.deepEqual(accountDialogue(c.end, c.formats), c.want));

test('SR over a hand-made set of 7 dialogues: lenient 3/6 and strict 1/6 of the doctor-evaluable cases, 1 patient failure', () => {
  const rows = [
    accountDialogue({ kind: 'conclusion', conclusion: 'a' }, ['strict', 'strict']),
    accountDialogue({ kind: 'conclusion', conclusion: 'b' }, ['strict', 'bold-marker']),
    accountDialogue({ kind: 'conclusion', conclusion: 'c' }, ['chinese-marker']),
    accountDialogue({ kind: 'invalid-turn', reason: 'r' }, [null]),
    accountDialogue({ kind: 'invalid-turn', reason: 'truncated answer (finish_reason: length)' }, ['strict', null]),
    accountDialogue({ kind: 'turn-cap' }, ['strict']),
    accountDialogue({ kind: 'patient-failure', reason: 'p' }, ['strict']),
  ];
  const evaluable = rows.filter((r) => !r.patient_failed);
  assert.equal(evaluable.length, 6);
  assert.equal(evaluable.filter((r) => r.success === true).length, 3);
  assert.equal(evaluable.filter((r) => r.success_strict === true).length, 1);
  // Strict success implies lenient success; null exactly for the patient failure.
  for (const r of rows) {
    if (r.success_strict) assert.equal(r.success, true);
    assert.equal(r.success === null, r.patient_failed);
    assert.equal(r.success_strict === null, r.patient_failed);
  }
});

test('accountDialogue refuses a format that is not a reader label', () => {
  assert.throws(() => accountDialogue({ kind: 'turn-cap' }, ['bold']), /unknown answer-format label "bold"/);
});
