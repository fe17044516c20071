import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTemplate, renderTemplate, DEFAULT_TEMPLATES_ROOT } from './templates.ts';
import { PROMPTS, PROMPT_IDS, type PromptId } from './prompt-registry.ts';
import { formatPathway, pathwayVars } from './pathway-labels.ts';
import { doctorMessages, patientMessages } from './dialogue-messages.ts';

// Opening and closing text of each prompt, typed from the paper (Appendix E, Tables 8–16).
const EXPECTED: Record<PromptId, { start: string; end: string; also?: string[] }> = {
  'reasoning-tree-extraction': {
    start:
      'You are a medical expert. You will receive a clinical guideline as input. Your task is to read the input, understand each paragraph, extract all content related to clinical decision-making, and convert it into a decision tree represented as a JSON object.',
    end: '"2": [\n…\n]\n}\n}\n## Your Output:',
    also: [
      'Do not include any explanations, commentary, or content beyond the specified JSON output.\n## Guideline:\n{Guideline}\n## Example of a Leaf-Node JSON Format:\n{\n"index": 1,\n"leaf": true,\n"conclusion": "a specific conclusion"\n}',
      '(e.g., “Is symptom A present?”, “Is lab value B ≥ threshold?”, “Did event C occur within time window D?”)',
    ],
  },
  'case-vignette-synthesis': {
    start: 'You are a medical expert. I will provide you with a clinical decision path consisting of multiple steps.',
    end: '12. Do not add any extra information beyond what is provided.\n## Primary Clinical Focus:\n{Primary_Clinical_Focus}\n## Clinical Decision Path:\n{Condition_Path}\n## Your Output:',
    also: ['8. Write in the past tense as if describing a patient’s clinical course.'],
  },
  'reasoning-narrative-conversion': {
    start:
      'You are a medical expert. You will be provided with a single JSON object containing information about a clinical decision pathway and a corresponding patient case under a specific clinical focus.\n',
    end: 'Output must consist only of the JSON array, with no additional text.\n## Input:\n{Input}\n## Output Format: [\n"Reasoning statement for step 1 …",\n"Reasoning statement for step 2 …",\n"Reasoning statement for step 3 …" ]\n## Your Output:',
  },
  'single-turn-inference': {
    start:
      'You are a medical expert. I will provide you with a clinical guideline, a case vignette, and an example of the required output format.',
    end: 'The output must not contain any explanations, commentary, or content beyond what is shown in the provided example format, and it must strictly adhere to the format.\n## Guideline:\n{Guideline}\n## Case Vignette:\n{Case_Vignette}\n## Output Format:\n### Clinical Decision Process:\n1. A core reasoning logic that links the key patient symptoms or findings to explicitly stated rules or thresholds in the clinical guideline.\n2. …\n…\n### Clinical Decision Outcome: …\n## Your Output:',
  },
  'single-turn-step-level-consistency-scoring': {
    start: 'You are a medical expert.\nYou will receive two clinical decision pathways:\n',
    end: '- Before producing the final output, verify that all possible Reference–Candidate pairs are included and that no pair is missing or duplicated.\n## Reference Clinical Pathway:\n{Reference_Pathway}\n## Candidate Clinical Pathway:\n{Candidate_Pathway}\n## Your Output:',
    also: ['- Output all {Reference_Pathway_Length} × {Candidate_Pathway_Length} step pairs exactly once.'],
  },
  'multi-turn-inference': {
    start: 'You are a doctor. Your task is to determine the correct clinical conclusion strictly according to the provided guideline.\n',
    end: 'Do not provide explanations, reasoning steps, or probabilities.\n## Patient’s Clinical Inquiry Goal\n{Clinical_Inquiry_Goal}\n## Guideline:\n{Guideline}',
    also: ['output exactly: ’Final Conclusion: <short clinical conclusion>’.'],
  },
  'multi-turn-patient-environment': {
    start:
      'You will role-play as a patient. You must answer the doctor’s questions as if you are a real person with a coherent and consistent underlying health state.\n',
    end: '6. Do not reveal that you are using a case vignette or an assumed patient.\n## Case Vignette:\n{Case_Vignette}',
    also: ['1. Keep your answer to exactly one word: "Yes" or "No".'],
  },
  'multi-turn-step-level-consistency-scoring': {
    start: 'You are a medical expert.\nYou will receive two clinical questioning pathways:\n',
    end: '## Reference Clinical Questioning Pathway:\n{Reference_Pathway}\n## Candidate Clinical Questioning Pathway:\n{Candidate_Pathway}\n## Your Output:',
    also: ['covering C1 to C{Candidate_Pathway_Length} in order. - ach pair must follow the format R<i>-C<j>: <score>.'],
  },
  'outcome-accuracy-scoring': {
    start: 'You are a medical expert.\nYou will receive two clinical conclusions:\n',
    end: '- Output only a single integer (1–5)\n- Do not include explanations, comments, or additional text\n## Reference Clinical Conclusion:\n{Reference_Conclusion}\n## Candidate Clinical Conclusion:\n{Candidate_Conclusion}\n## Your Output:',
  },
};

/** Distinct, recognisable values for every placeholder a prompt declares. */
function sampleVars(names: readonly string[]): Record<string, string | number> {
  return Object.fromEntries(names.map((n) => [n, n.endsWith('_Length') ? 3 : `<<value of ${n}>>`]));
}

describe('the nine templates', () => {
  for (const p of PROMPTS) {
    test(`Prompt ${p.number} (${p.id}) loads, is verbatim, and renders completely`, () => {
      const t = loadTemplate(p.id, 'en');
      assert.equal(t.language, 'en');
      assert.equal(t.identity, `en/${p.number}-${p.id}.md`);
      assert.equal(t.sourcePath, join(DEFAULT_TEMPLATES_ROOT, 'en', `${p.number}-${p.id}.md`));
      const e = EXPECTED[p.id];
      assert.ok(t.text.startsWith(e.start), `Prompt ${p.number} starts with: ${t.text.slice(0, 120)}`);
      assert.ok(t.text.endsWith(e.end), `Prompt ${p.number} ends with: ${t.text.slice(-200)}`);
      for (const s of e.also ?? []) assert.ok(t.text.includes(s), `Prompt ${p.number} contains ${s}`);
      assert.ok(!t.text.includes('<!--') && !t.text.includes('$'), 'header comment and LaTeX are gone');

      const vars = sampleVars(p.placeholders);
      const out = renderTemplate(t, vars);
      for (const name of p.placeholders) {
        assert.ok(!out.includes(`{${name}}`), `{${name}} left in Prompt ${p.number}`);
        assert.ok(out.includes(String(vars[name])), `value of ${name} inserted`);
      }
      // Rendering touches nothing but the placeholders.
      let expected = t.text;
      for (const name of p.placeholders) expected = expected.split(`{${name}}`).join(String(vars[name]));
      assert.equal(out, expected);
    });
  }

  test('each declared placeholder set is exactly the {Capitalised_Names} in the printed text', () => {
    for (const p of PROMPTS) {
      const t = loadTemplate(p.id, 'en');
      const found = new Set([...t.text.matchAll(/\{([A-Z][A-Za-z_]*)\}/g)].map((m) => m[1]));
      assert.deepEqual([...found].sort(), [...p.placeholders].sort(), `Prompt ${p.number}`);
    }
  });

  test('Prompt 5 renders its labels and counts from the lengths', () => {
    const t = loadTemplate('single-turn-step-level-consistency-scoring', 'en');
    const out = renderTemplate(t, pathwayVars(['a', 'b', 'c', 'd'], ['x', 'y']));
    assert.ok(out.includes('the steps are labeled sequentially from R1 to R4, for a total of 4 steps.'));
    assert.ok(out.includes('the steps are labeled sequentially from C1 to C2, for a total of 2 steps.'));
    assert.ok(out.includes('- Output all 4 × 2 step pairs exactly once.'));
    assert.ok(out.includes('R<i>-C1: <score>, R<i>-C2: <score>, …, R<i>-C2: <score>'));
    assert.ok(
      out.includes(
        '## Reference Clinical Pathway:\nR1: a\nR2: b\nR3: c\nR4: d\n## Candidate Clinical Pathway:\nC1: x\nC2: y\n## Your Output:',
      ),
    );
  });

  test("Prompt 1's JSON examples survive rendering untouched", () => {
    const t = loadTemplate('reasoning-tree-extraction', 'en');
    const out = renderTemplate(t, { Guideline: 'GUIDELINE TEXT' });
    assert.ok(out.includes('## Guideline:\nGUIDELINE TEXT\n## Example of a Leaf-Node JSON Format:\n{\n"index": 1,'));
    assert.ok(out.includes('"description": "description of a specific decision step",\n"yes": {},\n"no": {}\n}'));
    assert.ok(
      out.includes(
        '## Output Format:\n{\n"primary_clinical_focus": "diagnosis | classification | screening | management",\n"decision_tree": {\n"index": 1,\n…\n},',
      ),
    );
  });

  test('values are inserted literally: a value containing a placeholder is not expanded again', () => {
    const t = loadTemplate('single-turn-inference', 'en');
    const out = renderTemplate(t, { Guideline: 'see {Case_Vignette} and $& and $1', Case_Vignette: 'V' });
    assert.ok(out.includes('## Guideline:\nsee {Case_Vignette} and $& and $1\n## Case Vignette:\nV\n'));
  });

  test('a missing variable throws, naming the template and the variable', () => {
    const t = loadTemplate('single-turn-inference', 'en');
    assert.throws(() => renderTemplate(t, { Guideline: 'g' }), /en\/4-single-turn-inference\.md.*\{Case_Vignette\}/);
    const t5 = loadTemplate('single-turn-step-level-consistency-scoring', 'en');
    const vars = pathwayVars(['a'], ['b']);
    delete vars.Candidate_Pathway_Length;
    assert.throws(() => renderTemplate(t5, vars), /\{Candidate_Pathway_Length\}/);
    assert.throws(() => renderTemplate(t5, { ...pathwayVars(['a'], ['b']), Reference_Pathway_Length: Number.NaN }), /not a finite number/);
  });

  test('an unknown variable throws, naming the template and the variable', () => {
    const t = loadTemplate('outcome-accuracy-scoring', 'en');
    assert.throws(
      () => renderTemplate(t, { Reference_Conclusion: 'a', Candidate_Conclusion: 'b', Guideline: 'g' }),
      /9-outcome-accuracy-scoring\.md.*no placeholder \{Guideline\}/,
    );
    // The paper's intro says "{guideline}"; the templates use "{Guideline}": case matters.
    assert.throws(() => renderTemplate(loadTemplate('reasoning-tree-extraction', 'en'), { guideline: 'g' }), /\{guideline\}/);
  });

  test('prompt ids and file names are the ones documented', () => {
    assert.deepEqual(
      PROMPTS.map((p) => p.file),
      [
        '1-reasoning-tree-extraction.md',
        '2-case-vignette-synthesis.md',
        '3-reasoning-narrative-conversion.md',
        '4-single-turn-inference.md',
        '5-single-turn-step-level-consistency-scoring.md',
        '6-multi-turn-inference.md',
        '7-multi-turn-patient-environment.md',
        '8-multi-turn-step-level-consistency-scoring.md',
        '9-outcome-accuracy-scoring.md',
      ],
    );
    assert.equal(PROMPT_IDS.length, 9);
    assert.deepEqual(
      PROMPTS.filter((p) => p.role === 'system').map((p) => p.number),
      [6, 7],
    );
    assert.deepEqual(
      PROMPTS.map((p) => p.table),
      [8, 9, 10, 11, 12, 13, 14, 15, 16],
    );
  });
});

describe('languages', () => {
  test('a language without its own templates falls back to English', () => {
    for (const lang of ['zh', 'zh-CN', 'fr']) {
      const t = loadTemplate('single-turn-inference', lang);
      assert.equal(t.requestedLanguage, lang);
      assert.equal(t.language, 'en');
      assert.equal(t.identity, 'en/4-single-turn-inference.md');
    }
  });

  test('a supplied zh template wins; the others still fall back; a region tag finds it', () => {
    const root = mkdtempSync(join(tmpdir(), 'cdp-templates-'));
    try {
      mkdirSync(join(root, 'en'));
      mkdirSync(join(root, 'zh'));
      for (const p of PROMPTS) writeFileSync(join(root, 'en', p.file), readFileSync(join(DEFAULT_TEMPLATES_ROOT, 'en', p.file)));
      writeFileSync(
        join(root, 'zh', '4-single-turn-inference.md'),
        '<!-- 译自论文提示 4 -->\n你是一名医学专家。\n## 指南：\n{Guideline}\n## 病例：\n{Case_Vignette}\n## 输出格式：\n### 临床决策过程：\n1. …\n### 临床决策结果：…\n',
      );
      const zh = loadTemplate('single-turn-inference', 'zh', { root });
      assert.equal(zh.language, 'zh');
      assert.equal(zh.identity, 'zh/4-single-turn-inference.md');
      assert.equal(zh.sourcePath, join(root, 'zh', '4-single-turn-inference.md'));
      assert.equal(
        renderTemplate(zh, { Guideline: '指南正文', Case_Vignette: '病例正文' }),
        '你是一名医学专家。\n## 指南：\n指南正文\n## 病例：\n病例正文\n## 输出格式：\n### 临床决策过程：\n1. …\n### 临床决策结果：…',
      );
      assert.equal(loadTemplate('single-turn-inference', 'zh-CN', { root }).identity, 'zh/4-single-turn-inference.md');
      assert.equal(loadTemplate('outcome-accuracy-scoring', 'zh', { root }).identity, 'en/9-outcome-accuracy-scoring.md');
      assert.equal(loadTemplate('single-turn-inference', 'en', { root }).language, 'en');

      writeFileSync(join(root, 'zh', '9-outcome-accuracy-scoring.md'), '参考结论：{Reference_Conclusion}\n');
      assert.throws(
        () => loadTemplate('outcome-accuracy-scoring', 'zh', { root }),
        /zh\/9-outcome-accuracy-scoring\.md lacks the placeholder \{Candidate_Conclusion\}/,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a language that is not a tag is refused (it becomes a path)', () => {
    assert.throws(() => loadTemplate('single-turn-inference', '../en'), /not a language tag/);
    assert.throws(() => loadTemplate('single-turn-inference', ''), /not a language tag/);
  });

  test('a root with no templates says where the English ones are', () => {
    const root = mkdtempSync(join(tmpdir(), 'cdp-templates-empty-'));
    try {
      assert.throws(
        () => loadTemplate('single-turn-inference', 'zh', { root }),
        /no template file 4-single-turn-inference\.md.*tried zh, en/,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('pathway labels and dialogue roles', () => {
  test('pathways are labelled lines, one per step, inner line breaks folded', () => {
    assert.equal(formatPathway(['Is fever present?', 'Is CRP  ≥ 10\nmg/L?'], 'C'), 'C1: Is fever present?\nC2: Is CRP ≥ 10 mg/L?');
    assert.throws(() => formatPathway([], 'R'), /empty reference pathway/);
  });

  test('the doctor sees its questions as assistant turns, the patient sees them as user turns', () => {
    const turns = [{ question: 'Q1?', answer: 'Yes' }, { question: 'Q2?', answer: 'No' }, { question: 'Q3?' }];
    assert.deepEqual(doctorMessages('DOC', turns.slice(0, 2)), [
      { role: 'system', content: 'DOC' },
      { role: 'assistant', content: 'Q1?' },
      { role: 'user', content: 'Yes' },
      { role: 'assistant', content: 'Q2?' },
      { role: 'user', content: 'No' },
    ]);
    assert.deepEqual(doctorMessages('DOC', []), [{ role: 'system', content: 'DOC' }]);
    assert.deepEqual(patientMessages('PAT', turns), [
      { role: 'system', content: 'PAT' },
      { role: 'user', content: 'Q1?' },
      { role: 'assistant', content: 'Yes' },
      { role: 'user', content: 'Q2?' },
      { role: 'assistant', content: 'No' },
      { role: 'user', content: 'Q3?' },
    ]);
    assert.throws(() => doctorMessages('DOC', turns), /turn 3 has no patient answer/);
    assert.throws(() => patientMessages('PAT', turns.slice(0, 2)), /unanswered question/);
  });
});
