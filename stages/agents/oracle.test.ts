import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { referenceQuestions } from '../construct/reference-questions.ts';
import { parseSingleTurn } from '../tasks/parse-single-turn.ts';
import { parseDoctorTurn } from '../tasks/parse-doctor-turn.ts';
import { conditionQuestion, DOCTOR_NOT_DETERMINABLE } from './answer-writing.ts';
import { createPatientHandler } from './offline-patient.ts';
import { createOracleHandler, oracleDoctorTurn, oracleSingleTurn } from './oracle.ts';
import { writeNarrative } from './writers/narrative-writer.ts';
import {
  ask,
  buildFixture,
  doctorSystem,
  HTN_TREE,
  markdownOf,
  patientSystem,
  runDialogue,
  singleTurnPrompt,
} from './testing/benchmark-cases.ts';

const fx = buildFixture();
const oracle = createOracleHandler();
const patient = createPatientHandler();
const all = [...fx.htn, ...fx.insomnia];

describe('oracle, single-turn', () => {
  test('answers parse and reproduce every reference pathway and conclusion', async () => {
    assert.equal(all.length, 9);
    for (const cdp of all) {
      const raw = await ask(oracle, [{ role: 'user', content: singleTurnPrompt(markdownOf(cdp), fx.vignetteOf(cdp)) }], fx.unit(cdp));
      const parsed = parseSingleTurn(raw);
      assert.ok(parsed.ok, `${cdp.cdp_id}: ${raw}`);
      assert.equal(parsed.outcome, cdp.conclusion);
      // The single-turn reference is the narrative's first m statements: the oracle's steps are them.
      assert.deepEqual(parsed.steps, writeNarrative(cdp).steps.slice(0, cdp.steps.length));
      parsed.steps.forEach((step, i) => {
        const s = cdp.steps[i]!;
        const zh = /[\u3400-\u9fff]/.test(s.condition);
        const criterion = conditionQuestion(s.condition).replace(/[?？]$/, '');
        const verdict = zh
          ? `${s.decision_outcome === 'yes' ? '符合' : '不符合'}“${criterion}”`
          : `"${criterion}?" is ${s.decision_outcome === 'yes' ? '' : 'not '}met`;
        assert.ok(step.includes(verdict), `${cdp.cdp_id} step ${i + 1}: ${step}`);
      });
    }
  });

  test('each step is the reference reasoning statement: the case fact and the criterion met or not', () => {
    const cdp = fx.htn.find((c) => c.leaf_index === 8)!;
    const answer = oracleSingleTurn(cdp, fx.vignetteOf(cdp));
    const q = 'No guideline statement is quoted for this criterion';
    assert.equal(
      answer,
      [
        '### Clinical Decision Process:',
        `1. ${q}; systolic blood pressure was 150 mmHg, so the criterion "Is systolic blood pressure ≥140 mmHg?" is met.`,
        `2. ${q}; the patient had diabetes, so the criterion "Does the patient have diabetes?" is met.`,
        `3. ${q}; the patient was 70 years old, so the criterion "Is the patient older than 65 years?" is met.`,
        '### Clinical Decision Outcome: Start an ACE inhibitor at a low dose.',
      ].join('\n'),
    );
    const zh = fx.insomnia.find((c) => c.leaf_index === 5)!;
    assert.equal(
      oracleSingleTurn(zh, fx.vignetteOf(zh)).split('\n')[2],
      '2. 该标准未引用指南原文；患者不存在日间功能损害，因此不符合“是否存在日间功能损害”这一标准。',
    );
  });

  test('it answers from the reference, so a vignette that contradicts it changes nothing', () => {
    const cdp = fx.htn.find((c) => c.leaf_index === 8)!;
    const contradicting = oracleSingleTurn(cdp, 'Systolic blood pressure was 120 mmHg. The patient had diabetes.');
    assert.equal(contradicting, oracleSingleTurn(cdp, fx.vignetteOf(cdp)));
  });

  test('a call without a unit context gets a not-applicable answer that fails parsing for lack of steps', async () => {
    const raw = await ask(oracle, [{ role: 'user', content: singleTurnPrompt(markdownOf(fx.htn[0]!), 'A case nobody wrote.') }]);
    const parsed = parseSingleTurn(raw);
    assert.equal(parsed.ok, false);
    assert.equal(parsed.outcome, 'The guideline is not applicable.');
    const unrelated = await ask(oracle, [{ role: 'user', content: 'What is the capital of France?' }]);
    assert.equal(parseSingleTurn(unrelated).ok, false);
  });
});

describe('oracle, multi-turn with the offline patient', () => {
  test('reproduces every reference questioning pathway and conclusion', async () => {
    for (const cdp of all) {
      const goal = `The clinical question concerns ${cdp.focus}.`;
      const result = await runDialogue(
        oracle,
        patient,
        doctorSystem(markdownOf(cdp), goal),
        patientSystem(fx.vignetteOf(cdp)),
        30,
        fx.unit(cdp),
        goal,
      );
      assert.equal(result.failure, undefined, cdp.cdp_id);
      assert.deepEqual(result.questions, referenceQuestions(cdp), cdp.cdp_id);
      assert.deepEqual(
        result.answers,
        cdp.steps.map((s) => (s.decision_outcome === 'yes' ? 'Yes' : 'No')),
      );
      assert.equal(result.conclusion, cdp.conclusion);
    }
  });

  test('walks the tree on the answers given', () => {
    assert.equal(oracleDoctorTurn(HTN_TREE, []), 'Is systolic blood pressure ≥140 mmHg?');
    assert.equal(oracleDoctorTurn(HTN_TREE, [{ question: 'q', answer: 'no' }]), 'Is BMI ≥ 30 kg/m²?');
    const done = oracleDoctorTurn(HTN_TREE, [
      { question: 'q', answer: 'no' },
      { question: 'q', answer: 'no' },
    ]);
    assert.deepEqual(parseDoctorTurn(done), { kind: 'conclusion', conclusion: 'Recheck blood pressure in five years.', format: 'strict' });
  });

  test('a guideline without a tree (or no context) gets the rule-11 conclusion', async () => {
    const noTree = { ...fx.unit(fx.htn[0]!), tree: null, dialogue: [] };
    assert.deepEqual(
      parseDoctorTurn(await ask(oracle, [{ role: 'system', content: doctorSystem('# G', 'diagnosis') }], noTree)).kind,
      'conclusion',
    );
    const raw = await ask(oracle, [{ role: 'system', content: doctorSystem('# Some other guideline', 'diagnosis') }]);
    assert.deepEqual(parseDoctorTurn(raw), { kind: 'conclusion', conclusion: DOCTOR_NOT_DETERMINABLE, format: 'strict' });
  });
});
