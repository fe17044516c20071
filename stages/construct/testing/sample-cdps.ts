/**
 * Hand-built CDPs for the construction tests: realistic conditions from the sample guidelines'
 * domains (hypertension, obesity, opioids, insomnia, delirium), some deliberately awkward
 * (gendered pronouns, a step label, a verbless phrase), and a seeded generator of random paths.
 */
import { FOCI, type Cdp, type ClinicalFocus } from '../types.ts';
import { createRng } from '../../stats/rng.ts';

export function makeCdp(language: string, steps: Array<[string, 'yes' | 'no']>, focus: ClinicalFocus = 'management', id = 'cdp-test'): Cdp {
  return {
    cdp_id: id,
    guideline_id: 'g-test',
    language,
    focus,
    split: 'test',
    length: steps.length,
    steps: steps.map(([condition, decision_outcome], i) => ({ node_index: i + 1, condition, decision_outcome, evidence: [] })),
    conclusion: 'Offer the recommended option.',
    conclusion_evidence: [],
    leaf_index: 100,
  };
}

/** Realistic conditions from the sample guidelines' domains, some deliberately awkward. */
export const POOL_EN = [
  'Is systolic blood pressure ≥140 mmHg?',
  'Is diastolic blood pressure ≥ 90 mmHg?',
  'Is blood pressure ≥140/90 mmHg?',
  'Is the patient aged 30–79 years?',
  'Is BMI ≥ 23 kg/m²?',
  'Is BMI ≥ 27.5 kg/m²?',
  'Is the dosage ≥ 50 MME/day?',
  'Is the daily opioid dosage ≥ 90 MME/day?',
  'Has pain persisted for more than 3 months after surgery?',
  'Is the HbA1c above 6.5%?',
  'Is the patient older than 65 years?',
  'Does the patient have diabetes?',
  'Does the patient have chronic kidney disease?',
  'Is there evidence of end-organ damage?',
  'Is the patient pregnant?',
  'Is she breastfeeding?',
  'Does he report daytime impairment?',
  'Is the patient taking benzodiazepines?',
  'Has the patient had bariatric surgery?',
  'Can the patient tolerate NSAIDs?',
  'Is rectal bleeding present?',
  'Did the symptoms worsen at night?',
  'Is the pain neuropathic?',
  'Step 3: Is the patient at high risk of overdose?',
  'Presence of obstructive sleep apnoea?',
  'Are there ≥ 2 cardiovascular risk factors?',
];

export const POOL_ZH = [
  '失眠症状是否每周至少出现3次？',
  '症状是否持续至少3个月？',
  '是否存在日间功能损害？',
  '患者是否65岁以上？',
  '是否存在谵妄？',
  '患者是否有发热？',
  '是否为老年人？',
  '她是否伴有焦虑？',
  '睡眠潜伏期是否超过30分钟？',
  '是否出现注意力不集中？',
  '有无意识水平改变？',
];

export function randomCdps(n: number, seed: number): Cdp[] {
  const rng = createRng(seed);
  const out: Cdp[] = [];
  for (let k = 0; k < n; k++) {
    const zh = rng.nextInt(3) === 0;
    const pool = zh ? POOL_ZH : POOL_EN;
    const len = 1 + rng.nextInt(5);
    const picked = new Set<number>();
    while (picked.size < Math.min(len, pool.length)) picked.add(rng.nextInt(pool.length));
    const steps = [...picked].map((i): [string, 'yes' | 'no'] => [pool[i]!, rng.nextInt(2) === 0 ? 'yes' : 'no']);
    out.push(makeCdp(zh ? 'zh' : 'en', steps, FOCI[rng.nextInt(4)]!, `cdp-${seed}-${k}`));
  }
  return out;
}
