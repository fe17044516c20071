import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { chooseValues, formatNumber, pickValue, writeValuesInto, type NumericStepInput } from './numeric-chooser.ts';
import { complementSet, containsValue, interval, tagBounds } from './numeric-interval.ts';
import { parseThresholds } from './numeric-threshold.ts';
import { createRng } from '../stats/rng.ts';

const step = (condition: string, decision_outcome: 'yes' | 'no'): NumericStepInput => ({ condition, decision_outcome });

/** The value chosen for the only indicator of a path. */
function only(steps: NumericStepInput[]): number | null {
  const plan = chooseValues(steps);
  assert.equal(plan.groups.length, 1, `expected one indicator, got ${plan.groups.map((g) => g.key).join(', ')}`);
  return plan.groups[0]!.value;
}

describe('chooseValues: single steps (the documented rule)', () => {
  const cases: Array<[string, number, number]> = [
    // condition, value for yes, value for no
    ["Is the patient's BMI ≥ 30 kg/m²?", 32, 27],
    ['Is systolic blood pressure ≥140 mmHg?', 150, 126],
    ['Is BMI ≥ 23 kg/m²?', 25, 21],
    ['Is BMI ≥ 27.5 kg/m²?', 29, 25],
    ['Is the dosage ≥ 50 MME/day?', 54, 45],
    ['Has pain persisted for more than 3 months after surgery?', 4, 2],
    ['失眠症状是否每周至少出现3次？', 4, 2],
    ['症状是否持续至少3个月？', 4, 2],
    ['Is serum creatinine > 1.5 mg/dL?', 1.6, 1.4],
    ['Is HbA1c ≥ 6.5%?', 7, 6],
    ['Is the patient younger than 18 years?', 17, 20],
    ['Is the T-score ≤ −2.5?', -2.7, -2.2],
  ];
  for (const [c, yes, no] of cases) {
    test(c, () => {
      assert.equal(only([step(c, 'yes')]), yes);
      assert.equal(only([step(c, 'no')]), no);
    });
  }
  test('a range: yes goes near the lower bound, no to the lower outside piece', () => {
    assert.equal(only([step('Is the patient aged 30–79 years?', 'yes')]), 32);
    assert.equal(only([step('Is the patient aged 30–79 years?', 'no')]), 27);
    assert.equal(only([step('Is systolic blood pressure 130–139 mmHg?', 'yes')]), 135);
    assert.equal(only([step('Is systolic blood pressure 130–139 mmHg?', 'no')]), 117);
  });
  test('"no" to a threshold at the bottom of the domain uses the upper piece', () => {
    // Outside [0, 5] within the non-negative domain is (5, ∞).
    assert.equal(only([step('Is the score between 0 and 5 points?', 'no')]), 6);
    assert.equal(only([step('Is the score between 0 and 5 points?', 'yes')]), 1);
    // Outside [1 week, 1 month): "0 weeks" would read as never started, so the upper piece.
    assert.equal(only([step('Has opioid therapy continued for ≥1 week but <1 month?', 'no')]), 5);
    assert.equal(only([step('Has opioid therapy continued for ≥1 week but <1 month?', 'yes')]), 2);
  });
  test('plausibility limits: percentiles and percentages stay ≤ 100', () => {
    assert.equal(only([step('Is BMI ≥95th percentile?', 'yes')]), 98);
    assert.equal(only([step('Is oxygen saturation ≥ 96%?', 'yes')]), 98);
    assert.equal(only([step('Is the follow-up duration 6 to <12 months?', 'yes')]), 7);
  });
});

describe('chooseValues: several steps on one indicator', () => {
  test('BMI ≥ 23 yes then ≥ 27.5 no intersects to [23, 27.5)', () => {
    const plan = chooseValues([step('Is BMI ≥ 23 kg/m²?', 'yes'), step('Is BMI ≥ 27.5 kg/m²?', 'no')]);
    assert.equal(plan.groups.length, 1);
    assert.equal(plan.groups[0]!.value, 25);
    assert.deepEqual(plan.groups[0]!.steps, [0, 1]);
    assert.deepEqual(plan.problems, []);
  });
  test('three steps: ≥ 23 yes, ≥ 27.5 no, < 25 yes', () => {
    assert.equal(only([step('Is BMI ≥ 23 kg/m²?', 'yes'), step('Is BMI ≥ 27.5 kg/m²?', 'no'), step('Is BMI < 25 kg/m²?', 'yes')]), 24);
  });
  test('three steps that leave a narrow integer window', () => {
    const v = only([
      step('Is the patient aged ≥ 60 years?', 'yes'),
      step('Is the patient older than 61 years?', 'no'),
      step('Is the patient aged 18–79 years?', 'yes'),
    ]);
    assert.ok(v === 60 || v === 61, `got ${v}`);
  });
  test('the same indicator phrased more specifically is matched ("dosage" / "opioid dosage")', () => {
    const plan = chooseValues([step('Is the dosage ≥ 50 MME/day?', 'yes'), step('Is the opioid dosage ≥ 90 MME/day?', 'no')]);
    assert.equal(plan.groups.length, 1);
    assert.equal(plan.groups[0]!.value, 54);
  });
  test('systolic and diastolic are never merged', () => {
    const plan = chooseValues([
      step('Is systolic blood pressure ≥ 140 mmHg?', 'yes'),
      step('Is diastolic blood pressure ≥ 90 mmHg?', 'no'),
    ]);
    assert.deepEqual(
      plan.groups.map((g) => [g.key, g.value]),
      [
        ['systolic blood pressure', 150],
        ['diastolic blood pressure', 81],
      ],
    );
  });
  test('durations in weeks and months are intersected after conversion', () => {
    const plan = chooseValues([
      step('Has pain persisted for more than 3 months?', 'yes'),
      step('Has pain persisted for more than 26 weeks?', 'no'),
    ]);
    assert.equal(plan.groups.length, 1);
    assert.equal(plan.groups[0]!.unit.canonical, 'months');
    // (3, 26 weeks ≈ 5.98 months] → whole months 4 or 5.
    assert.equal(plan.groups[0]!.value, 4);
    assert.equal(writeValuesInto(plan, 1, 'Has pain persisted for more than 26 weeks?'), 'Has pain persisted for 4 months?');
  });
});

describe('chooseValues: contradictions are reported, not papered over', () => {
  test('≥ 30 yes then ≥ 25 no is empty', () => {
    const plan = chooseValues([step('Is BMI ≥ 30 kg/m²?', 'yes'), step('Is BMI ≥ 25 kg/m²?', 'no')]);
    assert.equal(plan.groups[0]!.value, null);
    assert.equal(plan.problems.length, 1);
    assert.match(plan.problems[0]!, /^contradictory path: "bmi"/);
    assert.match(plan.problems[0]!, /step 2/);
  });
  test('open bounds that only touch are empty: > 3 months yes, ≥ 3 months... no at > 3', () => {
    const plan = chooseValues([
      step('Has pain persisted for more than 3 months?', 'yes'),
      step('Has pain persisted for at least 4 months?', 'no'),
    ]);
    assert.equal(plan.groups[0]!.value, null, '(3, 4) holds no whole month');
    assert.match(plan.problems[0]!, /no plausible value/);
  });
  test('a value is not written into the text when there is none', () => {
    const plan = chooseValues([step('Is BMI ≥ 30 kg/m²?', 'yes'), step('Is BMI < 30 kg/m²?', 'yes')]);
    assert.equal(writeValuesInto(plan, 1, 'Is BMI < 30 kg/m²?'), 'Is BMI < 30 kg/m²?');
  });
  test('a non-numeric path has no indicators and no problems', () => {
    const plan = chooseValues([step('Is the patient pregnant?', 'no')]);
    assert.deepEqual(plan.groups, []);
    assert.deepEqual(plan.problems, []);
  });
});

describe('chooseValues: A/B pairs and several thresholds in one condition', () => {
  test('≥140/90 yes puts both values inside, no puts both outside', () => {
    const yes = chooseValues([step('Is blood pressure ≥140/90 mmHg?', 'yes')]);
    assert.deepEqual(
      yes.groups.map((g) => g.value),
      [150, 96],
    );
    assert.equal(writeValuesInto(yes, 0, 'Is blood pressure ≥140/90 mmHg?'), 'Is blood pressure 150/96 mmHg?');
    const no = chooseValues([step('Is blood pressure ≥140/90 mmHg?', 'no')]);
    assert.deepEqual(
      no.groups.map((g) => g.value),
      [126, 81],
    );
  });
  test('a pair shares its systolic value with a separate systolic step', () => {
    const plan = chooseValues([step('Is systolic blood pressure ≥ 160 mmHg?', 'no'), step('Is blood pressure ≥140/90 mmHg?', 'yes')]);
    assert.equal(plan.groups.length, 2);
    const sys = plan.groups.find((g) => g.key === 'systolic blood pressure')!;
    assert.equal(sys.value, 150);
    assert.deepEqual(sys.steps, [0, 1]);
  });
  test('"≥ 25 and < 30" yes is inside both; no is outside the band', () => {
    assert.equal(only([step('Is BMI ≥ 25 and < 30 kg/m²?', 'yes')]), 27);
    assert.equal(only([step('Is BMI ≥ 25 and < 30 kg/m²?', 'no')]), 23);
  });
  test('"<18.5 or ≥25" no is in the gap', () => {
    assert.equal(only([step('Is BMI <18.5 or ≥25 kg/m²?', 'no')]), 20);
  });
  test('Chinese blood pressure pair', () => {
    const plan = chooseValues([step('血压是否≥140/90 mmHg？', 'no')]);
    assert.deepEqual(
      plan.groups.map((g) => [g.key, g.value]),
      [
        ['收缩压', 126],
        ['舒张压', 81],
      ],
    );
  });
});

describe('pickValue', () => {
  test('respects whole-number units and open bounds', () => {
    assert.equal(pickValue(tagBounds([interval(3, 4, false, false)], 'yes'), 1, true), null);
    assert.equal(pickValue(tagBounds([interval(3, 4, false, true)], 'yes'), 1, true), 4);
    assert.equal(pickValue(tagBounds([interval(30, 30, true, true)], 'yes'), 1, true), 30);
    assert.equal(pickValue(tagBounds([interval(3, 4, false, false)], 'yes'), 1, false), 3.5);
  });
  test('formatNumber drops float noise and trailing zeros', () => {
    assert.equal(formatNumber(7.000000001), '7');
    assert.equal(formatNumber(0.1 + 0.2), '0.3');
    assert.equal(formatNumber(-2.7), '-2.7');
  });
});

// Reference: brute force over a fine grid of candidate values.
test('property: a value is found exactly when the path is feasible, and it satisfies every step (400 random paths)', () => {
  const rng = createRng(7);
  const ops = ['≥', '>', '≤', '<'];
  for (let trial = 0; trial < 400; trial++) {
    const n = 1 + rng.nextInt(4);
    const steps: NumericStepInput[] = [];
    for (let k = 0; k < n; k++) {
      const t = 15 + rng.nextInt(26);
      const cond = rng.nextInt(5) === 0 ? `Is BMI ${t}–${t + 1 + rng.nextInt(6)} kg/m²?` : `Is BMI ${ops[rng.nextInt(4)]} ${t} kg/m²?`;
      steps.push(step(cond, rng.nextInt(2) === 0 ? 'yes' : 'no'));
    }
    const sets = steps.map((s) => {
      const th = parseThresholds(s.condition);
      assert.equal(th.length, 1, s.condition);
      const set = th[0]!.components[0]!.set;
      return s.decision_outcome === 'yes' ? set : complementSet(set);
    });
    const ok = (x: number) => sets.every((set) => containsValue(set, x));
    let feasible = false;
    for (let x = 0; x <= 60 && !feasible; x += 0.05) feasible = ok(Number(x.toFixed(2)));
    const plan = chooseValues(steps);
    const v = plan.groups[0]!.value;
    const label = steps.map((s) => `${s.condition} ${s.decision_outcome}`).join(' / ');
    if (v === null) assert.equal(feasible, false, `no value chosen for a feasible path: ${label}`);
    else {
      assert.ok(ok(v), `${v} violates ${label}`);
      assert.ok(v >= 0, 'non-negative');
      // "Clearly" on the right side: not sitting on a threshold itself unless forced to.
      const onThreshold = steps.some((s) => parseThresholds(s.condition)[0]!.numbers.includes(v));
      if (onThreshold) assert.ok(!ok(v + 0.05) || !ok(v - 0.05), `${v} sits on a threshold needlessly: ${label}`);
    }
  }
});
