import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { referenceQuestions } from '../construct/reference-questions.ts';
import { parseSingleTurn } from '../tasks/parse-single-turn.ts';
import { conditionQuestion, DOCTOR_NOT_DETERMINABLE } from './answer-writing.ts';
import { doctorQuestion } from './doctor-question.ts';
import { createPatientHandler } from './offline-patient.ts';
import { countDeviations, deviationsOf } from './perturb.ts';
import { createPerturbationHandler, planCase, questionsOf } from './perturbation-agent.ts';
import { oracleStatements } from './oracle.ts';
import { caseSeed, fnv1a, profileFromName, type PerturbationProfile } from './perturbation-profile.ts';
import {
  ask,
  buildFixture,
  doctorSystem,
  HTN_TREE,
  INSOMNIA_TREE,
  markdownOf,
  patientSystem,
  runDialogue,
  singleTurnPrompt,
} from './testing/benchmark-cases.ts';
import { offPathConditions, otherConclusions } from './tree-facts.ts';

const fx = buildFixture();
const all = [...fx.htn, ...fx.insomnia];
const treeOf = (c: { guideline_id: string }) => (c.guideline_id === 'htn' ? HTN_TREE : INSOMNIA_TREE);
/** The plan an agent follows on a fixture case, as agent_plans computes it. */
function planFor(agent: string | PerturbationProfile, cdpId: string) {
  const cdp = all.find((c) => c.cdp_id === cdpId)!;
  return planCase(typeof agent === 'string' ? profileFromName(agent) : agent, cdp, treeOf(cdp));
}

describe('profiles', () => {
  test('names carry the rates', () => {
    assert.deepEqual(profileFromName('simulated-omission-0.3').rates, { omission: 0.3, redundancy: 0, skipping: 0, reversal: 0 });
    const mixed = profileFromName('simulated-mixed-0.15-wrong-0.2');
    assert.deepEqual(mixed.rates, { omission: 0.15, redundancy: 0.15, skipping: 0.15, reversal: 0.15 });
    assert.equal(mixed.wrongOutcomeRate, 0.2);
    assert.deepEqual(profileFromName('simulated-oracle').rates, { omission: 0, redundancy: 0, skipping: 0, reversal: 0 });
    assert.equal(profileFromName('simulated-reversal-1').rates.reversal, 1);
    assert.equal(profileFromName('simulated-skipping-0.3').seed, fnv1a('simulated-skipping-0.3'));
  });

  test('bad names are refused with the grammar', () => {
    for (const bad of [
      'simulated-omission-1.5',
      'simulated-omission',
      'omission-0.3',
      'simulated-typo-0.3',
      'simulated-mixed-0.2-wrong-2',
    ]) {
      assert.throws(() => profileFromName(bad), /simulated-<omission\|redundancy\|skipping\|reversal\|mixed>-<rate>/, bad);
    }
  });

  test('FNV-1a matches its published test vectors', () => {
    assert.equal(fnv1a(''), 0x811c9dc5);
    assert.equal(fnv1a('a'), 0xe40c292c);
    assert.equal(fnv1a('foobar'), 0xbf9cf968);
    assert.notEqual(caseSeed(1, 'cdp-a', 'steps'), caseSeed(1, 'cdp-b', 'steps'));
    assert.notEqual(caseSeed(1, 'cdp-a', 'steps'), caseSeed(1, 'cdp-a', 'outcome'));
  });
});

describe('planFor', () => {
  test('is deterministic per agent and case, and its mapping is exact', () => {
    for (const name of ['simulated-mixed-0.5', 'simulated-redundancy-1', 'simulated-omission-0.3']) {
      for (const cdp of all) {
        const plan = planFor(name, cdp.cdp_id);
        assert.deepEqual(planFor(name, cdp.cdp_id), plan);
        assert.equal(plan.m, cdp.steps.length);
        assert.deepEqual(deviationsOf(plan.mapping, plan.m), countDeviations(plan.deviations));
        const pool = offPathConditions(treeOf(cdp), cdp);
        plan.mapping.forEach((k, j) => {
          if (k !== null) assert.equal(plan.steps[j], cdp.steps[k]!.condition);
          else assert.ok(pool.includes(plan.steps[j]!) || cdp.steps.some((s) => s.condition === plan.steps[j]));
        });
      }
    }
  });

  test("the oracle's plan is the reference itself", () => {
    for (const cdp of all) {
      const plan = planFor('simulated-oracle', cdp.cdp_id);
      assert.deepEqual(
        plan.mapping,
        cdp.steps.map((_, i) => i),
      );
      assert.deepEqual(plan.deviations, []);
      assert.equal(plan.conclusion, cdp.conclusion);
      assert.deepEqual(questionsOf(plan), referenceQuestions(cdp));
    }
  });

  test('redundant steps come from elsewhere in the tree', () => {
    const cdp = fx.htn.find((c) => c.leaf_index === 7)!; // root no → BMI no
    assert.deepEqual(offPathConditions(HTN_TREE, cdp), [
      'Does the patient have diabetes?',
      'Is the patient older than 65 years?',
      'Is there evidence of end-organ damage?',
    ]);
    const plan = planFor('simulated-redundancy-1', cdp.cdp_id);
    assert.deepEqual(plan.mapping, [0, null, 1, null]);
    for (const j of [1, 3]) assert.ok(offPathConditions(HTN_TREE, cdp).includes(plan.steps[j]!));
    assert.notEqual(plan.steps[1], plan.steps[3]);
  });

  test('a wrong outcome is another leaf of the same tree; rate 0 keeps the reference', () => {
    for (const cdp of all) {
      const wrong = planFor('simulated-mixed-0-wrong-1', cdp.cdp_id);
      assert.equal(wrong.wrongOutcome, true);
      assert.ok(otherConclusions(treeOf(cdp), cdp.conclusion).includes(wrong.conclusion));
      assert.deepEqual(
        wrong.mapping,
        cdp.steps.map((_, i) => i),
      );
      const right = planFor('simulated-mixed-0', cdp.cdp_id);
      assert.equal(right.conclusion, cdp.conclusion);
      assert.equal(right.wrongOutcome, false);
    }
  });

  test('the wrong-outcome rate does not change the step plan', () => {
    const base = profileFromName('simulated-mixed-0.5');
    for (const cdp of all) {
      const a = planFor(base, cdp.cdp_id);
      const b = planFor({ ...base, wrongOutcomeRate: 1 }, cdp.cdp_id);
      assert.deepEqual(b.mapping, a.mapping);
      assert.deepEqual(b.steps, a.steps);
    }
  });
});

describe('perturbation agents answer their plan', () => {
  test('single-turn: the plan steps in Prompt 4 format with the plan conclusion', async () => {
    for (const name of ['simulated-mixed-0.5-wrong-0.5', 'simulated-reversal-1', 'simulated-skipping-1']) {
      const handler = createPerturbationHandler(name);
      for (const cdp of all) {
        const plan = planFor(name, cdp.cdp_id);
        const parsed = parseSingleTurn(
          await ask(handler, [{ role: 'user', content: singleTurnPrompt(markdownOf(cdp), fx.vignetteOf(cdp)) }], fx.unit(cdp)),
        );
        assert.ok(parsed.ok, `${name} ${cdp.cdp_id}`);
        assert.equal(parsed.outcome, plan.conclusion);
        assert.equal(parsed.steps.length, plan.steps.length);
        // A reference step is the oracle's statement for it; an inserted one is asked as the walker would.
        const statements = oracleStatements(cdp, fx.vignetteOf(cdp));
        parsed.steps.forEach((s, j) => {
          const ref = plan.mapping[j];
          if (ref === null || ref === undefined) assert.ok(s.startsWith(conditionQuestion(plan.steps[j]!)), `${s} vs ${plan.steps[j]}`);
          else assert.equal(s, statements[ref]);
        });
      }
    }
  });

  test('single-turn reversal at rate 1 on a three-step path swaps the first two', async () => {
    const cdp = fx.htn.find((c) => c.leaf_index === 8)!;
    const handler = createPerturbationHandler('simulated-reversal-1');
    const parsed = parseSingleTurn(
      await ask(handler, [{ role: 'user', content: singleTurnPrompt(markdownOf(cdp), fx.vignetteOf(cdp)) }], fx.unit(cdp)),
    );
    assert.ok(parsed.ok);
    const q = 'No guideline statement is quoted for this criterion';
    assert.deepEqual(parsed.steps, [
      `${q}; the patient had diabetes, so the criterion "Does the patient have diabetes?" is met.`,
      `${q}; systolic blood pressure was 150 mmHg, so the criterion "Is systolic blood pressure ≥140 mmHg?" is met.`,
      `${q}; the patient was 70 years old, so the criterion "Is the patient older than 65 years?" is met.`,
    ]);
  });

  test('multi-turn with the unit context: asks the plan, then concludes', async () => {
    const patient = createPatientHandler();
    for (const name of ['simulated-mixed-0.5-wrong-0.3', 'simulated-omission-1', 'simulated-redundancy-0.5']) {
      const doctor = createPerturbationHandler(name);
      for (const cdp of all) {
        const plan = planFor(name, cdp.cdp_id);
        const r = await runDialogue(
          doctor,
          patient,
          doctorSystem(markdownOf(cdp), 'goal'),
          patientSystem(fx.vignetteOf(cdp)),
          30,
          fx.unit(cdp),
        );
        assert.equal(r.failure, undefined);
        assert.deepEqual(
          r.questions,
          plan.steps.map((s) => doctorQuestion(s)),
        );
        assert.deepEqual(r.questions, questionsOf(plan));
        assert.equal(r.conclusion, plan.conclusion);
        // Questions mapped to reference steps are exactly the reference questions, and the patient answers them as the path says.
        const ref = referenceQuestions(cdp);
        plan.mapping.forEach((k, j) => {
          if (k === null) return;
          assert.equal(r.questions[j], ref[k]);
          assert.equal(r.answers[j], cdp.steps[k]!.decision_outcome === 'yes' ? 'Yes' : 'No');
        });
      }
    }
  });

  test('multi-turn without a unit context: an honest rule-11 conclusion', async () => {
    const doctor = createPerturbationHandler('simulated-omission-0.3');
    const r = await runDialogue(
      doctor,
      createPatientHandler(),
      doctorSystem(markdownOf(fx.htn[0]!), 'The clinical question concerns management.'),
      patientSystem(fx.vignetteOf(fx.htn[0]!)),
    );
    assert.deepEqual(r, { questions: [], answers: [], conclusion: DOCTOR_NOT_DETERMINABLE });
  });
});
