import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { focusSentence, VIGNETTE_GENERATOR, writeVignette } from './vignette-writer.ts';
import { checkInstance } from '../../construct/qc-checks.ts';
import { FOCI, type Cdp } from '../../construct/types.ts';
import { makeCdp, randomCdps } from '../../construct/testing/sample-cdps.ts';

describe('writeVignette: exact output for hand-built CDPs', () => {
  test('hypertension (en)', () => {
    const cdp = makeCdp('en', [
      ['Is the patient aged 30–79 years?', 'yes'],
      ['Is systolic blood pressure ≥140 mmHg?', 'yes'],
      ['Does the patient have diabetes?', 'no'],
      ['Is there evidence of end-organ damage?', 'no'],
    ]);
    const r = writeVignette(cdp);
    assert.equal(
      r.vignette,
      'The patient was aged 32 years. Systolic blood pressure was 150 mmHg. The patient did not have diabetes. ' +
        'There was no evidence of end-organ damage. The clinical question concerns management.',
    );
    assert.equal(r.generator, VIGNETTE_GENERATOR);
    assert.deepEqual(r.problems, []);
  });

  test('obesity (en): the same indicator twice gives one consistent value, said once', () => {
    const cdp = makeCdp(
      'en',
      [
        ['Is BMI ≥ 23 kg/m²?', 'yes'],
        ['Is BMI ≥ 27.5 kg/m²?', 'no'],
        ['Is the patient pregnant?', 'no'],
      ],
      'diagnosis',
    );
    assert.equal(writeVignette(cdp).vignette, 'BMI was 25 kg/m². The patient was not pregnant. The clinical question concerns diagnosis.');
  });

  test("the brief's example: BMI ≥ 30 yes → 32, no → 27", () => {
    assert.equal(
      writeVignette(makeCdp('en', [["Is the patient's BMI ≥ 30 kg/m²?", 'yes']])).vignette,
      "The patient's BMI was 32 kg/m². The clinical question concerns management.",
    );
    assert.equal(
      writeVignette(makeCdp('en', [["Is the patient's BMI ≥ 30 kg/m²?", 'no']])).vignette,
      "The patient's BMI was 27 kg/m². The clinical question concerns management.",
    );
  });

  test('opioids (en), with a gendered condition and a step label', () => {
    const cdp = makeCdp('en', [
      ['Step 1: Is the dosage ≥ 50 MME/day?', 'no'],
      ['Has his pain persisted for more than 3 months after surgery?', 'yes'],
      ['Is she taking benzodiazepines?', 'no'],
    ]);
    assert.equal(
      writeVignette(cdp).vignette,
      "The dosage was 45 MME/day. The patient's pain had persisted for 4 months after surgery. The patient was not taking benzodiazepines. " +
        'The clinical question concerns management.',
    );
  });

  test('insomnia (zh)', () => {
    const cdp = makeCdp(
      'zh',
      [
        ['失眠症状是否每周至少出现3次？', 'yes'],
        ['症状是否持续至少3个月？', 'no'],
        ['是否存在日间功能损害？', 'yes'],
      ],
      'diagnosis',
    );
    assert.equal(
      writeVignette(cdp).vignette,
      '患者失眠症状每周出现4次。患者症状持续2个月。患者存在日间功能损害。本病例的临床问题涉及诊断。',
    );
  });

  test('a contradictory path is reported and no number is invented', () => {
    const cdp = makeCdp(
      'en',
      [
        ['Is BMI ≥ 30 kg/m²?', 'yes'],
        ['Is BMI ≥ 25 kg/m²?', 'no'],
      ],
      'management',
      'cdp-bad',
    );
    const r = writeVignette(cdp);
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0]!, /^cdp cdp-bad: contradictory path/);
    assert.equal(r.vignette, 'BMI was ≥ 30 kg/m². BMI was not ≥ 25 kg/m². The clinical question concerns management.');
  });

  test('each condition is written in its own language', () => {
    const cdp = makeCdp('zh', [
      ['是否存在谵妄？', 'no'],
      ['Is the patient pregnant?', 'no'],
    ]);
    assert.equal(writeVignette(cdp).vignette, '患者不存在谵妄。The patient was not pregnant.本病例的临床问题涉及管理。');
  });

  test('focus sentences', () => {
    assert.deepEqual(
      FOCI.map((f) => focusSentence(f, 'en')),
      [
        'The clinical question concerns diagnosis.',
        'The clinical question concerns classification.',
        'The clinical question concerns screening.',
        'The clinical question concerns management.',
      ],
    );
    assert.deepEqual(
      FOCI.map((f) => focusSentence(f, 'zh')),
      ['本病例的临床问题涉及诊断。', '本病例的临床问题涉及分类。', '本病例的临床问题涉及筛查。', '本病例的临床问题涉及管理。'],
    );
  });
});

describe('writeVignette: properties over 300 random CDPs', () => {
  const cdps = randomCdps(300, 42);
  test('deterministic, labelled simulated, ends with the focus sentence, no pronouns or labels', () => {
    for (const cdp of cdps) {
      const r = writeVignette(cdp);
      assert.deepEqual(writeVignette(cdp), r);
      assert.equal(r.generator, 'simulated-vignette-writer');
      assert.ok(r.vignette.endsWith(focusSentence(cdp.focus, cdp.language)), r.vignette);
      assert.doesNotMatch(r.vignette, /\b(he|she|his|her|him)\b/i);
      assert.doesNotMatch(r.vignette, /(?<!其)他|她/);
      assert.doesNotMatch(r.vignette, /\bstep\b|步骤|第\d步/i);
    }
  });
  test('QC finds nothing wrong with a consistent path, and flags the contradictory ones', () => {
    let contradictory = 0;
    for (const cdp of cdps) {
      const r = writeVignette(cdp);
      const qc = checkInstance({ cdp, vignette: r.vignette });
      if (r.problems.length === 0) {
        assert.deepEqual(qc.problems, [], `${r.vignette}\n${JSON.stringify(cdp.steps.map((s) => [s.condition, s.decision_outcome]))}`);
      } else {
        contradictory++;
        assert.ok(
          qc.problems.some((p) => p.kind === 'contradictory-path'),
          r.vignette,
        );
      }
    }
    assert.ok(contradictory < cdps.length / 5, `${contradictory} contradictory paths`);
  });
  test('QC catches every step whose outcome no longer matches the vignette', () => {
    for (const cdp of cdps.slice(0, 120)) {
      const { vignette, problems } = writeVignette(cdp);
      if (problems.length) continue;
      cdp.steps.forEach((s, i) => {
        const flipped: Cdp = {
          ...cdp,
          steps: cdp.steps.map((t, j) => (j === i ? { ...t, decision_outcome: t.decision_outcome === 'yes' ? 'no' : 'yes' } : t)),
        };
        const qc = checkInstance({ cdp: flipped, vignette });
        assert.ok(
          qc.problems.some(
            (p) =>
              (p.step === i + 1 && (p.kind === 'value-wrong-side' || p.kind === 'polarity-mismatch')) || p.kind === 'contradictory-path',
          ),
          `flipping "${s.condition}" went unnoticed in: ${vignette}`,
        );
      });
    }
  });
});
