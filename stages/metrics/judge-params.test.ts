import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { inferJudgeKind, judgeParams, normaliseJudgeName } from './judge-params.ts';

describe('judge parameters', () => {
  test('the paper’s calibrated judges (§4.4, Appendix B.1)', () => {
    assert.deepEqual(judgeParams('gpt-5.4-mini', 'llm'), { gamma: 0.7, beta: 0.2, calibrated: true });
    assert.deepEqual(judgeParams('qwen3-8b', 'llm'), { gamma: 0.9, beta: 0.2, calibrated: true });
    assert.deepEqual(judgeParams('bertscore', 'similarity'), { gamma: 0.2, beta: 0.1, calibrated: true });
  });

  test('spellings of one judge are one judge', () => {
    assert.equal(normaliseJudgeName('GPT-5.4 Mini'), 'gpt-5.4-mini');
    assert.equal(normaliseJudgeName('openai/gpt-5.4-mini'), 'gpt-5.4-mini');
    assert.equal(normaliseJudgeName(' Qwen/Qwen3_8B '), 'qwen3-8b');
    assert.equal(judgeParams('Qwen/Qwen3-8B').gamma, 0.9);
    assert.deepEqual(judgeParams('bertscore-deberta-xlarge-mnli'), { gamma: 0.2, beta: 0.1, calibrated: true });
  });

  test('unknown judges fall back to their kind’s reference judge, flagged uncalibrated', () => {
    assert.deepEqual(judgeParams('llama-3-70b', 'llm'), { gamma: 0.7, beta: 0.2, calibrated: false });
    assert.deepEqual(judgeParams('e5-cosine', 'similarity'), { gamma: 0.2, beta: 0.1, calibrated: false });
  });

  test('the kind is inferred from the name when not given', () => {
    assert.equal(inferJudgeKind('BERTScore'), 'similarity');
    assert.equal(inferJudgeKind('sentence-embedding-cosine'), 'similarity');
    for (const name of ['simulated-token-f1', 'simulated-char-ngram', 'simulated-tfidf'])
      assert.equal(inferJudgeKind(name), 'similarity', name);
    assert.equal(inferJudgeKind('gpt-5.4-mini'), 'llm');
    assert.equal(inferJudgeKind('gpt-5.4-mini'), 'llm');
    assert.deepEqual(judgeParams('some-embedding-model'), { gamma: 0.2, beta: 0.1, calibrated: false });
  });

  test('an invalid kind is rejected', () => {
    assert.throws(() => judgeParams('x', 'judge' as never), /kind must be 'llm' or 'similarity'/);
  });
});
