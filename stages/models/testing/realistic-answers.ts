/**
 * Answers the way current chat models answer the benchmark's nine prompts — readable variants and
 * real faults (issue 11 items 1 and 9) — each labelled with what a correct reader must do with it:
 * accept it with format X (and read value V), or reject it with a reason containing Y. The labels
 * are the specification; realistic-server.ts serves them and a test checks every label against
 * the readers and, through a DAG run, against the stored rows.
 *
 * The expected formats are the answer-format.ts labels. Where the issue asks for a behaviour, the
 * label states it; the readers' own tests cover more variants than these, this catalogue covers the
 * kinds an end-to-end run must survive.
 */
import type { PromptKind } from './plain-model.ts';

/** A rejection's `reason` may name the step-score prompt's sizes as {m} and {n} (see expectedReason). */
export type Expect = { accept: true; format: string; value?: string | number } | { accept: false; reason: string };

export interface LabelledAnswer {
  /** Unique; the model (or judge) name that gets this answer is `<prefix><id>` (realistic-server.ts). */
  id: string;
  prompt: Exclude<PromptKind, 'unknown'>;
  /** The answer; step-score answers depend on the prompt's m reference and n candidate steps. */
  text: string | ((m: number, n: number) => string);
  /** finish_reason of the answer (default 'stop'). */
  finishReason?: 'length';
  expect: Expect;
  /** Patient answers only: the reply to the one re-ask, with what the reader must do with it. */
  reask?: { text: string; finishReason?: 'length'; expect: Expect };
}

const labels = (xs: Omit<LabelledAnswer, 'prompt'>[], prompt: LabelledAnswer['prompt']): LabelledAnswer[] =>
  xs.map((a) => ({ ...a, prompt }));
const accept = (format: string, value?: string | number): Expect =>
  value === undefined ? { accept: true, format } : { accept: true, format, value };
const reject = (reason: string): Expect => ({ accept: false, reason });
const TRUNCATED = 'truncated answer (finish_reason: length)';

// ── Prompt 4: single turn ──
const STEPS = '1. Systolic blood pressure is 150 mmHg.\n2. The patient has no diabetes.';
const OUTCOME = 'Confirm with ambulatory blood pressure monitoring.';
const single = labels(
  [
    {
      id: 'st-strict',
      text: `### Clinical Decision Process:\n${STEPS}\n### Clinical Decision Outcome: ${OUTCOME}`,
      expect: accept('strict', OUTCOME),
    },
    {
      id: 'st-final-clinical-outcome',
      text: `### Clinical Decision Process:\n${STEPS}\n## Final Clinical Outcome: ${OUTCOME}`,
      expect: accept('heading-synonym+markdown-heading', OUTCOME),
    },
    {
      id: 'st-final-outcome',
      text: `### Clinical Decision Process:\n${STEPS}\nFinal Outcome: ${OUTCOME}`,
      expect: accept('heading-synonym+markdown-heading', OUTCOME),
    },
    {
      id: 'st-conclusion-heading',
      text: `### Clinical Decision Process:\n${STEPS}\n### Conclusion:\n${OUTCOME}`,
      expect: accept('heading-synonym+separator', OUTCOME),
    },
    {
      id: 'st-bold-final-answer',
      text: `**Clinical Decision Process:**\n${STEPS}\n\n**Final Answer:** ${OUTCOME}`,
      expect: accept('bold-marker+heading-synonym+markdown-heading', OUTCOME),
    },
    {
      id: 'st-chinese',
      text: '### 临床决策过程：\n1. 症状持续4个月。\n2. 存在日间功能损害。\n### 最终结论：诊断为慢性失眠障碍。',
      expect: accept('chinese-marker+heading-synonym', '诊断为慢性失眠障碍。'),
    },
    {
      id: 'st-trailing-note',
      text: `### Clinical Decision Process:\n${STEPS}\n### Clinical Decision Outcome: ${OUTCOME}\nNote: this depends on local practice.`,
      expect: accept('trailing-note', OUTCOME),
    },
    {
      id: 'st-think-fence',
      text:
        `<think>Check the guideline first.</think>\n\`\`\`markdown\n### Clinical Decision Process:\n${STEPS}\n` +
        `### Clinical Decision Outcome: ${OUTCOME}\n\`\`\``,
      expect: accept('fence+think-block', OUTCOME),
    },
    {
      id: 'st-preamble',
      text: `Sure! Here is my analysis.\n\n### Clinical Decision Process:\n${STEPS}\n### Clinical Decision Outcome: ${OUTCOME}`,
      expect: accept('preamble', OUTCOME),
    },
    {
      id: 'st-truncated',
      text: `### Clinical Decision Process:\n${STEPS}\n### Clinical Decision Outcome: Confirm with`,
      finishReason: 'length',
      expect: reject(TRUNCATED),
    },
    {
      id: 'st-empty-process',
      text: `### Clinical Decision Process:\n\n### Clinical Decision Outcome: ${OUTCOME}`,
      expect: reject("no numbered steps in the 'Clinical Decision Process' section"),
    },
    { id: 'st-no-outcome', text: `### Clinical Decision Process:\n${STEPS}`, expect: reject("no 'Clinical Decision Outcome' section") },
  ],
  'single-turn-inference',
);

// ── Prompt 6: one doctor turn (the first of the dialogue) ──
const CONCLUSION = 'Start an ACE inhibitor.';
const doctor = labels(
  [
    { id: 'dr-strict-question', text: 'Does the patient have diabetes?', expect: accept('strict', 'Does the patient have diabetes?') },
    {
      id: 'dr-label-question',
      text: '**Question 1:** Does the patient have diabetes?',
      expect: accept('bold-marker+label-prefix', 'Does the patient have diabetes?'),
    },
    {
      id: 'dr-think-question',
      text: '<think>Diabetes decides the branch.</think>\nDoes the patient have diabetes?',
      expect: accept('think-block', 'Does the patient have diabetes?'),
    },
    { id: 'dr-strict-conclusion', text: `Final Conclusion: ${CONCLUSION}`, expect: accept('strict', CONCLUSION) },
    { id: 'dr-conclusion', text: `Conclusion: ${CONCLUSION}`, expect: accept('heading-synonym', CONCLUSION) },
    { id: 'dr-conclusion-dash', text: `Final Conclusion - ${CONCLUSION}`, expect: accept('separator', CONCLUSION) },
    { id: 'dr-bold-own-line', text: `**Final Conclusion**\n${CONCLUSION}`, expect: accept('bold-marker+separator', CONCLUSION) },
    {
      id: 'dr-chinese-conclusion',
      text: '结论：诊断为慢性失眠障碍。',
      expect: accept('chinese-marker+heading-synonym', '诊断为慢性失眠障碍。'),
    },
    { id: 'dr-two-questions', text: 'Do you have a fever? Do you have a cough?', expect: reject('the turn asks 2 questions') },
    {
      id: 'dr-question-and-conclusion',
      text: `Is the pressure high?\nFinal Conclusion: ${CONCLUSION}`,
      expect: reject('holds both a question and a "Final Conclusion:"'),
    },
    { id: 'dr-truncated', text: 'Does the patient have', finishReason: 'length', expect: reject(TRUNCATED) },
  ],
  'multi-turn-inference',
);

// ── Prompt 7: the patient's answer to the doctor's first question ──
const patient = labels(
  [
    { id: 'pt-strict', text: 'Yes', expect: accept('strict', 'Yes') },
    { id: 'pt-believe', text: 'I believe so, yes — it started last week.', expect: accept('extra-words+yes-no-synonym', 'Yes') },
    { id: 'pt-yeah', text: 'Yeah.', expect: accept('yes-no-synonym', 'Yes') },
    { id: 'pt-nope', text: 'Nope.', expect: accept('yes-no-synonym', 'No') },
    { id: 'pt-chinese', text: '有的。', expect: accept('chinese-marker', 'Yes') },
    { id: 'pt-a-yes', text: 'A: Yes', expect: accept('label-prefix', 'Yes') },
    { id: 'pt-no-complaints', text: 'Yes, I have no other complaints.', expect: accept('extra-words', 'Yes') },
    {
      id: 'pt-maybe-then-yes',
      text: 'Maybe.',
      expect: reject('it is uncertain'),
      reask: { text: 'Yes.', expect: accept('strict', 'Yes') },
    },
    {
      id: 'pt-unsure-twice',
      text: "I'm not sure.",
      expect: reject('it is uncertain'),
      reask: { text: "I don't know.", expect: reject('it is uncertain') },
    },
    {
      id: 'pt-both-twice',
      text: 'Yes and no.',
      expect: reject('the answer holds both Yes and No'),
      reask: { text: 'Yes and no.', expect: reject('the answer holds both Yes and No') },
    },
    {
      id: 'pt-truncated-then-no',
      text: 'Well, I',
      finishReason: 'length',
      expect: reject(TRUNCATED),
      reask: { text: 'No.', expect: accept('strict', 'No') },
    },
  ],
  'multi-turn-patient-environment',
);

// ── Prompts 5 and 8: step scores (5 on the diagonal, 2 elsewhere) ──
const s = (i: number, j: number) => (i === j ? 5 : 2);
const grid = (m: number, n: number, f: (i: number, j: number) => string, sep = ', ', rowSep = '\n') =>
  Array.from({ length: m }, (_, i) => Array.from({ length: n }, (_, j) => f(i + 1, j + 1)).join(sep)).join(rowSep);
const strictScores = (m: number, n: number) => grid(m, n, (i, j) => `R${i}-C${j}: ${s(i, j)}`);
const steps = labels(
  [
    { id: 'js-strict', text: strictScores, expect: accept('strict') },
    {
      id: 'js-table',
      text: (m, n) =>
        [
          `| | ${grid(1, n, (_i, j) => `C${j}`, ' | ')} |`,
          `|${'---|'.repeat(n + 1)}`,
          ...Array.from({ length: m }, (_, i) => `| R${i + 1} | ${grid(1, n, (_x, j) => String(s(i + 1, j)), ' | ')} |`),
        ].join('\n'),
      expect: accept('score-layout'),
    },
    { id: 'js-tuples', text: (m, n) => grid(m, n, (i, j) => `(R${i}, C${j}): ${s(i, j)}`), expect: accept('score-layout') },
    { id: 'js-json', text: (m, n) => `{${grid(m, n, (i, j) => `"R${i}-C${j}": ${s(i, j)}`, ', ', ', ')}}`, expect: accept('score-layout') },
    {
      id: 'js-rows',
      text: (m, n) => grid(m, 1, (i) => `R${i}: ${grid(1, n, (_x, j) => `C${j}=${s(i, j)}`)}`),
      expect: accept('score-layout'),
    },
    {
      id: 'js-explained',
      text: (m, n) => `${strictScores(m, n)}\nExplanation: R1-C1: both ask about the same finding.`,
      expect: accept('trailing-note'),
    },
    {
      id: 'js-think-fence',
      text: (m, n) => `<think>Compare each pair.</think>\n\`\`\`\n${strictScores(m, n)}\n\`\`\``,
      expect: accept('fence+think-block'),
    },
    {
      id: 'js-half-point',
      text: (m, n) => strictScores(m, n).replace('R1-C1: 5', 'R1-C1: 4.5'),
      expect: reject('score 4.5 for R1-C1 is not an integer'),
    },
    {
      id: 'js-missing-pair',
      text: (m, n) => strictScores(m, n).replace(new RegExp(`,? ?R${m}-C${n}: \\d`), ''),
      expect: reject('missing pairs: R{m}-C{n}'),
    },
    {
      id: 'js-conflicting-pair',
      text: (m, n) => `${strictScores(m, n)}\nR1-C1: 1`,
      expect: reject('duplicate pair R1-C1 with different scores'),
    },
    { id: 'js-truncated', text: () => 'R1-C1: 5, R1-C', finishReason: 'length', expect: reject(TRUNCATED) },
  ],
  'single-turn-step-level-consistency-scoring',
);

// ── Prompt 9: outcome score ──
const outcome = labels(
  [
    { id: 'jo-strict', text: '4', expect: accept('strict', 4) },
    { id: 'jo-explained', text: '4\n\nThe candidate omits 2 key elements.', expect: accept('trailing-note', 4) },
    {
      id: 'jo-rating',
      text: 'Rating: 4/5. The candidate is close to the reference.',
      expect: accept('scale-echo+score-label+trailing-note', 4),
    },
    { id: 'jo-chinese', text: '评分：5', expect: accept('chinese-marker+score-label', 5) },
    { id: 'jo-half-point', text: '4.5', expect: reject('4.5 is not an integer score') },
    { id: 'jo-no-number', text: 'The candidate is largely consistent with the reference.', expect: reject('the answer holds no score') },
    { id: 'jo-truncated', text: 'Score: ', finishReason: 'length', expect: reject(TRUNCATED) },
  ],
  'outcome-accuracy-scoring',
);

// ── Prompt 1: reasoning tree of the agents' hypertension guideline, every node quoting it ──
const QUOTE = ['Offer drug treatment to adults with systolic blood pressure of 140 mmHg or more who have diabetes.'];
const TREE = JSON.stringify(
  {
    primary_clinical_focus: 'management',
    decision_tree: {
      index: 1,
      description: 'Is systolic blood pressure ≥140 mmHg?',
      yes: {
        index: 2,
        description: 'Does the patient have diabetes?',
        yes: { index: 4, leaf: true, conclusion: 'Offer drug treatment.' },
        no: { index: 5, leaf: true, conclusion: 'Recheck blood pressure.' },
      },
      no: { index: 3, leaf: true, conclusion: 'Recheck blood pressure in five years.' },
    },
    node_guideline_mapping: Object.fromEntries([1, 2, 3, 4, 5].map((i) => [String(i), QUOTE])),
  },
  null,
  2,
);
const oneBranch = JSON.parse(TREE) as { decision_tree: { yes: { no?: unknown } } };
delete oneBranch.decision_tree.yes.no;
const trees = labels(
  [
    { id: 'tr-strict', text: TREE, expect: accept('strict') },
    {
      id: 'tr-trailing-comma',
      text: TREE.replace('"Recheck blood pressure in five years."', '"Recheck blood pressure in five years.",'),
      expect: accept('lenient-json:trailing-comma'),
    },
    {
      id: 'tr-comments',
      text: TREE.replace('"decision_tree": {', '// the tree\n  "decision_tree": {'),
      expect: accept('lenient-json:comment'),
    },
    { id: 'tr-focus-case', text: TREE.replace('"management"', '"Management"'), expect: accept('lenient-json:focus-case') },
    { id: 'tr-string-index', text: TREE.replace('"index": 1,', '"index": "1",'), expect: accept('lenient-json:string-number') },
    { id: 'tr-string-leaf', text: TREE.replace('"leaf": true', '"leaf": "true"'), expect: accept('lenient-json:string-boolean') },
    { id: 'tr-fence-preamble', text: `Here is the tree:\n\`\`\`json\n${TREE}\n\`\`\``, expect: accept('fence+preamble') },
    {
      id: 'tr-one-branch',
      text: JSON.stringify(oneBranch, null, 2),
      expect: reject('node 2: decision node has a yes child but no no child (one branch)'),
    },
    { id: 'tr-truncated', text: TREE.slice(0, 200), finishReason: 'length', expect: reject(TRUNCATED) },
  ],
  'reasoning-tree-extraction',
);

// ── Prompt 2: vignette. What must not reach the model under test is flagged by QC (qc-preamble.ts). ──
const VIGNETTE = 'The patient was aged 70 years. Systolic blood pressure was 150 mmHg. The clinical question concerns management.';
const vignettes = labels(
  [
    { id: 'vg-clean', text: VIGNETTE, expect: accept('strict') },
    { id: 'vg-preamble', text: `Here is the clinical case vignette:\n${VIGNETTE}`, expect: reject('Here is') },
    { id: 'vg-bold-label', text: `**Case Vignette:**\n${VIGNETTE}`, expect: reject('**Case Vignette:') },
    { id: 'vg-think', text: `<think>Avoid the pathway words.</think>${VIGNETTE}`, expect: reject('<think>') },
    { id: 'vg-meta-commentary', text: `${VIGNETTE}\n\nI have avoided revealing the decision steps.`, expect: reject('I have avoided') },
  ],
  'case-vignette-synthesis',
);

// ── Prompt 3: narrative of a 2-step pathway (3 statements) ──
const NARRATIVE = [
  'Systolic pressure of 150 mmHg meets the threshold.',
  'Without diabetes the next question is end-organ damage.',
  'Hence ambulatory monitoring confirms the diagnosis.',
];
const narratives = labels(
  [
    { id: 'nr-strict', text: JSON.stringify(NARRATIVE), expect: accept('strict', 3) },
    {
      id: 'nr-fence-trailing-comma',
      text: `\`\`\`json\n[\n${NARRATIVE.map((x) => JSON.stringify(x)).join(',\n')},\n]\n\`\`\``,
      expect: accept('fence+lenient-json:trailing-comma', 3),
    },
    { id: 'nr-preamble', text: `Here is the narrative:\n${JSON.stringify(NARRATIVE)}`, expect: accept('preamble', 3) },
    { id: 'nr-wrong-count', text: JSON.stringify(NARRATIVE.slice(0, 2)), expect: reject('expected 3 statements') },
    { id: 'nr-truncated', text: JSON.stringify(NARRATIVE).slice(0, 40), finishReason: 'length', expect: reject(TRUNCATED) },
  ],
  'reasoning-narrative-conversion',
);

export const REALISTIC_ANSWERS: readonly LabelledAnswer[] = [
  ...single,
  ...doctor,
  ...patient,
  ...steps,
  ...outcome,
  ...trees,
  ...vignettes,
  ...narratives,
];

export function labelled(id: string): LabelledAnswer {
  const a = REALISTIC_ANSWERS.find((x) => x.id === id);
  if (!a)
    throw new Error(`no realistic answer labelled ${JSON.stringify(id)}; see the labels in stages/models/testing/realistic-answers.ts`);
  return a;
}

export const answersFor = (prompt: LabelledAnswer['prompt']): LabelledAnswer[] => REALISTIC_ANSWERS.filter((a) => a.prompt === prompt);

/** A rejection's reason for a step-score prompt of m reference and n candidate steps. */
export const expectedReason = (reason: string, m: number, n: number): string =>
  reason.replaceAll('{m}', String(m)).replaceAll('{n}', String(n));
