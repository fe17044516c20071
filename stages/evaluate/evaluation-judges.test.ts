import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluationJudges } from './evaluation-judges.ts';

test('active real judges first, in roster order, then the three simulated judges', () => {
  const roster = [
    { name: 'gpt-5.4-mini', roles: ['judge' as const], active: true },
    { name: 'qwen3-8b', roles: ['judge' as const], active: false },
    { name: 'gpt-5.4', roles: ['evaluated' as const], active: true },
    { name: 'simulated-token-f1', roles: ['judge' as const], active: true, simulated: true },
  ];
  assert.deepEqual(evaluationJudges(roster), ['gpt-5.4-mini', 'simulated-token-f1', 'simulated-char-ngram', 'simulated-tfidf']);
  assert.deepEqual(evaluationJudges([]), ['simulated-token-f1', 'simulated-char-ngram', 'simulated-tfidf']);
});
