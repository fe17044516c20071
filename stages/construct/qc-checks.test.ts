import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { checkInstance, splitSentences, type QcKind } from './qc-checks.ts';
import { summariseQc } from './qc-summary.ts';
import { writeNarrative } from '../agents/writers/narrative-writer.ts';
import { writeVignette } from '../agents/writers/vignette-writer.ts';
import { makeCdp } from './testing/sample-cdps.ts';
import type { Cdp, TreeNodeRow } from './types.ts';

const hypertension = makeCdp('en', [
  ['Is the patient aged 30–79 years?', 'yes'],
  ['Is blood pressure ≥140/90 mmHg?', 'yes'],
  ['Does the patient have diabetes?', 'no'],
  ['Is there evidence of end-organ damage?', 'no'],
]);
const good = writeVignette(hypertension).vignette;

function kinds(cdp: Cdp, vignette: string, narrative?: string[]): QcKind[] {
  return checkInstance({ cdp, vignette, narrative }).problems.map((p) => p.kind);
}

describe('checkInstance: each defect kind is caught', () => {
  test('the offline vignette is clean', () => {
    assert.equal(
      good,
      'The patient was aged 32 years. Blood pressure was 150/96 mmHg. The patient did not have diabetes. There was no evidence of end-organ damage. The clinical question concerns management.',
    );
    const r = checkInstance({ cdp: hypertension, vignette: good, narrative: writeNarrative(hypertension).steps });
    assert.deepEqual(r.problems, []);
    assert.deepEqual([r.cdpOk, r.vignetteOk, r.narrativeOk], [true, true, true]);
  });
  test('value-wrong-side: age outside the range', () => {
    const r = checkInstance({ cdp: hypertension, vignette: good.replace('32 years', '82 years') });
    assert.deepEqual(
      r.problems.map((p) => [p.kind, p.step]),
      [['value-wrong-side', 1]],
    );
    assert.match(r.problems[0]!.message, /age = 82 years, outside \[30, 79\]/);
  });
  test('value-wrong-side: an A/B pair with neither value over its threshold (≥ reads as either)', () => {
    assert.deepEqual(kinds(hypertension, good.replace('150/96', '130/85')), ['value-wrong-side']);
    assert.deepEqual(kinds(hypertension, good.replace('150/96', '150/85')), [], 'systolic alone satisfies "≥140/90"');
  });
  test('value-wrong-side: a "< A/B" target needs both values', () => {
    const cdp = makeCdp('en', [['Is blood pressure < 130/80 mmHg?', 'yes']]);
    const v = 'Blood pressure was 125/85 mmHg. The clinical question concerns management.';
    assert.deepEqual(kinds(cdp, v), ['value-wrong-side']);
    assert.deepEqual(kinds(cdp, v.replace('125/85', '125/75')), []);
  });
  test('value-missing: the indicator is not given a number', () => {
    assert.deepEqual(kinds(hypertension, good.replace('The patient was aged 32 years. ', '')), ['value-missing']);
  });
  test('step-not-reflected and polarity-mismatch', () => {
    assert.deepEqual(kinds(hypertension, good.replace('The patient did not have diabetes. ', '')), ['step-not-reflected']);
    assert.deepEqual(kinds(hypertension, good.replace('did not have diabetes', 'had diabetes')), ['polarity-mismatch']);
    assert.deepEqual(kinds(hypertension, good.replace('There was no evidence', 'There was evidence')), ['polarity-mismatch']);
  });
  test('step-label, gendered-pronoun, focus-missing, narrative-length', () => {
    assert.deepEqual(kinds(hypertension, good.replace('Blood pressure', 'At step 2, blood pressure')), ['step-label']);
    assert.deepEqual(kinds(hypertension, `${good} Following the decision pathway, treatment follows.`), ['step-label', 'focus-missing']);
    assert.deepEqual(kinds(hypertension, good.replace('The patient did not', 'She did not')), ['gendered-pronoun']);
    assert.deepEqual(kinds(hypertension, good.replace(' The clinical question concerns management.', '')), ['focus-missing']);
    assert.deepEqual(kinds(hypertension, good.replace('management', 'diagnosis')), ['focus-missing']);
    assert.deepEqual(kinds(hypertension, good, ['only one statement']), ['narrative-length']);
  });
  test('cdp-level: empty condition, wrong length, contradictory thresholds', () => {
    const empty = makeCdp('en', [
      ['  ', 'yes'],
      ['Is the patient pregnant?', 'no'],
    ]);
    assert.ok(kinds(empty, 'The patient was not pregnant. The clinical question concerns management.').includes('empty-condition'));
    assert.deepEqual(kinds({ ...hypertension, length: 3 }, good), ['cdp-length']);
    const contra = makeCdp('en', [
      ['Is BMI ≥ 30 kg/m²?', 'yes'],
      ['Is BMI ≥ 25 kg/m²?', 'no'],
    ]);
    const r = checkInstance({ cdp: contra, vignette: writeVignette(contra).vignette });
    assert.equal(r.cdpOk, false);
    assert.ok(r.problems.some((p) => p.kind === 'contradictory-path' && p.scope === 'cdp'));
  });
  test('Chinese: wrong-side value, pronoun, polarity and labels', () => {
    const cdp = makeCdp(
      'zh',
      [
        ['失眠症状是否每周至少出现3次？', 'yes'],
        ['是否存在日间功能损害？', 'no'],
      ],
      'diagnosis',
    );
    const v = writeVignette(cdp).vignette;
    assert.equal(v, '患者失眠症状每周出现4次。患者不存在日间功能损害。本病例的临床问题涉及诊断。');
    assert.deepEqual(kinds(cdp, v), []);
    assert.deepEqual(kinds(cdp, v.replace('4次', '2次')), ['value-wrong-side']);
    assert.deepEqual(kinds(cdp, v.replace('不存在', '存在')), ['polarity-mismatch']);
    assert.deepEqual(kinds(cdp, v.replace('患者不存在', '她不存在')), ['gendered-pronoun']);
    assert.deepEqual(kinds(cdp, `第1步，${v}`), ['step-label']);
    assert.deepEqual(kinds(cdp, v.replace('诊断', '管理')), ['focus-missing']);
    assert.deepEqual(
      kinds(cdp, '患者有其他不适。本病例的临床问题涉及诊断。'),
      ['value-missing', 'step-not-reflected'],
      '其他 is not a pronoun; the numeric step is reported once',
    );
  });
});

describe('checkInstance: LLM-style vignettes with richer wording pass', () => {
  test('English case report', () => {
    const v =
      'A 58-year-old patient attended a routine review. Clinic blood pressure measured on two occasions was 152/94 mmHg. ' +
      'There was no history of diabetes, and examination and investigations showed no evidence of end-organ damage. ' +
      'The clinical question concerns management.';
    assert.deepEqual(checkInstance({ cdp: hypertension, vignette: v }).problems, []);
  });
  test('opioid case with durations in other units', () => {
    const cdp = makeCdp('en', [
      ['Is the dosage ≥ 50 MME/day?', 'no'],
      ['Has pain persisted for more than 3 months after surgery?', 'yes'],
    ]);
    const v =
      'Six weeks of treatment were uneventful; the current dosage was 40 MME/day. Pain had persisted for 20 weeks after surgery. The clinical question concerns management.';
    assert.deepEqual(kinds(cdp, v), []);
    assert.deepEqual(kinds(cdp, v.replace('20 weeks', '10 weeks')), ['value-wrong-side']);
  });
  test('Chinese case report', () => {
    const cdp = makeCdp(
      'zh',
      [
        ['患者是否65岁以上？', 'yes'],
        ['症状是否持续至少3个月？', 'yes'],
      ],
      'diagnosis',
    );
    const v = '患者，72岁，因入睡困难就诊。症状持续约5个月。本病例的临床问题涉及诊断。';
    assert.deepEqual(kinds(cdp, v), []);
  });
});

describe('checkInstance: against the tree', () => {
  const nodes: TreeNodeRow[] = [
    {
      guideline_id: 'g-test',
      node_index: 1,
      parent_index: null,
      branch: null,
      is_leaf: false,
      text: 'Is the patient pregnant?',
      evidence: [],
    },
    {
      guideline_id: 'g-test',
      node_index: 2,
      parent_index: 1,
      branch: 'no',
      is_leaf: false,
      text: 'Does the patient have diabetes?',
      evidence: [],
    },
    {
      guideline_id: 'g-test',
      node_index: 3,
      parent_index: 2,
      branch: 'yes',
      is_leaf: true,
      text: 'Offer the recommended option.',
      evidence: [],
    },
  ];
  const cdp: Cdp = {
    ...makeCdp('en', [
      ['Is the patient pregnant?', 'no'],
      ['Does the patient have diabetes?', 'yes'],
    ]),
    leaf_index: 3,
  };
  const vignette = 'The patient was not pregnant. The patient had diabetes. The clinical question concerns management.';
  test('a path that follows the tree passes', () => {
    assert.deepEqual(checkInstance({ cdp, vignette, treeNodes: nodes }).problems, []);
  });
  test('a wrong branch, a changed text and a wrong leaf are reported', () => {
    const wrongBranch = { ...cdp, steps: cdp.steps.map((s, i) => (i === 0 ? { ...s, decision_outcome: 'yes' as const } : s)) };
    const r = checkInstance({ cdp: wrongBranch, vignette: vignette.replace('was not', 'was'), treeNodes: nodes });
    assert.deepEqual(
      r.problems.map((p) => [p.kind, p.step]),
      [['tree-mismatch', 1]],
    );
    const changed = { ...cdp, steps: cdp.steps.map((s, i) => (i === 1 ? { ...s, condition: 'Does the patient have CKD?' } : s)) };
    assert.ok(checkInstance({ cdp: changed, vignette, treeNodes: nodes }).problems.some((p) => p.kind === 'tree-mismatch' && p.step === 2));
    const leaf = checkInstance({ cdp: { ...cdp, leaf_index: 2 }, vignette, treeNodes: nodes });
    assert.ok(leaf.problems.some((p) => p.kind === 'tree-mismatch' && p.step === null));
  });
});

describe('summariseQc', () => {
  test('rates are shares of instances with at least one problem of a scope', () => {
    const bad = checkInstance({ cdp: hypertension, vignette: good.replace('32 years', '82 years').replace('The patient did', 'He did') });
    const contra = makeCdp('en', [
      ['Is BMI ≥ 30 kg/m²?', 'yes'],
      ['Is BMI ≥ 25 kg/m²?', 'no'],
    ]);
    const c = checkInstance({ cdp: contra, vignette: writeVignette(contra).vignette });
    const ok = checkInstance({ cdp: hypertension, vignette: good });
    const reports = [bad, c, ok, ok, ok, ok, ok, ok, ok, ok];
    const s = summariseQc(reports);
    assert.equal(s.instances, 10);
    assert.equal(s.cdpsWithProblems, 1);
    assert.equal(s.cdpProblemRate, 0.1);
    assert.equal(s.vignettesWithProblems, c.vignetteOk ? 1 : 2);
    assert.equal(s.byKind['gendered-pronoun'], 1);
    assert.equal(s.byKind['value-wrong-side'] !== undefined, true);
    assert.deepEqual(s.withinPaper, { cdp: false, vignette: false });
    const clean = summariseQc(Array(300).fill(ok));
    assert.deepEqual(
      [clean.cdpProblemRate, clean.vignetteProblemRate, clean.withinPaper.cdp, clean.withinPaper.vignette],
      [0, 0, true, true],
    );
    assert.equal(summariseQc([]).cdpProblemRate, 0);
  });
});

test('splitSentences keeps decimals and splits Chinese full stops', () => {
  assert.deepEqual(splitSentences('BMI was 27.5 kg/m². The patient was well.'), ['BMI was 27.5 kg/m².', 'The patient was well.']);
  assert.deepEqual(splitSentences('患者70岁。症状持续2个月。'), ['患者70岁。', '症状持续2个月。']);
});
