// The live provider on its own, through callApi, against a local OpenAI-compatible server.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { classifyError } from '../openai-transport.ts';
import { Retrier } from '../retry.ts';
import { fakeEmbedding, startFakeOpenAIServer, type FakeOpenAIServer } from '../testing/fake-openai-server.ts';
import type { ModelSpec, ProviderPrompt, ProviderResponse, StoredCall } from '../types.ts';
import { chatBody, Endpoints, LiveProvider, type LiveProviderOptions } from './live.ts';

const KEY = 'sk-live-test-0a1b2c3d-NEVER-LOGGED';
const user = (content: string) => [{ role: 'user' as const, content }];
const call = (n: number): StoredCall => ({
  key: n.toString(16).padStart(64, '0'),
  model: 'judge-a',
  modelId: 'judge-model',
  stage: 'score',
  promptHash: 'p'.repeat(64),
  repeat: 0,
});

describe('live provider', () => {
  let srv: FakeOpenAIServer;
  before(async () => {
    srv = await startFakeOpenAIServer();
  });
  after(() => srv.close());

  const spec = (over: Partial<ModelSpec> = {}): ModelSpec => ({
    name: 'judge-a',
    roles: ['judge'],
    provider: 'openai-compatible',
    baseURLs: [srv.url],
    apiKeyEnv: 'LIVE_KEY',
    modelId: 'judge-model',
    ...over,
  });
  const retry = (log?: string[]) =>
    new Retrier(
      { maxAttempts: 3, waitForServerMs: 500, baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 1000 },
      { classify: classifyError, log: (l) => log?.push(l) },
    );
  const live = (over: Partial<LiveProviderOptions> = {}) =>
    new LiveProvider({ spec: spec(), endpoints: new Endpoints({ env: { LIVE_KEY: KEY } }), retry: retry(), ...over });

  test('answers with the text, token usage, finish reason and attempts, and records the outcome under its call first', async () => {
    srv.resetCounters();
    const records: [StoredCall, ProviderResponse][] = [];
    const p = live({ record: async (c, r) => void records.push([c, r]) });
    const prompt: ProviderPrompt = { model: 'judge-a', messages: user('hello'), params: { temperature: 0.5 }, call: call(1) };
    const r = await p.callApi(prompt, { case: 'never sent' });
    assert.equal(r.output, 'echo(judge-model): hello');
    // The fake server counts about four characters a token.
    assert.deepEqual(r.tokenUsage, { input: 2, output: Math.ceil('echo(judge-model): hello'.length / 4) });
    assert.equal(r.finishReason, 'stop');
    assert.equal(r.attempts, 1);
    assert.equal(typeof r.latencyMs, 'number');
    assert.deepEqual(records, [[call(1), r]]);
    assert.deepEqual(srv.requests[0], { temperature: 0.5, model: 'judge-model', messages: [{ role: 'user', content: 'hello' }] });
    assert.deepEqual(srv.authHeaders, [`Bearer ${KEY}`]);

    // A prompt that names no call is answered and not recorded.
    const bare = await p.callApi({ model: 'judge-a', messages: user('no call') }, undefined);
    assert.equal(bare.output, 'echo(judge-model): no call');
    assert.equal(records.length, 1);
  });

  test("the body sends the client's seed; a seed in the params wins", () => {
    const body = (over: Partial<ProviderPrompt>) => chatBody({ model: 'judge-a', messages: user('q'), ...over }, 'judge-model');
    assert.equal(body({}).seed, undefined);
    assert.equal(body({ seed: 12345 }).seed, 12345);
    assert.equal(body({ seed: 12345, params: { seed: 7 } }).seed, 7);
    assert.deepEqual(body({ responseFormat: { type: 'json_object' } }), {
      model: 'judge-model',
      messages: user('q'),
      response_format: { type: 'json_object' },
    });
  });

  test('retries what a later attempt may fix, not what it cannot; failures are returned, recorded and redacted', async () => {
    srv.resetCounters();
    const log: string[] = [];
    const records: ProviderResponse[] = [];
    const p = live({ retry: retry(log), record: async (_c, r) => void records.push(r) });

    srv.injectFaults({ kind: 'status', status: 503 });
    const recovered = await p.callApi({ model: 'judge-a', messages: user('flaky'), call: call(2) }, undefined);
    assert.equal(recovered.output, 'echo(judge-model): flaky');
    assert.equal(recovered.attempts, 2);
    assert.match(log[0], /^llm: judge-a HTTP 503: injected 503; waiting for the server, attempt 2 in \d+ ms$/);

    srv.injectFaults({ kind: 'status', status: 400, message: 'bad parameter foo' });
    const bad = await p.callApi({ model: 'judge-a', messages: user('bad'), call: call(3) }, undefined);
    assert.deepEqual(
      [bad.output, bad.error, bad.retryable, bad.attempts],
      [undefined, 'HTTP 400 from judge-a: bad parameter foo (not retried)', false, 1],
    );

    srv.injectFaults(...Array.from({ length: 3 }, () => ({ kind: 'status' as const, status: 500 })));
    const down = await p.callApi({ model: 'judge-a', messages: user('down'), call: call(4) }, undefined);
    assert.deepEqual(
      [down.error, down.retryable, down.attempts, down.failure],
      ['HTTP 500 from judge-a after 3 attempts: injected 500', true, 3, { kind: 'http', status: 500 }],
    );
    assert.deepEqual(
      records.map((r) => r.error ?? 'ok'),
      ['ok', 'HTTP 400 from judge-a: bad parameter foo (not retried)', 'HTTP 500 from judge-a after 3 attempts: injected 500'],
    );

    // Without a redactor of its own the provider removes its model's key.
    srv.injectFaults({ kind: 'status', status: 401, message: `bad key ${KEY}` });
    const denied = await p.callApi({ model: 'judge-a', messages: user('auth') }, undefined);
    assert.ok(denied.error?.includes('[redacted]') && !denied.error.includes(KEY), denied.error);
  });

  test("the model's timeout applies per attempt, over the provider's default", async () => {
    const slow = await startFakeOpenAIServer({ latencyMs: 300 });
    try {
      const endpoints = new Endpoints({ env: {} });
      const ask = (over: Partial<ModelSpec>, timeoutMs?: number) =>
        new LiveProvider({ spec: spec({ baseURLs: [slow.url], ...over }), endpoints, retry: retry(), timeoutMs }).callApi(
          { model: 'judge-a', messages: user('slow') },
          undefined,
        );
      assert.equal((await ask({ timeoutMs: 50 })).error, 'timeout from judge-a after 3 attempts');
      assert.equal((await ask({}, 50)).error, 'timeout from judge-a after 3 attempts');
      assert.equal((await ask({ timeoutMs: 5000 }, 50)).output, 'echo(judge-model): slow');
    } finally {
      await slow.close();
    }
  });

  test('calls spread over the least busy replicas; two names for one deployment share its slots', async () => {
    const b = await startFakeOpenAIServer({ latencyMs: 20 });
    srv.resetCounters();
    srv.setLatency(20);
    try {
      const endpoints = new Endpoints({ env: {} });
      const p = new LiveProvider({ spec: spec({ baseURLs: [srv.url, b.url], concurrency: 2 }), endpoints, retry: retry() });
      const rs = await Promise.all(
        Array.from({ length: 16 }, (_, i) => p.callApi({ model: 'judge-a', messages: user(`s${i}`) }, undefined)),
      );
      assert.ok(rs.every((r) => r.output !== undefined));
      assert.equal(srv.counters.chat + b.counters.chat, 16);
      assert.ok(srv.counters.chat >= 4 && b.counters.chat >= 4, `${srv.counters.chat} / ${b.counters.chat}`);
      assert.ok(srv.counters.maxInFlight <= 2 && b.counters.maxInFlight <= 2);

      srv.resetCounters();
      const shared = new Endpoints({ env: {} });
      const one = new LiveProvider({ spec: spec({ name: 'one', concurrency: 3 }), endpoints: shared, retry: retry() });
      const two = new LiveProvider({ spec: spec({ name: 'two', concurrency: 3 }), endpoints: shared, retry: retry() });
      await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 ? one : two).callApi({ model: 'x', messages: user(`shared ${i}`) }, undefined)),
      );
      assert.equal(srv.counters.chat, 12);
      assert.equal(srv.counters.maxInFlight, 3, 'one replica, one semaphore');
    } finally {
      srv.setLatency(0);
      await b.close();
    }
  });

  test('embeddings: one request for the texts, vectors in their order', async () => {
    srv.resetCounters();
    const r = await live().callEmbeddingApi(['first text', 'second text']);
    assert.deepEqual(r.vectors, [fakeEmbedding('first text'), fakeEmbedding('second text')]);
    assert.deepEqual(r.tokenUsage, { input: 16 });
    assert.deepEqual([srv.counters.embeddings, srv.counters.embeddedTexts], [1, 2]);

    const none = await new LiveProvider({
      spec: spec({ baseURLs: ['http://127.0.0.1:9/v1'] }),
      endpoints: new Endpoints({ env: {} }),
      retry: new Retrier(
        { maxAttempts: 1, waitForServerMs: 0, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1 },
        { classify: classifyError },
      ),
    }).callEmbeddingApi(['x']);
    assert.match(
      none.error ?? '',
      /^embeddings from judge-a: judge-a unavailable since \d\d:\d\d:\d\d UTC \(for \d+ ms; its wait budget is 0 ms\): connection refused after 1 attempt\(s\)$/,
    );
  });
});
