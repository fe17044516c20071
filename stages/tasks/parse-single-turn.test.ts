import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseSingleTurn } from './parse-single-turn.ts';

const STEPS = [
  'The patient has fever ≥ 38.5 °C for 3 days, meeting the guideline threshold for suspected infection.',
  'The CRP of 45 mg/L exceeds the 10 mg/L threshold, supporting bacterial aetiology.',
  'No penicillin allergy is reported, so first-line amoxicillin applies.',
];
const OUTCOME = 'Start oral amoxicillin 500 mg three times daily for 5 days.';

/** One table row: the answer, the format label it must record, and the steps and outcome read. */
function ok(raw: string, format: string, steps = STEPS, outcome = OUTCOME): void {
  const r = parseSingleTurn(raw);
  assert.deepEqual(r, { ok: true, steps, outcome, format }, raw);
}

describe('well-formed and tolerated single-turn answers', () => {
  test('exactly the format of Prompt 4', () => {
    ok(
      `### Clinical Decision Process:
1. ${STEPS[0]}
2. ${STEPS[1]}
3. ${STEPS[2]}
### Clinical Decision Outcome: ${OUTCOME}`,
      'strict',
    );
  });

  test('bold headings without ###, outcome on the next line, blank lines between steps', () => {
    ok(
      `**Clinical Decision Process:**

1. ${STEPS[0]}

2. ${STEPS[1]}

3. ${STEPS[2]}

**Clinical Decision Outcome:**
${OUTCOME}`,
      'bold-marker+markdown-heading+separator',
    );
  });

  test('heading level variations and colon outside the bold markers', () => {
    ok(
      `## **Clinical Decision Process**:
1) ${STEPS[0]}
2) ${STEPS[1]}
3) ${STEPS[2]}
#### Clinical Decision Outcome
**${OUTCOME}**`,
      'bold-marker+list-style+markdown-heading+separator',
    );
  });

  test('"Step N:" numbering with bold labels', () => {
    ok(
      `### Clinical Decision Process:
**Step 1:** ${STEPS[0]}
**Step 2:** ${STEPS[1]}
**Step 3:** ${STEPS[2]}
### Clinical Decision Outcome: ${OUTCOME}`,
      'bold-marker+list-style',
    );
  });

  test('bold numbers "**1.**"', () => {
    ok(
      `### Clinical Decision Process:
**1.** ${STEPS[0]}
**2.** ${STEPS[1]}
**3.** ${STEPS[2]}
### Clinical Decision Outcome: **${OUTCOME}**`,
      'bold-marker+list-style',
    );
  });

  test('bullet list instead of numbers (any bullet character)', () => {
    ok(
      `### Clinical Decision Process:
- ${STEPS[0]}
- ${STEPS[1]}
• ${STEPS[2]}
### Clinical Decision Outcome: ${OUTCOME}`,
      'list-style',
    );
  });

  test('under numbered steps, bullets of the same indentation continue the step', () => {
    const r = parseSingleTurn(`Clinical Decision Process:\n1. Fever\n- 39 °C\n- for 3 days\n2. CRP high\nClinical Decision Outcome: D`);
    assert.deepEqual(r, { ok: true, steps: ['Fever 39 °C for 3 days', 'CRP high'], outcome: 'D', format: 'list-style+markdown-heading' });
  });

  test('multi-line steps with continuation lines and nested sub-bullets', () => {
    ok(
      `### Clinical Decision Process:
1. The patient has fever ≥ 38.5 °C for 3 days,
   meeting the guideline threshold for suspected infection.
2. The CRP of 45 mg/L exceeds the 10 mg/L threshold,
   - supporting bacterial aetiology.
3. No penicillin allergy is reported,
so first-line amoxicillin applies.
### Clinical Decision Outcome: ${OUTCOME}`,
      'list-style',
    );
  });

  test('title-only step lines whose body is the next paragraph', () => {
    ok(
      `### Clinical Decision Process:

**Step 1: Fever**

The patient has fever ≥ 38.5 °C for 3 days, meeting the guideline threshold for suspected infection.

**Step 2: CRP**
The CRP of 45 mg/L exceeds the 10 mg/L threshold, supporting bacterial aetiology.

3. **Allergy**:

No penicillin allergy is reported, so first-line amoxicillin applies.

This concludes the process.

### Clinical Decision Outcome: ${OUTCOME}`,
      'bold-marker+list-style+trailing-note',
      [`Fever ${STEPS[0]}`, `CRP ${STEPS[1]}`, `Allergy: ${STEPS[2]}`],
    );
  });

  test('an unindented paragraph between two steps belongs to the step before', () => {
    const r = parseSingleTurn(
      'Clinical Decision Process:\n1. Fever is present.\n\nThis meets the threshold.\n\n2. CRP is high.\nClinical Decision Outcome: Treat.',
    );
    assert.deepEqual(r, {
      ok: true,
      steps: ['Fever is present. This meets the threshold.', 'CRP is high.'],
      outcome: 'Treat.',
      format: 'list-style+markdown-heading',
    });
  });

  test('steps as a markdown table', () => {
    ok(
      `### Clinical Decision Process:
| Step | Reasoning |
|------|-----------|
| 1 | ${STEPS[0]} |
| 2 | ${STEPS[1]} |
| 3 | ${STEPS[2]} |

### Clinical Decision Outcome: ${OUTCOME}`,
      'list-style',
    );
  });

  test('a step whose number stands alone on its line', () => {
    ok(
      `### Clinical Decision Process:
1.
${STEPS[0]}
2.
${STEPS[1]}
3.
${STEPS[2]}
### Clinical Decision Outcome: ${OUTCOME}`,
      'list-style',
    );
  });

  test('numbers inside step text ("5 mg", "1.5") do not start steps', () => {
    ok(
      `### Clinical Decision Process:
1. Creatinine is
1.5 mg/dL, above the threshold.
2. Dose of
5 mg is within range.
### Clinical Decision Outcome: Reduce the dose.`,
      'list-style',
      ['Creatinine is 1.5 mg/dL, above the threshold.', 'Dose of 5 mg is within range.'],
      'Reduce the dose.',
    );
  });

  test('stray text before, between (after a blank line) and after the sections', () => {
    ok(
      `Sure — here is the guideline-based decision for this case.

### Clinical Decision Process:
Following the guideline step by step:
1. ${STEPS[0]}
2. ${STEPS[1]}
3. ${STEPS[2]}

All steps above are taken from the guideline.

### Clinical Decision Outcome: ${OUTCOME}

Note: this conclusion applies only to the information given in the vignette.`,
      'preamble+trailing-note',
    );
  });

  test('reasoning blocks, closed and server-stripped opening tag', () => {
    const body = `### Clinical Decision Process:\n1. ${STEPS[0]}\n2. ${STEPS[1]}\n3. ${STEPS[2]}\n### Clinical Decision Outcome: ${OUTCOME}`;
    ok(`<think>\nThe guideline says... 1. maybe this\n### Clinical Decision Outcome: wrong draft\n</think>\n${body}`, 'think-block');
    ok(`Let me think about the CRP threshold first.\n</think>\n\n${body}`, 'think-block');
  });

  test('inside a code fence', () => {
    ok(
      `\`\`\`markdown
### Clinical Decision Process:
1. ${STEPS[0]}
2. ${STEPS[1]}
3. ${STEPS[2]}
### Clinical Decision Outcome: ${OUTCOME}
\`\`\``,
      'fence',
    );
  });

  test('an echoed format example before the answer: the last sections win', () => {
    ok(
      `## Output Format:
### Clinical Decision Process:
1. A core reasoning logic that links the key patient symptoms or findings to explicitly stated rules or thresholds in the clinical guideline.
2. …
### Clinical Decision Outcome: …
## Your Output:
### Clinical Decision Process:
1. ${STEPS[0]}
2. ${STEPS[1]}
3. ${STEPS[2]}
### Clinical Decision Outcome: ${OUTCOME}`,
      'preamble',
    );
  });

  test('sections in reverse order', () => {
    ok(
      `### Clinical Decision Outcome: ${OUTCOME}

### Clinical Decision Process:
1. ${STEPS[0]}
2. ${STEPS[1]}
3. ${STEPS[2]}`,
      'section-order',
    );
  });

  test('"the guideline is not applicable" is an outcome like any other', () => {
    ok(
      `### Clinical Decision Process:\n1. ${STEPS[0]}\n### Clinical Decision Outcome: The guideline is not applicable.`,
      'strict',
      [STEPS[0]],
      'The guideline is not applicable.',
    );
  });

  test('outcome given as a one-item bullet on the next line', () => {
    ok(`### Clinical Decision Process:\n1. ${STEPS[0]}\n### Clinical Decision Outcome:\n- ${OUTCOME}`, 'separator', [STEPS[0]]);
  });
});

describe('other wordings of the headings (issue 11), one row each', () => {
  const body = `1. ${STEPS[0]}\n2. ${STEPS[1]}\n3. ${STEPS[2]}`;
  const rows: Array<{ input: string; format: string; outcome?: string }> = [
    { input: `### Clinical Decision Process:\n${body}\n## Final Clinical Outcome: ${OUTCOME}`, format: 'heading-synonym+markdown-heading' },
    { input: `### Clinical Decision Process:\n${body}\nFinal Outcome: ${OUTCOME}`, format: 'heading-synonym+markdown-heading' },
    { input: `### Clinical Decision Process:\n${body}\n### Conclusion: ${OUTCOME}`, format: 'heading-synonym' },
    {
      input: `### Clinical Decision Process:\n${body}\n**Final Answer:** ${OUTCOME}`,
      format: 'bold-marker+heading-synonym+markdown-heading',
    },
    { input: `### Clinical Decision Process:\n${body}\n### Clinical decision outcome: ${OUTCOME}`, format: 'case' },
    { input: `### Clinical Decision Process:\n${body}\n### Clinical Decision Outcome - ${OUTCOME}`, format: 'separator' },
    { input: `### Clinical Decision Process：\n${body}\n### Clinical Decision Outcome：${OUTCOME}`, format: 'full-width' },
    { input: `## Reasoning Steps\n${body}\n## Conclusion\n${OUTCOME}`, format: 'heading-synonym+markdown-heading+separator' },
    // Swallowed into the outcome before: a note line right after it is a trailing note.
    {
      input: `### Clinical Decision Process:\n${body}\n### Clinical Decision Outcome: ${OUTCOME}\nNote: this applies only to adults.`,
      format: 'trailing-note',
    },
    {
      input: `### Clinical Decision Process:\n${body}\n### Clinical Decision Outcome: ${OUTCOME}\n\n(Note: based on the vignette only.)`,
      format: 'trailing-note',
    },
    {
      input: `### Clinical Decision Process:\n${body}\n### Clinical Decision Outcome: ${OUTCOME}\n\nConclusion: amoxicillin it is.`,
      format: 'trailing-note',
    },
    {
      input: `### Clinical Decision Process:\n- ${STEPS[0]}\n- ${STEPS[1]}\n- ${STEPS[2]}\n### Clinical Decision Outcome: ${OUTCOME}`,
      format: 'list-style',
    },
    {
      input: `### Clinical Decision Process:\n**Step 1:** ${STEPS[0]}\n**Step 2:** ${STEPS[1]}\n**Step 3:** ${STEPS[2]}\n### Clinical Decision Outcome: ${OUTCOME}`,
      format: 'bold-marker+list-style',
    },
  ];
  for (const row of rows) test(row.input.split('\n').at(-1)!.slice(0, 60), () => ok(row.input, row.format));
});

describe('Chinese answers', () => {
  const zhSteps = [
    '患者体温39℃，持续3天，符合指南中发热的标准。',
    'C反应蛋白45 mg/L，高于10 mg/L阈值。',
    '无青霉素过敏史，适用一线阿莫西林。',
  ];
  const zhOutcome = '口服阿莫西林治疗5天。';
  const zh = (process: string, numbering: (k: number) => string, outcome: string) =>
    `### ${process}：\n${zhSteps.map((s, k) => `${numbering(k + 1)}${s}`).join('\n')}\n### ${outcome}：${zhOutcome}`;

  const styles: Array<[string, (k: number) => string]> = [
    ['1、', (k) => `${k}、`],
    ['（1）', (k) => `（${k}）`],
    ['(1)', (k) => `(${k}) `],
    ['一、', (k) => `${'一二三'[k - 1]}、`],
    ['①', (k) => `${'①②③'[k - 1]} `],
    ['第1步：', (k) => `第${k}步：`],
    ['1．(full-width stop)', (k) => `${k}．`],
  ];
  for (const [name, numbering] of styles) {
    test(`numbering ${name}`, () => {
      assert.deepEqual(parseSingleTurn(zh('临床决策过程', numbering, '临床决策结果')), {
        ok: true,
        steps: zhSteps,
        outcome: zhOutcome,
        format: 'chinese-marker+list-style',
      });
    });
  }

  test('numbering "1." under Chinese headings needs only the Chinese marker', () => {
    assert.deepEqual(parseSingleTurn(zh('临床决策过程', (k) => `${k}. `, '临床决策结果')), {
      ok: true,
      steps: zhSteps,
      outcome: zhOutcome,
      format: 'chinese-marker',
    });
  });

  test('"### 最终结论：…" as the outcome heading', () => {
    assert.deepEqual(parseSingleTurn(zh('临床决策过程', (k) => `${k}. `, '最终结论')), {
      ok: true,
      steps: zhSteps,
      outcome: zhOutcome,
      format: 'chinese-marker+heading-synonym',
    });
  });

  test('heading variants 临床决策流程 / 临床决策结论, bold, no ###', () => {
    const raw = `**临床决策流程：**\n1. ${zhSteps[0]}\n2. ${zhSteps[1]}\n3. ${zhSteps[2]}\n**临床决策结论：** ${zhOutcome}`;
    assert.deepEqual(parseSingleTurn(raw), {
      ok: true,
      steps: zhSteps,
      outcome: zhOutcome,
      format: 'bold-marker+chinese-marker+heading-synonym+markdown-heading',
    });
  });

  test('English headings over Chinese content (the English template on a zh guideline)', () => {
    const raw = `### Clinical Decision Process:\n1. ${zhSteps[0]}\n2. ${zhSteps[1]}\n3. ${zhSteps[2]}\n### Clinical Decision Outcome: ${zhOutcome}`;
    assert.deepEqual(parseSingleTurn(raw), { ok: true, steps: zhSteps, outcome: zhOutcome, format: 'strict' });
  });
});

describe('answers that do not parse', () => {
  test('missing outcome: the steps are still returned', () => {
    const r = parseSingleTurn(`### Clinical Decision Process:\n1. ${STEPS[0]}\n2. ${STEPS[1]}`);
    assert.deepEqual(r, {
      ok: false,
      reason: "no 'Clinical Decision Outcome' section (the answer may be truncated)",
      steps: [STEPS[0], STEPS[1]],
    });
  });

  test('truncated mid-step', () => {
    const r = parseSingleTurn(`### Clinical Decision Process:\n1. ${STEPS[0]}\n2. The CRP of 45 mg/L exce`);
    assert.equal(r.ok, false);
    assert.deepEqual(r.steps, [STEPS[0], 'The CRP of 45 mg/L exce']);
    assert.match(r.ok ? '' : r.reason, /no 'Clinical Decision Outcome' section/);
  });

  test('truncated right after the outcome heading', () => {
    const r = parseSingleTurn(`### Clinical Decision Process:\n1. ${STEPS[0]}\n### Clinical Decision Outcome:`);
    assert.deepEqual(r, { ok: false, reason: "the 'Clinical Decision Outcome' section is empty", steps: [STEPS[0]] });
  });

  test('no numbered steps: prose in the process section', () => {
    const r = parseSingleTurn(
      `### Clinical Decision Process:\nThe patient has fever and a raised CRP.\n### Clinical Decision Outcome: ${OUTCOME}`,
    );
    assert.deepEqual(r, { ok: false, reason: "no numbered steps in the 'Clinical Decision Process' section", outcome: OUTCOME });
  });

  test('no headings at all: free prose', () => {
    const r = parseSingleTurn('Based on the guideline, the patient should receive amoxicillin.');
    assert.deepEqual(r, {
      ok: false,
      reason: "no 'Clinical Decision Process' section and no numbered steps; no 'Clinical Decision Outcome' section",
    });
  });

  test('numbered steps without a process heading are still read', () => {
    ok(`1. ${STEPS[0]}\n2. ${STEPS[1]}\n3. ${STEPS[2]}\nClinical Decision Outcome: ${OUTCOME}`, 'markdown-heading+missing-heading');
  });

  test('a sentence that merely starts with the heading words is not a heading', () => {
    const r = parseSingleTurn(`### Clinical Decision Process:\n1. Clinical decision outcome depends on CRP.\n2. ${STEPS[1]}`);
    assert.equal(r.ok, false);
    assert.deepEqual(r.steps, ['Clinical decision outcome depends on CRP.', STEPS[1]]);
  });

  test('empty answer, and an answer that is only reasoning', () => {
    assert.deepEqual(parseSingleTurn('  \n'), { ok: false, reason: 'the answer is empty' });
    assert.deepEqual(parseSingleTurn('<think>I need to check the guideline'), {
      ok: false,
      reason: 'the answer is only reasoning: a <think> block was opened and never closed, and no answer follows it',
    });
    assert.deepEqual(parseSingleTurn('<think>All of it was reasoning.</think>'), {
      ok: false,
      reason: 'the answer is empty once reasoning blocks are removed',
    });
  });

  test('a truncated answer is refused as such, even when it looks complete', () => {
    const complete = `### Clinical Decision Process:\n1. ${STEPS[0]}\n### Clinical Decision Outcome: ${OUTCOME}`;
    assert.deepEqual(parseSingleTurn(complete, 'length'), {
      ok: false,
      reason: 'truncated answer (finish_reason: length): cut off at the output token limit; answer again, complete and more concisely',
    });
    assert.equal(parseSingleTurn(complete, 'stop').ok, true);
  });

  test('an empty process is a fault even under other heading wordings', () => {
    const r = parseSingleTurn(`## Reasoning Process:\n\n## Final Outcome: ${OUTCOME}`);
    assert.deepEqual(r, { ok: false, reason: "no numbered steps in the 'Clinical Decision Process' section", outcome: OUTCOME });
  });
});

describe('sub-lines that look like headings', () => {
  test('an indented "Outcome:" inside a step is part of the step, not the outcome section', () => {
    const r = parseSingleTurn('### Clinical Decision Process:\n1. Is fever present?\n   Outcome: yes\n2. Is CRP raised?\n   Outcome: no\n');
    assert.deepEqual(r, {
      ok: false,
      reason: "no 'Clinical Decision Outcome' section (the answer may be truncated)",
      steps: ['Is fever present? Outcome: yes', 'Is CRP raised? Outcome: no'],
    });
  });
});
