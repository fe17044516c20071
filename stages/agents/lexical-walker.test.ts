import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeVignette } from './writers/vignette-writer.ts';
import { randomCdps } from '../construct/testing/sample-cdps.ts';
import { parseSingleTurn } from '../tasks/parse-single-turn.ts';
import { parseDoctorTurn } from '../tasks/parse-doctor-turn.ts';
import { createWalkerHandler, lexicalWalk, walkerDoctorTurn, walkerSingleTurn } from './lexical-walker.ts';
import { answerFromVignette } from './vignette-answer.ts';
import {
  ask,
  buildFixture,
  doctorSystem,
  HTN_MARKDOWN,
  HTN_TREE,
  INSOMNIA_TREE,
  runDialogue,
  patientSystem,
  singleTurnPrompt,
} from './testing/benchmark-cases.ts';
import { createPatientHandler } from './offline-patient.ts';

const path = (tree: Parameters<typeof lexicalWalk>[0], vignette: string) => {
  const w = lexicalWalk(tree, vignette);
  return { answers: w.steps.map((s) => `${s.node_index}:${s.answer}:${s.via}`), leaf: w.leaf_index };
};

describe('lexical walk on hand-written vignettes', () => {
  test('numbers in free text: an A/B blood pressure, a hyphenated age', () => {
    const v = 'A 70-year-old patient presented with a blood pressure of 152/94 mmHg. The patient had type 2 diabetes.';
    assert.deepEqual(path(HTN_TREE, v), { answers: ['1:yes:numeric', '2:yes:lexical', '4:yes:numeric'], leaf: 8 });
    const younger = v.replace('70-year-old', '58-year-old');
    assert.equal(path(HTN_TREE, younger).leaf, 9);
  });

  test('below a threshold, and a unit written without the superscript', () => {
    const v = 'Blood pressure was 128/82 mmHg. BMI was 33.1 kg/m2 and the patient reported no chest pain.';
    assert.deepEqual(path(HTN_TREE, v), { answers: ['1:no:numeric', '3:yes:numeric'], leaf: 6 });
    assert.equal(path(HTN_TREE, v.replace('33.1', '29.9')).leaf, 7);
  });

  test('negation cues answer "no"; an unmentioned finding defaults to "no"', () => {
    const v = 'Systolic pressure 150 mmHg. The patient denied any history of diabetes. No evidence of end-organ damage was found.';
    assert.deepEqual(path(HTN_TREE, v), { answers: ['1:yes:numeric', '2:no:lexical', '5:no:lexical'], leaf: 11 });
    const silent = 'Systolic pressure 150 mmHg.';
    assert.deepEqual(path(HTN_TREE, silent), { answers: ['1:yes:numeric', '2:no:none', '5:no:none'], leaf: 11 });
  });

  test('Chinese: a duration in 个月 and a clause with its own negation', () => {
    assert.deepEqual(path(INSOMNIA_TREE, '患者失眠症状已持续5个月，存在明显的日间功能损害。'), {
      answers: ['1:yes:numeric', '2:yes:lexical'],
      leaf: 4,
    });
    assert.deepEqual(path(INSOMNIA_TREE, '患者失眠症状已持续5个月，无日间功能损害。'), {
      answers: ['1:yes:numeric', '2:no:lexical'],
      leaf: 5,
    });
    assert.deepEqual(path(INSOMNIA_TREE, '患者症状持续6周。'), { answers: ['1:no:numeric'], leaf: 3 });
  });

  test('durations convert between units, and a systolic question ignores a diastolic-only clause', () => {
    assert.equal(answerFromVignette('Has pain persisted for more than 3 months?', 'Pain had persisted for 16 weeks.').answer, 'yes');
    assert.equal(answerFromVignette('Has pain persisted for more than 3 months?', 'Pain had persisted for 10 weeks.').answer, 'no');
    assert.deepEqual(answerFromVignette('Is systolic blood pressure ≥140 mmHg?', 'Diastolic blood pressure was 150 mmHg.').via, 'none');
  });

  test('every step of offline-written vignettes is answered as its path says', () => {
    let steps = 0;
    for (const cdp of randomCdps(120, 11)) {
      const v = writeVignette(cdp);
      if (v.problems.length) continue;
      for (const s of cdp.steps) {
        steps++;
        assert.equal(answerFromVignette(s.condition, v.vignette).answer, s.decision_outcome, `${s.condition} in "${v.vignette}"`);
      }
    }
    assert.ok(steps > 200, `${steps} steps checked`);
  });
});

describe('walker answers', () => {
  const fx = buildFixture();
  const handler = createWalkerHandler();
  const unitWith = (vignette: string) => ({ ...fx.unit(fx.htn[0]!), vignette });

  test('single-turn: its walk as parseable steps with facts, and the leaf as outcome', async () => {
    const v = 'A 70-year-old patient presented with a blood pressure of 152/94 mmHg. The patient had type 2 diabetes.';
    const raw = await ask(handler, [{ role: 'user', content: singleTurnPrompt(HTN_MARKDOWN, v) }], unitWith(v));
    assert.equal(raw, walkerSingleTurn(HTN_TREE, v));
    const parsed = parseSingleTurn(raw);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.steps, [
      'Is systolic blood pressure ≥140 mmHg? Yes — a 70-year-old patient presented with a blood pressure of 152/94 mmHg.',
      'Does the patient have diabetes? Yes — the patient had type 2 diabetes.',
      'Is the patient older than 65 years? Yes — a 70-year-old patient presented with a blood pressure of 152/94 mmHg.',
    ]);
    assert.equal(parsed.outcome, 'Start an ACE inhibitor at a low dose.');
  });

  test('single-turn in any prompt wording: the walk reads the context, never the prompt', async () => {
    const cdp = fx.htn.find((c) => c.leaf_index === 10)!;
    const raw = await ask(handler, [{ role: 'user', content: 'Read the attached case.' }], fx.unit(cdp));
    const parsed = parseSingleTurn(raw);
    assert.ok(parsed.ok);
    assert.equal(parsed.outcome, cdp.conclusion);
    assert.equal(
      parseSingleTurn(await ask(handler, [{ role: 'user', content: singleTurnPrompt(HTN_MARKDOWN, fx.vignetteOf(cdp)) }])).ok,
      false,
      'no context: not applicable',
    );
  });

  test('multi-turn: asks what the goal does not decide, and reaches the case leaf with the offline patient', async () => {
    for (const cdp of fx.htn) {
      const goal = 'The clinical question concerns management.';
      const r = await runDialogue(
        handler,
        createPatientHandler(),
        doctorSystem(HTN_MARKDOWN, goal),
        patientSystem(fx.vignetteOf(cdp)),
        30,
        fx.unit(cdp),
        goal,
      );
      assert.equal(r.conclusion, cdp.conclusion);
      assert.equal(r.questions.length, cdp.steps.length);
    }
    // A goal stating the blood pressure settles the first node without a question.
    const turn = walkerDoctorTurn(HTN_TREE, 'Systolic blood pressure was 128 mmHg; what should be done?', []);
    assert.equal(turn, 'Is BMI ≥ 30 kg/m²?');
    assert.deepEqual(
      parseDoctorTurn(
        walkerDoctorTurn(HTN_TREE, '', [
          { question: 'q', answer: 'no' },
          { question: 'q', answer: 'yes' },
        ]),
      ),
      {
        kind: 'conclusion',
        conclusion: 'Offer lifestyle advice for weight loss.',
        format: 'strict',
      },
    );
  });
});
