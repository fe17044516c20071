import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cdpId, enumeratePaths } from './paths.ts';
import type { ReasoningTree, TreeNodeJson } from './types.ts';
import { createRng } from '../stats/rng.ts';

const ctx = { guideline_id: 'who-htn-2021', language: 'en', split: 'test' as const };

const tree = (): ReasoningTree => ({
  primary_clinical_focus: 'management',
  decision_tree: {
    index: 1,
    description: 'Is systolic BP >= 140 mmHg?',
    yes: {
      index: 2,
      description: 'Is the patient pregnant?',
      yes: { index: 4, leaf: true, conclusion: 'Refer to obstetrics' },
      no: { index: 5, leaf: true, conclusion: 'Start a thiazide' },
    },
    no: { index: 3, leaf: true, conclusion: 'Recheck in a year' },
  },
  node_guideline_mapping: { '1': ['e1'], '2': ['e2a', 'e2b'], '3': ['e3'], '4': ['e4'], '5': [] },
});

describe('enumeratePaths', () => {
  test('one CDP per leaf, in preorder, with steps, lengths, conclusions and evidence', () => {
    const { cdps, warnings } = enumeratePaths(tree(), ctx);
    assert.deepEqual(warnings, []);
    assert.equal(cdps.length, 3);
    assert.deepEqual(
      cdps.map((c) => [c.leaf_index, c.length, c.conclusion]),
      [
        [4, 2, 'Refer to obstetrics'],
        [5, 2, 'Start a thiazide'],
        [3, 1, 'Recheck in a year'],
      ],
    );
    assert.deepEqual(cdps[1]!.steps, [
      { node_index: 1, condition: 'Is systolic BP >= 140 mmHg?', decision_outcome: 'yes', evidence: ['e1'] },
      { node_index: 2, condition: 'Is the patient pregnant?', decision_outcome: 'no', evidence: ['e2a', 'e2b'] },
    ]);
    assert.deepEqual(cdps[2]!.steps, [
      { node_index: 1, condition: 'Is systolic BP >= 140 mmHg?', decision_outcome: 'no', evidence: ['e1'] },
    ]);
    assert.deepEqual(
      cdps.map((c) => c.conclusion_evidence),
      [['e4'], [], ['e3']],
    );
    for (const c of cdps) {
      assert.equal(c.guideline_id, 'who-htn-2021');
      assert.equal(c.language, 'en');
      assert.equal(c.split, 'test');
      assert.equal(c.focus, 'management');
    }
  });

  test('cdp_id is <guideline>-<12 hex of SHA-256 over the canonical JSON>', () => {
    const { cdps } = enumeratePaths(tree(), ctx);
    const expected = createHash('sha256')
      .update(JSON.stringify(['who-htn-2021', [['Is systolic BP >= 140 mmHg?', 'no']], 'Recheck in a year']))
      .digest('hex')
      .slice(0, 12);
    assert.equal(cdps[2]!.cdp_id, `who-htn-2021-${expected}`);
    assert.match(cdps[0]!.cdp_id, /^who-htn-2021-[0-9a-f]{12}$/);
    assert.equal(new Set(cdps.map((c) => c.cdp_id)).size, 3);
  });

  test('ids are stable across runs and renumbering, and change with content', () => {
    const ids = (t: ReasoningTree) => enumeratePaths(t, ctx).cdps.map((c) => c.cdp_id);
    const base = ids(tree());
    assert.deepEqual(ids(tree()), base);

    const renumbered = tree();
    renumbered.decision_tree.index = 100;
    renumbered.node_guideline_mapping['1'] = ['other evidence'];
    assert.deepEqual(ids(renumbered), base, 'indices and evidence are not content of the path');

    const edited = tree();
    edited.decision_tree.yes!.description = 'Is the patient pregnant or breastfeeding?';
    const e = ids(edited);
    assert.notEqual(e[0], base[0]);
    assert.notEqual(e[1], base[1]);
    assert.equal(e[2], base[2], 'a path that does not pass the edited node keeps its id');

    const concl = tree();
    concl.decision_tree.no!.conclusion = 'Recheck in two years';
    assert.notEqual(ids(concl)[2], base[2]);
    assert.notEqual(enumeratePaths(tree(), { ...ctx, guideline_id: 'other' }).cdps[0]!.cdp_id.slice(-12), base[0]!.slice(-12));
    assert.equal(enumeratePaths(tree(), { ...ctx, split: 'non-test' }).cdps[0]!.cdp_id, base[0], 'the split is not part of the id');
  });

  test('a single-leaf tree: dropped with a warning by default, kept with minLength 0', () => {
    const single: ReasoningTree = {
      primary_clinical_focus: 'screening',
      decision_tree: { index: 1, leaf: true, conclusion: 'Screen all' },
      node_guideline_mapping: { '1': ['q'] },
    };
    const dropped = enumeratePaths(single, ctx);
    assert.deepEqual(dropped.cdps, []);
    assert.equal(dropped.warnings.length, 1);
    assert.match(dropped.warnings[0]!, /who-htn-2021: the path to leaf 1 has 0 decision step\(s\).*dropped/);
    const kept = enumeratePaths(single, ctx, { minLength: 0 });
    assert.equal(kept.cdps.length, 1);
    assert.equal(kept.cdps[0]!.length, 0);
    assert.deepEqual(kept.cdps[0]!.steps, []);
    assert.deepEqual(kept.cdps[0]!.conclusion_evidence, ['q']);
  });

  test('minLength drops short paths from larger trees too', () => {
    const { cdps, warnings } = enumeratePaths(tree(), ctx, { minLength: 2 });
    assert.deepEqual(
      cdps.map((c) => c.leaf_index),
      [4, 5],
    );
    assert.equal(warnings.length, 1);
  });

  test('steps of different CDPs are independent objects', () => {
    const { cdps } = enumeratePaths(tree(), ctx);
    cdps[0]!.steps[0]!.condition = 'changed';
    cdps[0]!.steps[0]!.evidence.push('x');
    assert.equal(cdps[1]!.steps[0]!.condition, 'Is systolic BP >= 140 mmHg?');
    assert.deepEqual(cdps[1]!.steps[0]!.evidence, ['e1']);
  });

  test('a decision node without both children is an error naming the node', () => {
    const t = tree();
    delete t.decision_tree.yes!.no;
    assert.throws(
      () => enumeratePaths(t, ctx),
      /node 2 is a decision node without a no child; enumerate only trees that validateTree accepts/,
    );
  });

  test('depth 100 and 1,000 chains (a chain of depth d has d + 1 paths and d(d + 3)/2 steps in all)', () => {
    for (const depth of [100, 1000]) {
      let node: TreeNodeJson = { index: 0, leaf: true, conclusion: 'deepest' };
      for (let i = 1; i <= depth; i++)
        node = { index: 2 * i, description: `q${i}`, yes: node, no: { index: 2 * i + 1, leaf: true, conclusion: `stop ${i}` } };
      const { cdps } = enumeratePaths({ primary_clinical_focus: 'diagnosis', decision_tree: node, node_guideline_mapping: {} }, ctx);
      assert.equal(cdps.length, depth + 1);
      assert.equal(cdps[0]!.length, depth);
      assert.equal(cdps[0]!.conclusion, 'deepest');
      assert.ok(cdps[0]!.steps.every((s) => s.decision_outcome === 'yes'));
      // The no-leaf hanging off the root is reached after one decision.
      assert.equal(cdps.at(-1)!.length, 1);
      assert.equal(cdps.at(-1)!.conclusion, `stop ${depth}`);
      assert.equal(
        cdps.reduce((s, c) => s + c.length, 0),
        (depth * (depth + 3)) / 2,
      );
    }
  });

  test('matches a recursive reference enumeration on random trees', () => {
    const rng = createRng(20260101);
    for (let trial = 0; trial < 30; trial++) {
      let next = 1;
      const grow = (d: number): TreeNodeJson => {
        const index = next++;
        if (d > 0 && rng.nextFloat() < 0.7) return { index, description: `c${index}`, yes: grow(d - 1), no: grow(d - 1) };
        return { index, leaf: true, conclusion: `leaf${index}` };
      };
      const t: ReasoningTree = { primary_clinical_focus: 'classification', decision_tree: grow(9), node_guideline_mapping: {} };
      const expected: Array<{ leaf: number; path: string[] }> = [];
      const walk = (n: TreeNodeJson, path: string[]): void => {
        if (n.leaf) {
          expected.push({ leaf: n.index, path });
          return;
        }
        walk(n.yes!, [...path, `${n.description}:yes`]);
        walk(n.no!, [...path, `${n.description}:no`]);
      };
      walk(t.decision_tree, []);
      const { cdps } = enumeratePaths(t, ctx, { minLength: 0 });
      assert.deepEqual(
        cdps.map((c) => ({ leaf: c.leaf_index, path: c.steps.map((s) => `${s.condition}:${s.decision_outcome}`) })),
        expected,
      );
      assert.ok(cdps.every((c) => c.length === c.steps.length));
      assert.equal(new Set(cdps.map((c) => c.cdp_id)).size, cdps.length);
    }
  });
});

test('cdpId depends on order of steps', () => {
  const a = cdpId(
    'g',
    [
      { condition: 'A', decision_outcome: 'yes' },
      { condition: 'B', decision_outcome: 'no' },
    ],
    'X',
  );
  const b = cdpId(
    'g',
    [
      { condition: 'B', decision_outcome: 'no' },
      { condition: 'A', decision_outcome: 'yes' },
    ],
    'X',
  );
  assert.notEqual(a, b);
});
