import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { defaultJudge, judgeFacts, orderJudges, tableJudges } from './judges.ts';
import type { JudgeFacts } from '../roster/judge-spec.ts';

const llm = (name: string): JudgeFacts => ({ name, kind: 'llm', simulated: false });
const similarity = (name: string): JudgeFacts => ({ name, kind: 'similarity', simulated: false });
const embedding = (name: string): JudgeFacts => ({ name, kind: 'embedding', simulated: false });
const simulated = (name: string): JudgeFacts => ({ name, kind: 'similarity', simulated: true });
// The run's list: what the wiring says of each judge, in its order.
const SIM = ['simulated-token-f1', 'simulated-char-ngram', 'simulated-tfidf'].map(simulated);
const RUN = [llm('gpt-5.4-mini'), llm('qwen3-8b'), similarity('bertscore'), ...SIM];

describe('report judges', () => {
  test('the default is the first real LLM judge present, similarity and simulated judges skipped', () => {
    assert.equal(defaultJudge(['bertscore', 'simulated-tfidf', 'qwen3-8b', 'gpt-5.4-mini'], RUN), 'gpt-5.4-mini');
    assert.equal(defaultJudge(['bertscore', 'simulated-tfidf', 'qwen3-8b'], RUN), 'qwen3-8b');
    assert.equal(
      defaultJudge(['my-judge', 'gpt-5.4-mini'], [llm('my-judge'), llm('gpt-5.4-mini')]),
      'my-judge',
      "the run's judge order wins",
    );
    assert.equal(defaultJudge(['embed-e5', 'j'], [embedding('embed-e5'), llm('j')]), 'j', 'an embedding judge is no LLM judge');
  });

  test("without an LLM judge: the first simulated judge in the run's order", () => {
    assert.equal(defaultJudge(['simulated-tfidf', 'simulated-char-ngram', 'simulated-token-f1'], RUN), 'simulated-token-f1');
    assert.equal(defaultJudge(['bertscore', 'simulated-tfidf'], RUN), 'simulated-tfidf');
    assert.equal(defaultJudge(['bertscore'], RUN), 'bertscore');
    assert.equal(defaultJudge([], RUN), null);
  });

  test('the flag decides, not the name: a judge the spec calls simulated is one, whatever its name', () => {
    const renamed = [simulated('lexical-baseline'), llm('simulated-sounding-llm')];
    assert.deepEqual(orderJudges(['lexical-baseline', 'simulated-sounding-llm'], renamed), ['simulated-sounding-llm', 'lexical-baseline']);
    assert.equal(defaultJudge(['lexical-baseline', 'simulated-sounding-llm'], renamed), 'simulated-sounding-llm');
    // A judge the list does not name (rows of an earlier run) is taken as a real LLM judge.
    assert.deepEqual(judgeFacts('unlisted', renamed), llm('unlisted'));
  });

  test('order: run order, then paper judges, then the rest by name; simulated last', () => {
    const run = [similarity('bertscore'), llm('zeta'), llm('alpha'), simulated('simulated-tfidf')];
    assert.deepEqual(orderJudges(['simulated-tfidf', 'zeta', 'bertscore', 'qwen3-8b', 'gpt-5.4-mini', 'alpha'], run), [
      'bertscore',
      'zeta',
      'alpha',
      'gpt-5.4-mini',
      'qwen3-8b',
      'simulated-tfidf',
    ]);
    assert.deepEqual(orderJudges(['zeta', 'qwen3-8b', 'gpt-5.4-mini', 'alpha']), ['gpt-5.4-mini', 'qwen3-8b', 'alpha', 'zeta']);
  });

  test('Tables 5–7 show the LLM judges and one similarity judge: the real one when there is one, else the first simulated', () => {
    assert.deepEqual(tableJudges(['gpt-5.4-mini', 'bertscore', ...SIM.map((j) => j.name)], RUN), ['gpt-5.4-mini', 'bertscore']);
    assert.deepEqual(tableJudges(['gpt-5.4-mini', ...SIM.map((j) => j.name)], RUN), ['gpt-5.4-mini', 'simulated-token-f1']);
    assert.deepEqual(tableJudges(['j', 'embed-e5', 'simulated-tfidf'], [llm('j'), embedding('embed-e5'), ...SIM]), ['j', 'embed-e5']);
    assert.equal(tableJudges(['gpt-5.4-mini', ...SIM.map((j) => j.name)], RUN, true).length, 4);
  });
});
