// The estimate provider on its own, through callApi: nothing is sent, misses are counted and priced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countTokens } from '../tokens.ts';
import type { ModelSpec, Provider, ProviderPrompt } from '../types.ts';
import { EstimateProvider, type EstimateProviderOptions } from './estimate.ts';

const judge: ModelSpec = {
  name: 'judge-a',
  roles: ['judge'],
  provider: 'openai-compatible',
  modelId: 'judge-model',
  contextWindow: 40,
  price: { inputPerMTok: 2, outputPerMTok: 8 },
};
const free: ModelSpec = {
  name: 'local',
  roles: ['evaluated'],
  provider: 'openai-compatible',
  price: { inputPerMTok: 0, outputPerMTok: 0 },
};
const models = new Map([judge, free].map((m) => [m.name, m]));
const estimator = (o: Partial<EstimateProviderOptions> = {}) => new EstimateProvider({ modelOf: (n) => models.get(n), ...o });
const ask = (over: Partial<ProviderPrompt> & { text?: string } = {}): ProviderPrompt => {
  const { text = 'Hello, world!', ...rest } = over;
  return { model: 'judge-a', stage: 'score', messages: [{ role: 'user', content: text }], ...rest };
};
// 'Hello, world!' is 4 o200k tokens, plus 4 for the message and 3 for the reply.
const HELLO = 11;

test('identical requests are counted once; another sample of the same prompt is another request', async () => {
  const e = estimator();
  const first = await e.callApi(ask(), undefined);
  assert.deepEqual(first, { error: 'estimate only: not sent', tokenUsage: { input: HELLO, output: 512 }, attempts: 0 });
  const again = await e.callApi(ask(), undefined);
  assert.deepEqual(again, { error: 'estimate only: not sent', cached: true, attempts: 0 }, 'what the cache would serve in a real run');
  await e.callApi(ask({ sample: 'case-1' }), undefined);
  await e.callApi(ask({ sample: 'case-1' }), undefined);
  // The client names the call: its key decides what is identical.
  const key = 'c'.repeat(64);
  const named = { key, model: 'judge-a', modelId: 'judge-model', stage: 'score', promptHash: 'h', repeat: 0 };
  await e.callApi(ask({ text: 'other text', call: named }), undefined);
  await e.callApi(ask({ text: 'yet another text', call: named }), undefined);
  assert.deepEqual(
    e.estimateReport().map((r) => [r.stage, r.model, r.calls, r.overflows]),
    [['score', 'judge-a', 3, 0]],
  );
});

test('a prompt over the window is refused before counting, and reported as an overflow', async () => {
  const e = estimator();
  const text = 'hello world '.repeat(20);
  const over = await e.callApi(ask({ text }), undefined);
  assert.deepEqual(over, {
    error: `context overflow (${countTokens(text) + 7} tokens > window 40)`,
    attempts: 0,
    failure: { kind: 'context-overflow', window: 40 },
  });
  // The output reservation counts against the window: 11 + 30 > 40.
  const reserved = await e.callApi(ask({ params: { max_tokens: 30 } }), undefined);
  assert.equal(reserved.error, 'context overflow (41 tokens > window 40)');
  // The client's count (blobs counted once) is the one used when it gives it.
  const counted = await e.callApi(ask({ text: 'short', inputTokens: 1000 }), undefined);
  assert.equal(counted.error, 'context overflow (1000 tokens > window 40)');
  assert.deepEqual(e.estimateReport(), [
    // Overflows are refused as a real run refuses them: neither stood in for nor unanswered.
    {
      stage: 'score',
      model: 'judge-a',
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      priced: true,
      overflows: 3,
      stoodIn: 0,
      unanswered: 0,
    },
  ]);
});

test("a stand-in answers the miss; its answer's length is the output guess unless the request or model declares one", async () => {
  const seen: unknown[] = [];
  const standIn: Provider = {
    async callApi(prompt, context) {
      seen.push(context);
      if (prompt.stage === 'broken') throw new Error('stand-in crashed');
      return { output: `answer to ${String(prompt.messages[0].content).slice(0, 5)}` };
    },
  };
  const e = estimator({ standIn: (p) => (p.stage === 'later' ? undefined : standIn), expectedOutputTokens: undefined });
  const a = await e.callApi(ask(), { case: 7 });
  assert.deepEqual(a, {
    output: 'answer to Hello',
    tokenUsage: { input: HELLO, output: countTokens('answer to Hello') },
    attempts: 0,
    latencyMs: 0,
  });
  assert.deepEqual(seen, [{ case: 7 }], 'the stand-in reads the unit context');
  const again = await e.callApi(ask(), { case: 7 });
  assert.deepEqual([again.output, again.cached, seen.length], ['answer to Hello', true, 1]);

  const declared = await e.callApi(ask({ text: 'Hello!', expectedOutputTokens: 10 }), undefined);
  assert.equal(declared.tokenUsage?.output, 10);
  const reserve = await e.callApi(ask({ stage: 'later', model: 'local', params: { max_tokens: 100 } }), undefined);
  assert.deepEqual([reserve.error, reserve.tokenUsage?.output], ['estimate only: not sent', 100]);
  const broken = await e.callApi(ask({ stage: 'broken', repeat: 1 }), undefined);
  assert.equal(broken.error, 'estimate only: not sent', 'a failing stand-in leaves the miss unanswered');

  const out = countTokens('answer to Hello');
  const hello = countTokens('Hello!') + 7;
  assert.deepEqual(e.estimateReport(), [
    {
      stage: 'broken',
      model: 'judge-a',
      calls: 1,
      inputTokens: HELLO,
      outputTokens: 512,
      costUsd: (HELLO * 2 + 512 * 8) / 1e6,
      priced: true,
      overflows: 0,
      stoodIn: 0,
      unanswered: 1,
    },
    {
      stage: 'later',
      model: 'local',
      calls: 1,
      inputTokens: HELLO,
      outputTokens: 100,
      costUsd: 0,
      priced: false,
      overflows: 0,
      stoodIn: 0,
      unanswered: 1,
    },
    {
      stage: 'score',
      model: 'judge-a',
      calls: 2,
      inputTokens: HELLO + hello,
      outputTokens: out + 10,
      costUsd: (HELLO * 2 + out * 8) / 1e6 + (hello * 2 + 10 * 8) / 1e6,
      priced: true,
      overflows: 0,
      // Both answered by the stand-in: what follows them rests on its answers.
      stoodIn: 2,
      unanswered: 0,
    },
  ]);
});

test('a model outside the roster is refused with what to do', async () => {
  await assert.rejects(
    estimator().callApi(ask({ model: 'nobody' }), undefined),
    /"nobody" is not in the roster; add it to the models file/,
  );
});
