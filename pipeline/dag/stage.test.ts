import { test } from 'node:test';
import assert from 'node:assert/strict';
import { missingLlm } from './stage.ts';

test('without an LLM client a stage still gets a typed llm, whose calls say what to do', async () => {
  const llm = missingLlm('trees');
  assert.equal(llm.stage, 'trees');
  const advice = /stage trees calls models but the run has no LLM client; run it through `cdp run`, or pass \{ llm \} to runDag$/;
  await assert.rejects(llm.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }), advice);
  await assert.rejects(llm.embed({ model: 'm', input: ['x'] } as never), advice);
  assert.throws(() => llm.blob('text'), advice);
  // A stage that never calls a model reports no calls.
  assert.deepEqual(llm.counters(), { calls: 0, offline: 0, cached: 0, failed: 0, inputTokens: 0, outputTokens: 0, estimatedCostUsd: 0 });
});
