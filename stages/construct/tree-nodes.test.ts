import { test } from 'node:test';
import assert from 'node:assert/strict';
import { treeNodeRows } from './tree-nodes.ts';
import type { ReasoningTree } from './types.ts';

const tree = (): ReasoningTree => ({
  primary_clinical_focus: 'diagnosis',
  decision_tree: {
    index: 10,
    description: 'A?',
    yes: {
      index: 20,
      description: 'B?',
      yes: { index: 40, leaf: true, conclusion: 'X' },
      no: { index: 50, leaf: true, conclusion: 'Y' },
    },
    no: { index: 30, description: 'C?', yes: { index: 60, conclusion: 'Z' }, no: { index: 70, leaf: true, conclusion: 'W' } },
  },
  node_guideline_mapping: { '10': ['a'], '20': ['b1', 'b2'], '40': ['d'], '50': [], '60': ['f'], '70': ['g'] },
});

test('one row per node, in preorder (node, yes subtree, no subtree)', () => {
  const rows = treeNodeRows('g1', tree());
  assert.deepEqual(
    rows.map((r) => [r.node_index, r.parent_index, r.branch, r.is_leaf, r.text]),
    [
      [10, null, null, false, 'A?'],
      [20, 10, 'yes', false, 'B?'],
      [40, 20, 'yes', true, 'X'],
      [50, 20, 'no', true, 'Y'],
      [30, 10, 'no', false, 'C?'],
      [60, 30, 'yes', true, 'Z'],
      [70, 30, 'no', true, 'W'],
    ],
  );
  assert.ok(rows.every((r) => r.guideline_id === 'g1'));
});

test('evidence comes from the mapping, empty when the node has none, and is a copy', () => {
  const t = tree();
  const rows = treeNodeRows('g1', t);
  assert.deepEqual(
    rows.map((r) => r.evidence),
    [['a'], ['b1', 'b2'], ['d'], [], [], ['f'], ['g']],
  );
  rows[1]!.evidence.push('edited');
  assert.deepEqual(t.node_guideline_mapping['20'], ['b1', 'b2']);
});

test('a single-leaf tree is one row', () => {
  const rows = treeNodeRows('g2', {
    primary_clinical_focus: 'screening',
    decision_tree: { index: 1, leaf: true, conclusion: 'Screen' },
    node_guideline_mapping: {},
  });
  assert.deepEqual(rows, [
    { guideline_id: 'g2', node_index: 1, parent_index: null, branch: null, is_leaf: true, text: 'Screen', evidence: [] },
  ]);
});

test('row count equals node count on a complete tree of depth 12', () => {
  let next = 0;
  const build = (d: number): ReasoningTree['decision_tree'] =>
    d === 0 ? { index: next++, leaf: true, conclusion: 'c' } : { index: next++, description: 'q', yes: build(d - 1), no: build(d - 1) };
  const rows = treeNodeRows('g3', { primary_clinical_focus: 'management', decision_tree: build(12), node_guideline_mapping: {} });
  assert.equal(rows.length, 2 ** 13 - 1);
  assert.equal(rows.filter((r) => r.is_leaf).length, 2 ** 12);
  // Preorder numbering of build() means indices come out 0, 1, 2, ...
  assert.ok(rows.every((r, i) => r.node_index === i));
});
