import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { declarativeEn, declarativeZh, neutralisePronouns, pastTense, stripStepLabel, VALUE_MARK } from './vignette-sentence.ts';

const en = (q: string, o: 'yes' | 'no') => declarativeEn(q, o, false).text;
const zh = (q: string, o: 'yes' | 'no') => declarativeZh(q, o, false).text;

describe('declarativeEn: question shapes', () => {
  const cases: Array<[string, string, string]> = [
    ['Is the patient pregnant?', 'The patient was pregnant.', 'The patient was not pregnant.'],
    ['Is the patient a current smoker?', 'The patient was a current smoker.', 'The patient was not a current smoker.'],
    [
      'Is the patient on anticoagulant therapy?',
      'The patient was on anticoagulant therapy.',
      'The patient was not on anticoagulant therapy.',
    ],
    ['Is the patient taking benzodiazepines?', 'The patient was taking benzodiazepines.', 'The patient was not taking benzodiazepines.'],
    ['Is the patient hemodynamically stable?', 'The patient was hemodynamically stable.', 'The patient was not hemodynamically stable.'],
    ['Is rectal bleeding present?', 'Rectal bleeding was present.', 'Rectal bleeding was not present.'],
    ['Are symptoms present?', 'Symptoms were present.', 'Symptoms were not present.'],
    [
      'Is hypertension secondary to kidney disease?',
      'Hypertension was secondary to kidney disease.',
      'Hypertension was not secondary to kidney disease.',
    ],
    [
      "Is the patient's blood glucose well controlled?",
      "The patient's blood glucose was well controlled.",
      "The patient's blood glucose was not well controlled.",
    ],
    ['Is renal function impaired?', 'Renal function was impaired.', 'Renal function was not impaired.'],
    ['Is pain during walking present?', 'Pain during walking was present.', 'Pain during walking was not present.'],
    ['Was the lesion malignant?', 'The lesion was malignant.', 'The lesion was not malignant.'],
    ['Is there evidence of end-organ damage?', 'There was evidence of end-organ damage.', 'There was no evidence of end-organ damage.'],
    [
      'Is there a family history of premature cardiovascular disease?',
      'There was a family history of premature cardiovascular disease.',
      'There was no family history of premature cardiovascular disease.',
    ],
    ['Are there signs of infection?', 'There were signs of infection.', 'There were no signs of infection.'],
    ['Does the patient have diabetes?', 'The patient had diabetes.', 'The patient did not have diabetes.'],
    [
      'Does the patient report daytime impairment?',
      'The patient reported daytime impairment.',
      'The patient did not report daytime impairment.',
    ],
    [
      'Do symptoms occur at least three nights a week?',
      'Symptoms occurred at least three nights a week.',
      'Symptoms did not occur at least three nights a week.',
    ],
    ['Does the pain radiate to the leg?', 'The pain radiated to the leg.', 'The pain did not radiate to the leg.'],
    ['Did the symptoms worsen at night?', 'The symptoms worsened at night.', 'The symptoms did not worsen at night.'],
    ['Did the patient undergo surgery?', 'The patient underwent surgery.', 'The patient did not undergo surgery.'],
    ['Has the patient had bariatric surgery?', 'The patient had bariatric surgery.', 'The patient had not had bariatric surgery.'],
    [
      'Has the patient received opioids for acute pain?',
      'The patient had received opioids for acute pain.',
      'The patient had not received opioids for acute pain.',
    ],
    ['Have lifestyle interventions failed?', 'Lifestyle interventions had failed.', 'Lifestyle interventions had not failed.'],
    ['Has the infection been treated?', 'The infection had been treated.', 'The infection had not been treated.'],
    ['Can the patient tolerate NSAIDs?', 'The patient could tolerate NSAIDs.', 'The patient could not tolerate NSAIDs.'],
    ['Fever present?', 'Fever was present.', 'Fever was not present.'],
  ];
  for (const [q, yes, no] of cases) {
    test(q, () => {
      assert.equal(en(q, 'yes'), yes);
      assert.equal(en(q, 'no'), no);
    });
  }
});

describe('declarativeEn: values written in, and the fallback', () => {
  const m = VALUE_MARK;
  test('a written-in value gives an affirmative sentence whatever the outcome', () => {
    assert.equal(declarativeEn(`Is the patient's BMI ${m}32 kg/m²?`, 'yes', true).text, "The patient's BMI was 32 kg/m².");
    assert.equal(declarativeEn(`Is the patient's BMI ${m}27 kg/m²?`, 'no', true).text, "The patient's BMI was 27 kg/m².");
    assert.equal(declarativeEn(`Is the patient aged ${m}32 years?`, 'yes', true).text, 'The patient was aged 32 years.');
    assert.equal(
      declarativeEn(`Has pain persisted for ${m}4 months after surgery?`, 'yes', true).text,
      'Pain had persisted for 4 months after surgery.',
    );
    assert.equal(declarativeEn(`Are there ${m}3 risk factors?`, 'yes', true).text, 'There were 3 risk factors.');
    assert.equal(declarativeEn(`BMI ${m}32 kg/m²`, 'yes', true).text, 'BMI was 32 kg/m².');
    assert.equal(declarativeEn(`Is blood pressure ${m}150/${m}96 mmHg?`, 'yes', true).text, 'Blood pressure was 150/96 mmHg.');
  });
  test('a noun phrase falls back to "Findings showed"', () => {
    const yes = declarativeEn('Presence of proteinuria?', 'yes', false);
    assert.deepEqual(yes, { text: 'Findings showed presence of proteinuria.', fallback: true });
    assert.equal(en('Presence of proteinuria?', 'no'), 'Findings did not show presence of proteinuria.');
  });
  test('an unsplittable or modal question falls back to "Findings showed that" / "It was not the case that"', () => {
    assert.deepEqual(declarativeEn('Should anticoagulation be continued?', 'yes', false), {
      text: 'Findings showed that should anticoagulation be continued.',
      fallback: true,
    });
    assert.equal(
      en('Is cardiovascular risk the primary concern?', 'no'),
      'It was not the case that cardiovascular risk the primary concern.',
    );
  });
});

describe('declarativeZh', () => {
  const cases: Array<[string, string, string]> = [
    ['是否存在谵妄？', '患者存在谵妄。', '患者不存在谵妄。'],
    ['患者是否有发热？', '患者有发热。', '患者无发热。'],
    ['是否为老年人？', '患者为老年人。', '患者并非老年人。'],
    ['患者是否伴有焦虑？', '患者伴有焦虑。', '患者不伴有焦虑。'],
    ['是否出现日间功能障碍？', '患者出现日间功能障碍。', '患者未出现日间功能障碍。'],
    ['患者是否已接受认知行为治疗？', '患者已接受认知行为治疗。', '患者未接受认知行为治疗。'],
    ['有无日间功能损害？', '患者有日间功能损害。', '患者无日间功能损害。'],
    ['病人是否能够耐受药物？', '患者能够耐受药物。', '患者不能够耐受药物。'],
  ];
  for (const [q, yes, no] of cases) {
    test(q, () => {
      assert.equal(zh(q, 'yes'), yes);
      assert.equal(zh(q, 'no'), no);
    });
  }
  test('written-in values and the fallback', () => {
    assert.equal(declarativeZh(`失眠症状是否每周出现${VALUE_MARK}4次？`, 'yes', true).text, '患者失眠症状每周出现4次。');
    assert.equal(declarativeZh(`症状是否持续${VALUE_MARK}2个月？`, 'no', true).text, '患者症状持续2个月。');
    assert.deepEqual(declarativeZh('谵妄高危因素', 'no', false), { text: '经评估，不存在以下情况：谵妄高危因素。', fallback: true });
  });
});

describe('helpers', () => {
  test('pastTense', () => {
    assert.deepEqual(['have', 'report', 'require', 'worsen', 'occur', 'undergo', 'carry', 'stop', 'show'].map(pastTense), [
      'had',
      'reported',
      'required',
      'worsened',
      'occurred',
      'underwent',
      'carried',
      'stopped',
      'showed',
    ]);
  });
  test('neutralisePronouns', () => {
    assert.equal(neutralisePronouns('Does he have his own symptoms?'), "Does the patient have the patient's own symptoms?");
    assert.equal(
      neutralisePronouns('Is her BMI high? Was she told about her?'),
      "Is the patient's BMI high? Was the patient told about the patient?",
    );
    assert.equal(neutralisePronouns('Has he or she fallen?'), 'Has the patient fallen?');
    assert.equal(neutralisePronouns('她是否有其他症状？'), '患者是否有其他症状？');
    assert.equal(neutralisePronouns('Is the shepherd healthy?'), 'Is the shepherd healthy?');
  });
  test('stripStepLabel', () => {
    assert.equal(stripStepLabel('Step 2: Is BMI ≥ 30 kg/m²?'), 'Is BMI ≥ 30 kg/m²?');
    assert.equal(stripStepLabel('第3步：是否存在谵妄？'), '是否存在谵妄？');
    assert.equal(stripStepLabel('Is stepwise therapy needed?'), 'Is stepwise therapy needed?');
  });
});
