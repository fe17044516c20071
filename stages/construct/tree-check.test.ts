import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTreeAnswer } from './tree-check.ts';

const markdown = 'Screen adults over 50. Adults under 50 need no screening. Screening uses a stool test.';
const answer = () => ({
  primary_clinical_focus: 'screening',
  decision_tree: {
    index: 1,
    description: 'Is the patient over 50?',
    yes: { index: 2, conclusion: 'Screen with a stool test' },
    no: { index: 3, leaf: true, conclusion: 'No screening' },
  },
  node_guideline_mapping: { 1: ['Screen adults over 50.'], 2: ['Screening uses a stool test.'], 3: ['Adults under 50 need no screening!'] },
});

test('a tolerated answer is valid, with the not-found quote recorded and counted', () => {
  const r = checkTreeAnswer(answer(), markdown);
  assert.equal(r.valid, true);
  assert.equal(r.tree!.decision_tree.yes!.leaf, true);
  assert.equal(r.evidenceChecked, 3);
  assert.equal(r.evidenceVerbatimRate, 2 / 3);
  assert.deepEqual(r.problems, ['evidence not found: node 3: quote 1 "Adults under 50 need no screening!"']);
});

test('a parse problem makes the tree invalid even when validation passes', () => {
  const raw = { ...answer(), note: 'extra' };
  const r = checkTreeAnswer(raw, markdown);
  assert.equal(r.valid, false);
  assert.match(r.problems[0]!, /unexpected top-level key "note"/);
  assert.notEqual(r.tree, null);
});

test('parse and validation problems are both reported', () => {
  const raw = answer() as any;
  raw.decision_tree.yes.index = '2';
  const r = checkTreeAnswer(raw, markdown);
  assert.equal(r.valid, false);
  assert.ok(r.problems.some((p) => /index is the string "2"/.test(p)));
  assert.ok(r.problems.some((p) => /no valid index\): index is missing or not a number/.test(p)));
  assert.ok(r.problems.some((p) => /key "2" refers to no node/.test(p)));
});

test('no readable tree: invalid, NaN rate, nothing checked', () => {
  const r = checkTreeAnswer('not json', markdown);
  assert.equal(r.tree, null);
  assert.equal(r.valid, false);
  assert.equal(r.evidenceChecked, 0);
  assert.ok(Number.isNaN(r.evidenceVerbatimRate));
});
