import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { defaultJudge, isSimulatedJudge, orderJudges } from './judges.ts';

describe('report judges', () => {
  test('the default is the first LLM judge present, BERTScore and simulated judges skipped', () => {
    assert.equal(defaultJudge(['bertscore', 'simulated-tfidf', 'qwen3-8b', 'gpt-5.4-mini']), 'gpt-5.4-mini');
    assert.equal(defaultJudge(['bertscore', 'simulated-tfidf', 'qwen3-8b']), 'qwen3-8b');
    assert.equal(defaultJudge(['my-judge', 'gpt-5.4-mini'], ['my-judge', 'gpt-5.4-mini']), 'my-judge', "the run's judge order wins");
  });

  test("without an LLM judge: the first simulated judge in the simulated judges' order", () => {
    assert.equal(defaultJudge(['simulated-tfidf', 'simulated-char-ngram', 'simulated-token-f1']), 'simulated-token-f1');
    assert.equal(defaultJudge(['bertscore', 'simulated-tfidf']), 'simulated-tfidf');
    assert.equal(defaultJudge(['bertscore']), 'bertscore');
    assert.equal(defaultJudge([]), null);
  });

  test('order: run order, then paper judges, then the rest by name; simulated last', () => {
    assert.deepEqual(orderJudges(['simulated-tfidf', 'zeta', 'bertscore', 'qwen3-8b', 'gpt-5.4-mini', 'alpha']), [
      'gpt-5.4-mini',
      'qwen3-8b',
      'bertscore',
      'alpha',
      'zeta',
      'simulated-tfidf',
    ]);
    assert.equal(isSimulatedJudge('simulated-char-ngram'), true);
    assert.equal(isSimulatedJudge('qwen3-8b'), false);
  });
});
