import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { validateTree, isEvidenceNotFound, EVIDENCE_NOT_FOUND } from './tree-validate.ts';
import type { ReasoningTree } from './types.ts';
import { feverDecisionTree } from './testing/fever-tree.ts';

const markdown = [
  '# Fever',
  'Fever is defined as a temperature of at least 38 C. Patients with a temperature of 39 C or more should be admitted.',
  'Patients below 39 C can be treated as outpatients. Without fever, no infection work-up is needed.',
  'Temperature should be measured orally.',
].join('\n');

const good = (): ReasoningTree => ({
  primary_clinical_focus: 'management',
  decision_tree: feverDecisionTree(),
  node_guideline_mapping: {
    '1': ['Fever is defined as a temperature of at least 38 C.'],
    '2': ['Patients with a temperature of 39 C or more should be admitted.', 'Temperature should be measured orally.'],
    '3': ['Without fever, no infection work-up is needed.'],
    '4': ['Patients with a temperature of 39 C or more should be admitted.'],
    '5': ['Patients below 39 C can be treated as outpatients.'],
  },
});

/** Validates a tree after `edit`, expecting exactly the problems matched by `expected`. */
function expectProblems(edit: (t: ReasoningTree) => void, expected: RegExp[]): string[] {
  const t = good();
  edit(t);
  const r = validateTree(t, markdown);
  assert.equal(r.valid, false, 'tree should be invalid');
  assert.equal(r.problems.length, expected.length, r.problems.join('\n'));
  for (const re of expected)
    assert.ok(
      r.problems.some((p) => re.test(p)),
      `no problem matches ${re}:\n${r.problems.join('\n')}`,
    );
  return r.problems;
}

describe('validateTree', () => {
  test('a well-formed tree with verbatim evidence is valid with rate 1', () => {
    const r = validateTree(good(), markdown);
    assert.deepEqual(r, { valid: true, problems: [], evidenceVerbatimRate: 1, evidenceChecked: 6 });
  });

  test('a decision node missing its yes or no child', () => {
    expectProblems(
      (t) => {
        delete t.decision_tree.yes!.no;
      },
      [
        /^node 2: decision node has a yes child but no no child \(one branch\); a yes\/no question needs both, so add the no branch$/,
        /^node_guideline_mapping key "5" refers to no node/,
      ],
    );
    expectProblems(
      (t) => {
        delete t.decision_tree.yes;
        t.decision_tree.leaf = false;
      },
      [
        /^node 1: decision node has a no child but no yes child \(one branch\)/,
        /key "2" refers to no node/,
        /key "4" refers to no node/,
        /key "5" refers to no node/,
      ],
    );
  });

  test('a childless node marked leaf: false is a decision node missing both children', () => {
    expectProblems(
      (t) => {
        t.decision_tree.no!.leaf = false;
      },
      [
        /^node 3: decision node has neither a yes nor a no child; give it both branches, or make it a leaf with a conclusion$/,
        /^node 3: decision node has no description$/,
        /^node 3: decision node also has a conclusion/,
      ],
    );
  });

  test('a leaf without a conclusion, or with an empty one', () => {
    expectProblems(
      (t) => {
        delete t.decision_tree.no!.conclusion;
      },
      [/^node 3: leaf has no conclusion$/],
    );
    expectProblems(
      (t) => {
        t.decision_tree.no!.conclusion = '  ';
      },
      [/^node 3: leaf has an empty conclusion$/],
    );
  });

  test('a leaf with a child, and a decision node with a conclusion', () => {
    expectProblems(
      (t) => {
        t.decision_tree.no!.yes = { index: 6, leaf: true, conclusion: 'x' };
        t.node_guideline_mapping['6'] = ['Temperature should be measured orally.'];
      },
      [/^node 3: marked as a leaf but has a yes child$/],
    );
    expectProblems(
      (t) => {
        t.decision_tree.yes!.conclusion = 'Admit';
      },
      [/^node 2: decision node also has a conclusion/],
    );
  });

  test('repeated and non-integer indices', () => {
    expectProblems(
      (t) => {
        t.decision_tree.yes!.yes!.index = 5;
        delete t.node_guideline_mapping['4'];
      },
      [/^node 5: index is used by 2 nodes/],
    );
    expectProblems(
      (t) => {
        t.decision_tree.no!.index = 3.5;
        t.node_guideline_mapping['3.5'] = t.node_guideline_mapping['3']!;
        delete t.node_guideline_mapping['3'];
      },
      [/^node 3.5: index 3.5 is not an integer$/, /key "3.5" refers to no node/],
    );
    expectProblems(
      (t) => {
        t.decision_tree.no!.index = Number.NaN;
        delete t.node_guideline_mapping['3'];
      },
      [/^the no child of node 1 \(no valid index\): index is missing or not a number and is not an integer$/],
    );
  });

  test('a focus outside the four of Prompt 1', () => {
    expectProblems(
      (t) => {
        (t as { primary_clinical_focus: string }).primary_clinical_focus = 'treatment';
      },
      [/^primary_clinical_focus "treatment" is not one of diagnosis, classification, screening, management$/],
    );
    expectProblems(
      (t) => {
        (t as { primary_clinical_focus: string }).primary_clinical_focus = 'Management';
      },
      [/"Management" is not one of/],
    );
  });

  test('an empty or missing description', () => {
    expectProblems(
      (t) => {
        t.decision_tree.description = '';
      },
      [/^node 1: decision node has an empty description$/],
    );
    expectProblems(
      (t) => {
        delete t.decision_tree.yes!.description;
      },
      [/^node 2: decision node has no description$/],
    );
  });

  test('a node without evidence, and an empty quote', () => {
    expectProblems(
      (t) => {
        delete t.node_guideline_mapping['4'];
      },
      [/^node 4: no evidence quote in node_guideline_mapping$/],
    );
    expectProblems(
      (t) => {
        t.node_guideline_mapping['4'] = [];
      },
      [/^node 4: no evidence quote/],
    );
    const problems = expectProblems(
      (t) => {
        t.node_guideline_mapping['3']!.push(' ');
      },
      [/^node 3: evidence quote 2 is empty$/],
    );
    assert.ok(!problems.some(isEvidenceNotFound), 'an empty quote is reported as empty, not as not found');
  });

  test('a mapping key that names no node', () => {
    expectProblems(
      (t) => {
        t.node_guideline_mapping['9'] = ['Temperature should be measured orally.'];
      },
      [/^node_guideline_mapping key "9" refers to no node in the tree \(node 9 does not exist\)$/],
    );
    expectProblems(
      (t) => {
        t.node_guideline_mapping['node_1'] = ['Temperature should be measured orally.'];
      },
      [/key "node_1" refers to no node/],
    );
  });

  test('quotes not in the guideline are recorded but do not invalidate; the rate counts them', () => {
    const t = good();
    t.node_guideline_mapping['2'] = [
      'Patients with a temperature of 39 C or more must be admitted.',
      'Temperature should be measured orally.',
    ];
    t.node_guideline_mapping['5'] = ['Outpatient care is fine.'];
    const r = validateTree(t, markdown);
    assert.equal(r.valid, true);
    assert.equal(r.evidenceChecked, 6);
    assert.equal(r.evidenceVerbatimRate, 4 / 6);
    assert.deepEqual(r.problems, [
      `${EVIDENCE_NOT_FOUND} node 2: quote 1 "Patients with a temperature of 39 C or more must be admitted."`,
      `${EVIDENCE_NOT_FOUND} node 5: quote 1 "Outpatient care is fine."`,
    ]);
    assert.ok(r.problems.every(isEvidenceNotFound));
  });

  test('quotes that differ only in what the normaliser folds still count as verbatim', () => {
    const t = good();
    t.node_guideline_mapping['1'] = ['FEVER is defined as a temperature of at least 38 C'];
    t.node_guideline_mapping['3'] = ['Without fever, no infection work\u2013up is needed.'];
    assert.equal(validateTree(t, markdown).evidenceVerbatimRate, 1);
  });

  test('an empty quote lowers the rate; no quotes at all gives NaN', () => {
    const t = good();
    t.node_guideline_mapping['3'] = [''];
    assert.equal(validateTree(t, markdown).evidenceVerbatimRate, 5 / 6);
    const bare = good();
    bare.node_guideline_mapping = {};
    const r = validateTree(bare, markdown);
    assert.equal(r.evidenceChecked, 0);
    assert.ok(Number.isNaN(r.evidenceVerbatimRate));
    assert.equal(r.problems.length, 5);
  });

  test('every problem names a node index (or the focus)', () => {
    const t = good();
    t.decision_tree.yes!.description = '';
    delete t.decision_tree.no!.conclusion;
    t.node_guideline_mapping['4'] = ['nowhere in the text'];
    delete t.node_guideline_mapping['5'];
    const r = validateTree(t, markdown);
    assert.equal(r.problems.length, 4);
    for (const p of r.problems) assert.match(p, /node \d+/);
  });

  test('a single-leaf tree is structurally valid', () => {
    const t: ReasoningTree = {
      primary_clinical_focus: 'screening',
      decision_tree: { index: 1, leaf: true, conclusion: 'Measure temperature' },
      node_guideline_mapping: { '1': ['Temperature should be measured orally.'] },
    };
    assert.equal(validateTree(t, markdown).valid, true);
  });

  test('validates a 5,000-deep chain without overflowing the stack', () => {
    let node: ReasoningTree['decision_tree'] = { index: 0, leaf: true, conclusion: 'end' };
    const mapping: Record<string, string[]> = { '0': ['Temperature should be measured orally.'] };
    for (let i = 1; i <= 5000; i++) {
      node = { index: 2 * i, description: `q${i}`, yes: node, no: { index: 2 * i + 1, leaf: true, conclusion: 'stop' } };
      mapping[String(2 * i)] = ['Temperature should be measured orally.'];
      mapping[String(2 * i + 1)] = ['Temperature should be measured orally.'];
    }
    const r = validateTree({ primary_clinical_focus: 'diagnosis', decision_tree: node, node_guideline_mapping: mapping }, markdown);
    assert.equal(r.valid, true, r.problems.slice(0, 3).join('\n'));
    assert.equal(r.evidenceChecked, 10001);
  });
});
