/* eslint-disable @typescript-eslint/no-explicit-any -- the tests edit model answers as loose JSON, field by field */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTree } from './tree-parse.ts';
import { feverDecisionTree } from './testing/fever-tree.ts';

/** Prompt 1's output shape, as a model writes it. */
const answer = () => ({
  primary_clinical_focus: 'management',
  decision_tree: feverDecisionTree(),
  node_guideline_mapping: { '1': ['a'], '2': ['b'], '3': ['c'], '4': ['d'], '5': ['e', 'f'] },
});

describe('parseTree', () => {
  test('reads Prompt 1 shape exactly, with no problems', () => {
    const raw = answer();
    const { tree, problems, format } = parseTree(raw);
    assert.deepEqual(problems, []);
    assert.deepEqual(tree, raw);
    assert.equal(format, 'strict');
  });

  test('deviations a human reads without doubt: read, not reported, and labelled (issue 11)', () => {
    const rows: Array<{ name: string; edit: (raw: any) => void; check: (tree: any) => unknown; expected: unknown; format: string }> = [
      {
        name: 'focus "Management"',
        edit: (r) => {
          r.primary_clinical_focus = 'Management';
        },
        check: (t) => t.primary_clinical_focus,
        expected: 'management',
        format: 'lenient-json:focus-case',
      },
      {
        name: 'focus " DIAGNOSIS "',
        edit: (r) => {
          r.primary_clinical_focus = ' DIAGNOSIS ';
        },
        check: (t) => t.primary_clinical_focus,
        expected: 'diagnosis',
        format: 'lenient-json:focus-case',
      },
      {
        name: '"index": "1"',
        edit: (r) => {
          r.decision_tree.index = '1';
        },
        check: (t) => t.decision_tree.index,
        expected: 1,
        format: 'lenient-json:string-number',
      },
      {
        name: '"leaf": "true"',
        edit: (r) => {
          r.decision_tree.no.leaf = 'true';
        },
        check: (t) => t.decision_tree.no.leaf,
        expected: true,
        format: 'lenient-json:string-boolean',
      },
      {
        name: '"leaf": "False" on a decision node',
        edit: (r) => {
          r.decision_tree.leaf = 'False';
        },
        check: (t) => t.decision_tree.leaf,
        expected: false,
        format: 'lenient-json:string-boolean',
      },
      {
        name: 'a leaf without the flag',
        edit: (r) => {
          delete r.decision_tree.no.leaf;
        },
        check: (t) => t.decision_tree.no.leaf,
        expected: true,
        format: 'lenient-json:implied-leaf',
      },
      {
        name: 'a mapping key " 2 "',
        edit: (r) => {
          r.node_guideline_mapping = { ...r.node_guideline_mapping, ' 2 ': r.node_guideline_mapping['2'] };
          delete r.node_guideline_mapping['2'];
        },
        check: (t) => t.node_guideline_mapping['2'],
        expected: ['b'],
        format: 'lenient-json:string-number',
      },
    ];
    for (const row of rows) {
      const raw = answer() as any;
      row.edit(raw);
      const r = parseTree(raw);
      assert.deepEqual([r.problems, row.check(r.tree), r.format], [[], row.expected, row.format], row.name);
    }
    // A focus that is not one of the four is kept as written, for validateTree to report.
    assert.equal(parseTree({ ...answer(), primary_clinical_focus: 'Treatment' }).tree!.primary_clinical_focus, 'Treatment');
  });

  test('tolerates a leaf written without leaf: true (conclusion, no children)', () => {
    const raw = answer();
    delete (raw.decision_tree.no as { leaf?: boolean }).leaf;
    const { tree, problems } = parseTree(raw);
    assert.deepEqual(problems, []);
    assert.equal(tree!.decision_tree.no!.leaf, true);
  });

  test('does not invent a leaf flag for a node with children or without a conclusion', () => {
    const raw = answer();
    const { tree } = parseTree(raw);
    assert.equal(tree!.decision_tree.leaf, undefined);
    const bare = parseTree({ ...raw, decision_tree: { index: 1, description: 'q' } });
    assert.equal(bare.tree!.decision_tree.leaf, undefined);
  });

  test('canonicalises numeric and number-like mapping keys', () => {
    const raw = { ...answer(), node_guideline_mapping: { 1: ['a'], ' 2 ': ['b'], '3.0': ['c'], '04': ['d'], '5': ['e'] } };
    const { tree, problems } = parseTree(raw);
    assert.deepEqual(problems, []);
    assert.deepEqual(tree!.node_guideline_mapping, { '1': ['a'], '2': ['b'], '3': ['c'], '4': ['d'], '5': ['e'] });
  });

  test('merges two keys naming the same node, and reports it', () => {
    const raw = { ...answer(), node_guideline_mapping: { '1': ['a'], '01': ['b'] } };
    const { tree, problems } = parseTree(raw);
    assert.deepEqual(tree!.node_guideline_mapping['1'], ['a', 'b']);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /"1" and "01" both name node 1/);
  });

  test('keeps a non-numeric mapping key as written (validation reports it)', () => {
    const { tree, problems } = parseTree({ ...answer(), node_guideline_mapping: { node_1: ['a'] } });
    assert.deepEqual(problems, []);
    assert.deepEqual(tree!.node_guideline_mapping, { node_1: ['a'] });
  });

  test('returns no tree when the answer or its decision_tree is not an object', () => {
    for (const raw of [null, 'text', 3, [answer()]]) {
      const r = parseTree(raw);
      assert.equal(r.tree, null);
      assert.match(r.problems[0]!, /not the JSON object Prompt 1 asks for/);
    }
    const missing = parseTree({ primary_clinical_focus: 'diagnosis', node_guideline_mapping: {} });
    assert.equal(missing.tree, null);
    assert.deepEqual(missing.problems, ['decision_tree is missing; expected a node object with an index']);
    assert.equal(parseTree({ ...answer(), decision_tree: [] }).tree, null);
  });

  test('reports each shape defect, naming the node', () => {
    const raw = answer() as any;
    raw.extra = 1;
    raw.primary_clinical_focus = 7;
    raw.decision_tree.yes.index = 'two';
    raw.decision_tree.yes.yes.leaf = 'yes';
    raw.decision_tree.yes.no.conclusion = 42;
    raw.decision_tree.no.question = 'x';
    raw.decision_tree.description = ['q'];
    raw.node_guideline_mapping['3'] = 'c';
    raw.node_guideline_mapping['4'] = ['d', 5];
    raw.node_guideline_mapping['5'] = { q: 'e' };
    const { tree, problems } = parseTree(raw);
    assert.ok(tree !== null);
    const expected = [
      /^unexpected top-level key "extra"/,
      /^primary_clinical_focus is the number 7/,
      /^node 1: description is an array; expected a string$/,
      /^the yes child of node 1: index is the string "two"; every node needs a numeric index$/,
      /^node 4: leaf is the string "yes"; expected true or false$/,
      /^node 5: conclusion is the number 42; expected a string$/,
      /^node 3: unexpected key "question"/,
      /^node_guideline_mapping\["3"\] is a single string/,
      /^node_guideline_mapping\["4"\]\[1\] is the number 5/,
      /^node_guideline_mapping\["5"\] is an object/,
    ];
    assert.equal(problems.length, expected.length, problems.join('\n'));
    for (const re of expected)
      assert.ok(
        problems.some((p) => re.test(p)),
        `no problem matches ${re}:\n${problems.join('\n')}`,
      );
    // Best-effort reading: the string is read as a list of one, the bad item dropped.
    assert.deepEqual(tree.node_guideline_mapping['3'], ['c']);
    assert.deepEqual(tree.node_guideline_mapping['4'], ['d']);
    assert.equal(Object.hasOwn(tree.node_guideline_mapping, '5'), false);
    assert.ok(Number.isNaN(tree.decision_tree.yes!.index));
  });

  test('an index that is a non-integer string is still a problem', () => {
    const raw = answer() as any;
    raw.decision_tree.index = '1.5';
    assert.deepEqual(parseTree(raw).problems, ['the root: index is the string "1.5"; every node needs a numeric index']);
  });

  test('reports a child that is not an object and a missing mapping', () => {
    const raw = answer() as any;
    raw.decision_tree.no = 'leaf';
    delete raw.node_guideline_mapping;
    const { tree, problems } = parseTree(raw);
    assert.equal(tree!.decision_tree.no, undefined);
    assert.deepEqual(problems, [
      'node 1: no is the string "leaf"; expected a node object',
      'node_guideline_mapping is missing; every node needs quoted guideline evidence',
    ]);
  });

  test('reads a 20,000-deep chain without overflowing the stack', () => {
    const depth = 20000;
    let node: any = { index: depth, leaf: true, conclusion: 'end' };
    for (let i = depth - 1; i >= 0; i--) node = { index: i, description: `q${i}`, yes: node, no: { index: -i - 1, conclusion: 'stop' } };
    const { tree, problems } = parseTree({ primary_clinical_focus: 'screening', decision_tree: node, node_guideline_mapping: {} });
    assert.deepEqual(problems, []);
    let n = tree!.decision_tree,
      steps = 0;
    while (n.yes) {
      n = n.yes;
      steps++;
    }
    assert.equal(steps, depth);
    assert.equal(n.conclusion, 'end');
  });

  test('cuts a cycle in a hand-built object instead of looping', () => {
    const root: any = { index: 1, description: 'q', no: { index: 2, conclusion: 'x' } };
    root.yes = root;
    const { problems } = parseTree({ primary_clinical_focus: 'diagnosis', decision_tree: root, node_guideline_mapping: {} });
    assert.ok(problems.some((p) => /cycle/.test(p)));
  });
});
