import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countTokens, tokenUpperBound } from './tokens.ts';

test('o200k_base counts of known strings, and the byte bound never under-counts', () => {
  // Published o200k_base encodings: "hello world" → [24912, 2375]; "Hello, world!" → Hello , world !
  assert.equal(countTokens('hello world'), 2);
  assert.equal(countTokens('Hello, world!'), 4);
  assert.equal(countTokens(''), 0);
  for (const s of ['hello world', '诊断与治疗指南：高血压', 'x'.repeat(1000), '{"steps":[1,2,3]}', '<|endoftext|> is plain text here'])
    assert.ok(countTokens(s) <= tokenUpperBound(s), s);
  assert.equal(tokenUpperBound('诊断'), 6);
});
