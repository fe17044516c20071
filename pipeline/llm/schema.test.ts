import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateSchema, type Schema } from './schema.ts';

const steps: Schema = {
  type: 'object',
  required: ['steps', 'outcome'],
  additionalProperties: false,
  properties: {
    steps: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['id', 'text'],
        properties: { id: { type: 'integer', minimum: 1 }, text: { type: 'string', minLength: 1 } },
      },
    },
    outcome: { type: 'string', enum: ['treat', 'refer'] },
    score: { type: ['number', 'null'], minimum: 1, maximum: 5 },
  },
};

test('a conforming value has no problems', () => {
  assert.deepEqual(validateSchema({ steps: [{ id: 1, text: 'a' }], outcome: 'treat', score: 4.5 }, steps), []);
  assert.deepEqual(validateSchema({ steps: [{ id: 2, text: 'b' }], outcome: 'refer', score: null }, steps), []);
});

test('each violation is one sentence naming its path', () => {
  assert.deepEqual(validateSchema({ steps: [{ id: 1.5, text: '' }, { text: 'x' }], outcome: 'wait', extra: 1, score: 9 }, steps), [
    'answer.steps[0].id must be integer, but is number',
    'answer.steps[0].text must have at least 1 character',
    'answer.steps[1].id is required but missing',
    'answer.outcome must be one of "treat", "refer", but is "wait"',
    'answer.score must be at most 5, but is 9',
    'answer.extra is not allowed (allowed: steps, outcome, score)',
  ]);
  assert.deepEqual(validateSchema({ steps: [] }, steps), [
    'answer.outcome is required but missing',
    'answer.steps must have at least 1 item, but has 0',
  ]);
  assert.deepEqual(validateSchema([1], steps), ['answer must be object, but is array']);
  assert.deepEqual(validateSchema(3, { type: 'number' }), []);
  assert.deepEqual(validateSchema('ab', { type: 'string', minLength: 3 }, 'name'), ['name must have at least 3 characters']);
});
