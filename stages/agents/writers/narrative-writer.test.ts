import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mostRelevantEvidence, NARRATIVE_GENERATOR, writeNarrative } from './narrative-writer.ts';
import { writeVignette } from './vignette-writer.ts';
import { makeCdp, randomCdps } from '../../construct/testing/sample-cdps.ts';
import type { Cdp } from '../../construct/types.ts';

function withEvidence(cdp: Cdp, evidence: string[][], conclusion: string): Cdp {
  return { ...cdp, steps: cdp.steps.map((s, i) => ({ ...s, evidence: evidence[i] ?? [] })), conclusion };
}

describe('writeNarrative', () => {
  test('exact statements for a hypertension path (en)', () => {
    const cdp = withEvidence(
      makeCdp('en', [
        ['Is systolic blood pressure ≥140 mmHg?', 'yes'],
        ['Does the patient have diabetes?', 'no'],
      ]),
      [
        [
          'WHO recommends blood pressure measurement at every visit.',
          'WHO recommends initiation of pharmacological antihypertensive treatment in individuals with a confirmed diagnosis of hypertension and systolic blood pressure of ≥140 mmHg.',
        ],
        [],
      ],
      'Initiate pharmacological antihypertensive treatment.',
    );
    const r = writeNarrative(cdp);
    assert.equal(r.generator, NARRATIVE_GENERATOR);
    assert.deepEqual(r.steps, [
      'The guideline states that WHO recommends initiation of pharmacological antihypertensive treatment in individuals with a confirmed diagnosis of hypertension and systolic blood pressure of ≥140 mmHg; systolic blood pressure was 150 mmHg, so the criterion "Is systolic blood pressure ≥140 mmHg?" is met.',
      'No guideline statement is quoted for this criterion; the patient did not have diabetes, so the criterion "Does the patient have diabetes?" is not met.',
      'Taken together, these findings lead to the conclusion: initiate pharmacological antihypertensive treatment.',
    ]);
    assert.deepEqual(r.problems, []);
  });

  test('exact statements for an insomnia path (zh)', () => {
    const cdp = withEvidence(
      makeCdp('zh', [['失眠症状是否每周至少出现3次？', 'yes']], 'diagnosis'),
      [['失眠症状每周至少出现3次，并持续至少3个月。']],
      '诊断为慢性失眠障碍',
    );
    assert.deepEqual(writeNarrative(cdp).steps, [
      '指南指出：“失眠症状每周至少出现3次，并持续至少3个月”；患者失眠症状每周出现4次，因此符合“失眠症状是否每周至少出现3次”这一标准。',
      '综上所述，诊断为慢性失眠障碍。',
    ]);
  });

  test('a sentence quoted for an earlier step is referred back to, not quoted again (en, zh)', () => {
    const ev = 'WHO recommends treatment for systolic blood pressure of ≥140 mmHg, and sooner in patients with diabetes.';
    const cdp = withEvidence(
      makeCdp('en', [
        ['Is systolic blood pressure ≥140 mmHg?', 'yes'],
        ['Does the patient have diabetes?', 'yes'],
      ]),
      [[ev], [ev]],
      'Treat.',
    );
    assert.deepEqual(writeNarrative(cdp).steps.slice(0, 2), [
      'The guideline states that WHO recommends treatment for systolic blood pressure of ≥140 mmHg, and sooner in patients with diabetes; systolic blood pressure was 150 mmHg, so the criterion "Is systolic blood pressure ≥140 mmHg?" is met.',
      'By the guideline statement above, the patient had diabetes, so the criterion "Does the patient have diabetes?" is met.',
    ]);
    const zhEv = '失眠症状每周至少出现3次，并持续至少3个月。';
    const zh = withEvidence(
      makeCdp(
        'zh',
        [
          ['失眠症状是否每周至少出现3次？', 'yes'],
          ['症状是否持续至少3个月？', 'yes'],
        ],
        'diagnosis',
      ),
      [[zhEv], [zhEv]],
      '诊断',
    );
    const steps = writeNarrative(zh).steps;
    assert.ok(steps[0]!.startsWith('指南指出：“失眠症状每周至少出现3次，并持续至少3个月”'), steps[0]);
    assert.ok(steps[1]!.startsWith('依据上述指南原文，') && !steps[1]!.includes('并持续至少3个月”'), steps[1]);
  });

  test('shape over random CDPs: steps + 1 strings, JSON round-trip, facts agree with the vignette', () => {
    for (const cdp of randomCdps(150, 9)) {
      const r = writeNarrative(cdp);
      assert.equal(r.steps.length, cdp.steps.length + 1);
      assert.ok(r.steps.every((s) => typeof s === 'string' && s.length > 0));
      assert.deepEqual(JSON.parse(JSON.stringify(r.steps)), r.steps);
      assert.deepEqual(writeNarrative(cdp), r, 'deterministic');
      const vignette = writeVignette(cdp).vignette;
      // Every number the narrative states about the case also appears in the vignette.
      const facts = r.steps.slice(0, -1).map((s) => s.replace(/^.*?[;；]/, '').replace(/[,，]\s*(so|因此).*$/, ''));
      for (const f of facts)
        for (const n of f.match(/\d+(?:\.\d+)?/g) ?? []) assert.ok(vignette.includes(n), `${n} from "${f}" not in ${vignette}`);
      // Outcome words follow the decision outcome.
      cdp.steps.forEach((s, i) => {
        const met = s.decision_outcome === 'yes';
        if (cdp.language === 'zh') assert.ok(r.steps[i]!.includes(met ? '因此符合' : '因此不符合'));
        else assert.ok(r.steps[i]!.endsWith(met ? 'is met.' : 'is not met.'));
      });
    }
  });

  test('an empty conclusion is reported', () => {
    const r = writeNarrative(withEvidence(makeCdp('en', [['Is the patient pregnant?', 'no']]), [], ''));
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0]!, /empty conclusion/);
  });
});

describe('mostRelevantEvidence', () => {
  test('picks the sentence sharing most words, ties to the first, null when none', () => {
    assert.equal(
      mostRelevantEvidence('Is BMI ≥ 23 kg/m²?', ['Obesity is common.', 'A BMI of 23 kg/m2 or more defines overweight.'], false),
      'A BMI of 23 kg/m2 or more defines overweight.',
    );
    assert.equal(mostRelevantEvidence('Is BMI ≥ 23?', ['First.', 'Second.'], false), 'First.');
    assert.equal(mostRelevantEvidence('Is BMI ≥ 23?', [], false), null);
    assert.equal(mostRelevantEvidence('是否存在谵妄？', ['失眠常见。', '谵妄是一种急性脑功能障碍。'], true), '谵妄是一种急性脑功能障碍。');
  });
});
