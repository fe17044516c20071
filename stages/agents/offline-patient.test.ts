import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { referenceQuestions } from '../construct/reference-questions.ts';
import { makeCdp } from '../construct/testing/sample-cdps.ts';
import { patientMessages } from '../prompts/dialogue-messages.ts';
import { parsePatientAnswer } from '../tasks/parse-patient-answer.ts';
import { answerQuestion, createPatientHandler, matchPathStep } from './offline-patient.ts';
import { buildFixture, patientSystem } from './testing/benchmark-cases.ts';
import type { UnitContext } from '../tasks/unit-context.ts';

// A path whose vignette deliberately disagrees with it on diabetes, so the tests can tell which
// source an answer came from.
const cdp = makeCdp('en', [
  ['Is systolic blood pressure ≥140 mmHg?', 'yes'],
  ['Does the patient have diabetes?', 'yes'],
  ['Is BMI ≥ 30 kg/m²?', 'no'],
]);
const vignette =
  'Systolic blood pressure was 152 mmHg. The patient did not have diabetes. BMI was 27 kg/m². The patient was taking benzodiazepines.';

describe('answerQuestion', () => {
  test('the reference question of a path step is answered with its outcome', () => {
    const qs = referenceQuestions(cdp);
    assert.deepEqual(answerQuestion(cdp, vignette, qs[1]!), { answer: 'Yes', via: 'path', node_index: 2 });
    assert.deepEqual(answerQuestion(cdp, vignette, qs[2]!), { answer: 'No', via: 'path', node_index: 3 });
    // The bare condition, in another case and spacing, is an exact match too.
    assert.deepEqual(answerQuestion(cdp, vignette, '  does the patient HAVE diabetes ?'), { answer: 'Yes', via: 'path', node_index: 2 });
  });

  test('a paraphrase over the Dice threshold matches; a negated one is answered flipped', () => {
    assert.deepEqual(answerQuestion(cdp, vignette, "Is the patient's systolic blood pressure 140 mmHg or higher?"), {
      answer: 'Yes',
      via: 'path',
      node_index: 1,
    });
    assert.deepEqual(answerQuestion(cdp, vignette, 'Is the patient free of diabetes?'), { answer: 'No', via: 'path', node_index: 2 });
    assert.deepEqual(matchPathStep(cdp, 'Do they have diabetes?'), { step: 1, exact: false });
    // Below the threshold: 2 of 3 tokens shared (Dice 0.67) is another disease, not the same step.
    const ckd = makeCdp('en', [['Does the patient have chronic heart disease?', 'yes']]);
    assert.equal(matchPathStep(ckd, 'Does the patient have chronic kidney disease?'), null);
    assert.deepEqual(answerQuestion(ckd, 'The patient had chronic heart disease.', 'Does the patient have chronic kidney disease?'), {
      answer: 'No',
      via: 'default',
    });
  });

  test('a question with other numbers is not a path match: the vignette value decides', () => {
    assert.equal(matchPathStep(cdp, 'Is BMI ≥ 25 kg/m²?'), null);
    assert.deepEqual(answerQuestion(cdp, vignette, 'Is BMI ≥ 25 kg/m²?'), { answer: 'Yes', via: 'vignette' });
    assert.deepEqual(answerQuestion(cdp, vignette, 'Is systolic blood pressure ≥ 160 mmHg?'), { answer: 'No', via: 'vignette' });
  });

  test('questions off the path are answered from the vignette, else "No" by default', () => {
    assert.deepEqual(answerQuestion(cdp, vignette, 'Is the patient taking benzodiazepines?'), { answer: 'Yes', via: 'vignette' });
    assert.deepEqual(answerQuestion(cdp, vignette, 'Does the patient smoke?'), { answer: 'No', via: 'default' });
    // Without a placed case, the path step is unknown and the vignette's contrary statement wins.
    assert.deepEqual(answerQuestion(null, vignette, 'Does the patient have diabetes?'), { answer: 'No', via: 'vignette' });
  });
});

describe('patient handler', () => {
  const fx = buildFixture();
  const provider = createPatientHandler();
  const call = (messages: ReturnType<typeof patientMessages>, context?: UnitContext) =>
    provider.callApi({ model: 'simulated-patient', messages }, context);

  test('answers from the unit context with one parseable word, and reports how it decided', async () => {
    for (const c of [...fx.htn, ...fx.insomnia]) {
      const system = patientSystem(fx.vignetteOf(c));
      const questions = referenceQuestions(c);
      for (let i = 0; i < questions.length; i++) {
        const turns = [
          ...questions.slice(0, i).map((q, k) => ({ question: q, answer: c.steps[k]!.decision_outcome === 'yes' ? 'Yes' : 'No' })),
          { question: questions[i]! },
        ];
        const r = await call(patientMessages(system, turns), { ...fx.unit(c), question: questions[i]! });
        const reply = r.output;
        assert.ok(reply === 'Yes' || reply === 'No', reply);
        assert.deepEqual(r.metadata, { via: 'path', node: c.steps[i]!.node_index }, 'a reference question matches its own path step');
        assert.deepEqual(parsePatientAnswer(reply), {
          ok: true,
          answer: c.steps[i]!.decision_outcome === 'yes' ? 'Yes' : 'No',
          format: 'strict',
        });
      }
    }
  });

  test('off the path it answers from the context’s vignette, and without a context it answers "No"', async () => {
    const v = 'The patient was 81 years old and had no fever.';
    const system = patientSystem(v);
    const unit = { ...fx.unit(fx.htn[0]!), cdp: { ...fx.htn[0]!, steps: [] }, vignette: v };
    const ask = async (q: string) => (await call(patientMessages(system, [{ question: q }]), { ...unit, question: q })).metadata;
    assert.deepEqual(await ask('Is the patient older than 65 years?'), { via: 'vignette', node: null });
    assert.deepEqual(await ask('Is the patient pregnant?'), { via: 'default', node: null });
    const older = await call(patientMessages(system, [{ question: 'Is the patient older than 65 years?' }]), {
      ...unit,
      question: 'Is the patient older than 65 years?',
    });
    assert.equal(older.output, 'Yes');
    const bare = await call(patientMessages(system, [{ question: 'Is the patient older than 65 years?' }]));
    assert.deepEqual([bare.output, bare.metadata], ['No', { via: 'default', node: null }], 'no context: no case, no vignette');
  });
});
