/* eslint-disable @typescript-eslint/no-explicit-any -- the tests edit model answers as loose JSON, field by field */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTreeAnswer } from './tree-check.ts';
import { extractJson } from '../../pipeline/llm/structured.ts';

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
  raw.decision_tree.yes.index = 'two';
  const r = checkTreeAnswer(raw, markdown);
  assert.equal(r.valid, false);
  assert.ok(r.problems.some((p) => /index is the string "two"/.test(p)));
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

test('from the answer text: lenient JSON and lenient fields give a valid tree with every variant recorded (issue 11)', () => {
  const text = `Here is the decision tree:
\`\`\`json
{
  "primary_clinical_focus": "Screening", // the guideline's focus
  "decision_tree": {
    "index": "1",
    "description": "Is the patient over 50?",
    "yes": { "index": 2, "leaf": "true", "conclusion": "Screen with a stool test", },
    "no": { "index": 3, "leaf": true, "conclusion": "No screening" }, /* both branches */
  },
  "node_guideline_mapping": { "1": ["Screen adults over 50."], "2": ["Screening uses a stool test."], "3": ["Adults under 50 need no screening."], },
}
\`\`\``;
  const j = extractJson(text);
  assert.ok(j.ok, j.ok ? '' : j.problem);
  const r = checkTreeAnswer(j.value, markdown, j.format);
  assert.deepEqual([r.valid, r.problems, r.tree!.primary_clinical_focus, r.tree!.decision_tree.index], [true, [], 'screening', 1]);
  assert.equal(
    r.format,
    'fence+lenient-json:comment+lenient-json:focus-case+lenient-json:string-boolean+lenient-json:string-number+lenient-json:trailing-comma+preamble',
  );
});

test('the re-ask states the real problem: a JSON error is not reported as an unexpected key of an inner node', () => {
  // Before: the whole answer failed to parse, the first inner object that parsed was a node, and the
  // re-ask said `unexpected top-level key "index"`.
  const text = `{"primary_clinical_focus": "screening", "decision_tree": {"index": 1, "description": 'Is the patient over 50?',
    "yes": {"index": 2, "leaf": true, "conclusion": "Screen"}, "no": {"index": 3, "leaf": true, "conclusion": "No"}}, "node_guideline_mapping": {}}`;
  const j = extractJson(text);
  assert.equal(j.ok, false);
  assert.match(j.ok ? '' : j.problem, /^the answer is not valid JSON \(even allowing trailing commas and comments\): Unexpected token '''/);
  assert.doesNotMatch(j.ok ? '' : j.problem, /unexpected top-level key/);
});

test('a node with one branch is a fault whose message says which branch is missing', () => {
  const raw = answer() as any;
  delete raw.decision_tree.no;
  delete raw.node_guideline_mapping[3];
  const r = checkTreeAnswer(raw, markdown);
  assert.equal(r.valid, false);
  assert.deepEqual(
    r.problems.filter((p) => !p.startsWith('evidence not found')),
    ['node 1: decision node has a yes child but no no child (one branch); a yes/no question needs both, so add the no branch'],
  );
});
