import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseChineseNumeral, parseThresholds, substituteValues } from './numeric-threshold.ts';
import { formatSet } from './numeric-interval.ts';

/** "key unit set" for each component, the compact form the cases below are written in. */
function read(text: string): string[] {
  return parseThresholds(text).flatMap((t) => t.components.map((c) => `${c.key} | ${t.unit.canonical} | ${formatSet(c.set)}`));
}

describe('parseThresholds: English comparisons', () => {
  const cases: Array<[string, string[]]> = [
    ['Is systolic blood pressure ≥140 mmHg?', ['systolic blood pressure | mmHg | [140, ∞)']],
    ['Is BMI ≥ 23 kg/m²?', ['bmi | kg/m² | [23, ∞)']],
    ['Is BMI ≥ 27.5 kg/m2?', ['bmi | kg/m² | [27.5, ∞)']],
    ['Is the dosage ≥ 50 MME/day?', ['dosage | MME/day | [50, ∞)']],
    ['Has pain persisted for more than 3 months after surgery?', ['pain persisted | months | (3, ∞)']],
    ['Is the HbA1c above 6.5%?', ['hba1c | % | (6.5, ∞)']],
    ['Is serum creatinine below 1.5 mg/dL?', ['serum creatinine | mg/dL | (−∞, 1.5)']],
    ['Is fasting glucose at least 7.0 mmol/L?', ['fasting glucose | mmol/L | [7, ∞)']],
    ['Is LDL cholesterol less than 100 mg/dL?', ['ldl cholesterol | mg/dL | (−∞, 100)']],
    ['Is the platelet count greater than or equal to 150 ×10^9/L?', ['platelet count | ×10^9/L | [150, ∞)']],
    ['Is the heart rate > 100 beats/min?', ['heart rate | /min | (100, ∞)']],
    ['Is the eGFR <= 30 mL/min/1.73 m²?', ['egfr | mL/min/1.73 m² | (−∞, 30]']],
    ['Is the ESR no more than 20 mm?', ['esr | mm | (−∞, 20]']],
    ['Is the T-score ≤ −2.5?', ['t-score |  | (−∞, -2.5]']],
    ['Did symptoms begin within 48 hours of exposure?', ['symptom begin | hours | (−∞, 48]']],
  ];
  for (const [text, want] of cases) test(text, () => assert.deepEqual(read(text), want));
});

describe('parseThresholds: ages, suffixes and ranges', () => {
  const cases: Array<[string, string[]]> = [
    ['Is the patient aged 30–79 years?', ['age | years | [30, 79]']],
    ['Is the patient aged between 30 and 79 years?', ['age | years | [30, 79]']],
    ['Is the patient older than 65 years?', ['age | years | (65, ∞)']],
    ['Is the patient 18 years or older?', ['age | years | [18, ∞)']],
    ['Is the patient 65 years of age and over?', ['age | years | [65, ∞)']],
    ['Is systolic blood pressure 130–139 mmHg?', ['systolic blood pressure | mmHg | [130, 139]']],
    ['Is the dose 50 to 90 MME/day?', ['dose | MME/day | [50, 90]']],
    ['Is BMI 25-29.9 kg/m²?', ['bmi | kg/m² | [25, 29.9]']],
    ['Are there ≥ 2 risk factors?', ['risk factor |  | [2, ∞)']],
    ['Is the patient 65+ years?', ['age | years | [65, ∞)']],
    ['Is the patient ≥65 years of age?', ['age | years | [65, ∞)']],
    ['Is the follow-up duration 6 to <12 months?', ['follow-up duration | months | [6, 12)']],
    [
      'Has opioid therapy continued for ≥1 week but <1 month?',
      ['opioid therapy continued | weeks | [1, ∞)', 'opioid therapy continued | months | (−∞, 1)'],
    ],
    ['Has pain lasted for more than 3 mo post-surgery?', ['pain lasted | months | (3, ∞)']],
    ['Is the prescription a ≤7-day supply?', ['prescription | days | (−∞, 7]']],
    ['Is salt intake ≤6 g/day?', ['salt intake | g/day | (−∞, 6]']],
    ['Has there been ≥30% improvement in pain?', ['improvement pain | % | [30, ∞)']],
    ['Is BMI ≥95th percentile?', ['bmi | th percentile | [95, ∞)']],
  ];
  for (const [text, want] of cases) test(text, () => assert.deepEqual(read(text), want));
});

describe('parseThresholds: A/B pairs and several thresholds in one condition', () => {
  test('"≥140/90 mmHg" is systolic ≥ 140 and diastolic ≥ 90', () => {
    assert.deepEqual(read('Is blood pressure ≥140/90 mmHg?'), [
      'systolic blood pressure | mmHg | [140, ∞)',
      'diastolic blood pressure | mmHg | [90, ∞)',
    ]);
  });
  test('"< 130/80 mmHg" pair without the words blood pressure still maps to systolic/diastolic by unit', () => {
    assert.deepEqual(read('Is the reading < 130/80 mmHg?'), [
      'systolic blood pressure | mmHg | (−∞, 130)',
      'diastolic blood pressure | mmHg | (−∞, 80)',
    ]);
  });
  test('a pair with another unit gets first/second value keys', () => {
    assert.deepEqual(read('Is the ratio ≥ 3/2 mg/dL?'), ['ratio (first value) | mg/dL | [3, ∞)', 'ratio (second value) | mg/dL | [2, ∞)']);
  });
  test('"≥ 25 and < 30 kg/m²": the second threshold inherits the indicator and lends its unit to the first', () => {
    const ts = parseThresholds('Is BMI ≥ 25 and < 30 kg/m²?');
    assert.equal(ts.length, 2);
    assert.deepEqual(
      ts.map((t) => [t.components[0]!.key, t.unit.canonical, t.joiner]),
      [
        ['bmi', 'kg/m²', null],
        ['bmi', 'kg/m²', 'and'],
      ],
    );
  });
  test('"or" between thresholds is recorded as a disjunction', () => {
    const ts = parseThresholds('Is BMI <18.5 or ≥25 kg/m²?');
    assert.deepEqual(
      ts.map((t) => t.joiner),
      [null, 'or'],
    );
  });
  test('two indicators in one condition keep their own keys', () => {
    assert.deepEqual(read('Is age ≥ 65 years and HbA1c > 8%?'), ['age | years | [65, ∞)', 'hba1c | % | (8, ∞)']);
  });
});

describe('parseThresholds: Chinese', () => {
  const cases: Array<[string, string[]]> = [
    ['失眠症状是否每周至少出现3次？', ['失眠症状每周 | times | [3, ∞)']],
    ['症状是否持续至少3个月？', ['症状持续 | months | [3, ∞)']],
    ['症状是否持续三个月以上？', ['症状持续 | months | [3, ∞)']],
    ['患者是否65岁以上？', ['age | 岁 | [65, ∞)']],
    ['患者年龄是否小于18岁？', ['age | 岁 | (−∞, 18)']],
    ['收缩压是否≥140 mmHg？', ['收缩压 | mmHg | [140, ∞)']],
    ['血压是否≥140/90 mmHg？', ['收缩压 | mmHg | [140, ∞)', '舒张压 | mmHg | [90, ∞)']],
    ['体重指数是否大于28 kg/m²？', ['体重指数 | kg/m² | (28, ∞)']],
    ['睡眠潜伏期是否超过30分钟？', ['睡眠潜伏期 | minutes | (30, ∞)']],
    ['睡眠效率是否不少于85%？', ['睡眠效率 | % | [85, ∞)']],
    ['病程是否不足2周？', ['病程 | weeks | (−∞, 2)']],
    ['患者是否30~79岁？', ['age | 岁 | [30, 79]']],
    ['谵妄是否持续3天以下？', ['谵妄持续 | days | (−∞, 3]']],
  ];
  for (const [text, want] of cases) test(text, () => assert.deepEqual(read(text), want));
  test('Chinese numerals', () => {
    assert.equal(parseChineseNumeral('三'), 3);
    assert.equal(parseChineseNumeral('十二'), 12);
    assert.equal(parseChineseNumeral('二十四'), 24);
    assert.equal(parseChineseNumeral('一百零五'), 105);
    assert.equal(parseChineseNumeral('两'), 2);
    assert.equal(parseChineseNumeral('个'), null);
  });
});

describe('parseThresholds: numbers that are not thresholds', () => {
  for (const text of [
    'Does the patient have type 2 diabetes?',
    'Is there a history of COVID-19 infection?',
    'Is the tumour stage 3?',
    'Is the patient taking 2 medications?',
    '是否为一线治疗？',
    'Has the patient been over the past 3 months on opioids?',
  ]) {
    test(text, () => assert.deepEqual(read(text), []));
  }
});

describe('substituteValues', () => {
  const write = (text: string, values: string[][]) => {
    const ts = parseThresholds(text);
    return substituteValues(text, ts, (t, c) => values[ts.indexOf(t)]?.[c] ?? null);
  };
  test('removes the comparison and keeps the unit', () => {
    assert.equal(write('Is BMI ≥ 30 kg/m²?', [['32']]), 'Is BMI 32 kg/m²?');
    assert.equal(
      write('Has pain persisted for more than 3 months after surgery?', [['4']]),
      'Has pain persisted for 4 months after surgery?',
    );
    assert.equal(write('Is the patient aged between 30 and 79 years?', [['45']]), 'Is the patient aged 45 years?');
    assert.equal(write('Is the patient 18 years or older?', [['19']]), 'Is the patient 19 years old?');
    assert.equal(write('Is blood pressure ≥140/90 mmHg?', [['150', '96']]), 'Is blood pressure 150/96 mmHg?');
    assert.equal(write('失眠症状是否每周至少出现3次？', [['4']]), '失眠症状是否每周出现4次？');
    assert.equal(write('患者是否65岁以上？', [['70']]), '患者是否70岁？');
  });
  test('a threshold without a value is left as written', () => {
    assert.equal(write('Is BMI ≥ 30 kg/m²?', []), 'Is BMI ≥ 30 kg/m²?');
  });
  test('a run on one indicator is written once when told so', () => {
    const text = 'Is BMI ≥ 25 and < 30 kg/m²?';
    const ts = parseThresholds(text);
    const out = substituteValues(
      text,
      ts,
      () => '27',
      () => null,
      (k) => k === 1,
    );
    assert.equal(out, 'Is BMI 27 kg/m²?');
  });
});
