import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { ThreadPool } from './pool.ts';
import { answerCall, threadedProviders } from './threaded-providers.ts';

const fixture = fileURLToPath(new URL('./testing/pool-fixture.ts', import.meta.url));

test("a call's recurring context members cross once per worker and come back in place, members in their order", async () => {
  for (const size of [2, 1]) {
    const pool = new ThreadPool({ size, tuning: { coldMs: 0 } });
    try {
      const { judge } = threadedProviders(
        pool,
        { judge: { answersFromContext: true, callApi: async () => ({ output: '' }) } },
        fixture,
        'echoCall',
      );
      const cdp = { cdp_id: 'c1', steps: ['a', 'b'] };
      const tree = { decision_tree: { condition: 'x' } };
      const contexts = Array.from({ length: 50 }, (_, turn) => ({
        cdp,
        vignette: `turn ${turn}`,
        tree,
        dialogue: [{ question: `q${turn}` }],
      }));
      // As the client calls a provider: the request's context is the prompt's too.
      const out = (await Promise.all(contexts.map((c) => judge!.callApi({ model: 'judge', messages: [], context: c }, c)))) as unknown as {
        keys: string[];
        context: unknown;
        promptContext: unknown;
        thread: number;
      }[];
      assert.deepEqual(
        out.map((o) => o.context),
        contexts,
      );
      assert.deepEqual(
        out.map((o) => o.promptContext),
        contexts,
      );
      for (const o of out) assert.deepEqual(o.keys, ['cdp', 'vignette', 'tree', 'dialogue']);
      // cdp and tree, to each of two workers at most once; the dialogues are each new and go within their calls.
      if (size === 2) assert.ok(pool.refsSent >= 2 && pool.refsSent <= 4, `sent ${pool.refsSent}`);
    } finally {
      await pool.close();
    }
  }
});

test('answerCall answers synchronously once its function is loaded, so inline timing measures the answer', async () => {
  const target = { module: fixture, fn: 'echoCall' };
  const call = { name: 'm', prompt: { model: 'm', messages: [] }, context: { a: 1 } };
  // The first call may wait for the module (the test above may have loaded it already).
  await answerCall(call, target);
  const second = answerCall(call, target) as { keys: string[] };
  assert.ok(!(second instanceof Promise));
  assert.deepEqual(second.keys, ['a']);
  await assert.rejects(async () => answerCall(call, { module: fixture, fn: 'nothing' }), /has no exported function 'nothing'/);
});
