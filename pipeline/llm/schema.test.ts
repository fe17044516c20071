// A structured answer checked against a zod schema: each problem is one sentence naming its path,
// worded for the model that is re-asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { answerProblems } from './schema.ts';

const steps = z.strictObject({
  steps: z.array(z.object({ id: z.int().min(1), text: z.string().min(1) })).min(1),
  outcome: z.enum(['treat', 'refer']),
  score: z.number().min(1).max(5).nullable().optional(),
});

test('a conforming value has no problems', () => {
  assert.deepEqual(answerProblems({ steps: [{ id: 1, text: 'a' }], outcome: 'treat', score: 4.5 }, steps), []);
  assert.deepEqual(answerProblems({ steps: [{ id: 2, text: 'b' }], outcome: 'refer', score: null }, steps), []);
});

test('each violation is one sentence naming its path', () => {
  assert.deepEqual(answerProblems({ steps: [{ id: 1.5, text: '' }, { text: 'x' }], outcome: 'wait', extra: 1, score: 9 }, steps), [
    'answer.steps[0].id must be integer, but is number',
    'answer.steps[0].text must have at least 1 character',
    'answer.steps[1].id is required but missing',
    'answer.outcome must be one of "treat", "refer", but is "wait"',
    'answer.score must be at most 5, but is 9',
    'answer.extra is not allowed (allowed: steps, outcome, score)',
  ]);
  assert.deepEqual(answerProblems({ steps: [] }, steps), [
    'answer.steps must have at least 1 item, but has 0',
    'answer.outcome is required but missing',
  ]);
  assert.deepEqual(answerProblems({ steps: [{ id: 0, text: 'a', note: 'x' }], outcome: 'treat' }, steps), [
    'answer.steps[0].id must be at least 1, but is 0',
  ]);
  assert.deepEqual(answerProblems({ steps: [{ id: 1, text: 'a' }], outcome: 'treat', score: '4' }, steps), [
    'answer.score must be number, but is string',
  ]);
  assert.deepEqual(answerProblems([1], steps), ['answer must be object, but is array']);
  assert.deepEqual(answerProblems(3, z.number()), []);
  assert.deepEqual(answerProblems('ab', z.string().min(3), 'name'), ['name must have at least 3 characters']);
  assert.deepEqual(answerProblems({ a: { b: 1, c: 2 } }, z.object({ a: z.strictObject({ b: z.number() }) })), [
    'answer.a.c is not allowed (allowed: b)',
  ]);
});
