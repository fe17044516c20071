// The client against a local server that fails as real servers do: each error body of
// testing/server-errors.ts, a context window it enforces, 200s that are empty, cut off or have no
// choices, and a warm-up. Every call ends ok or with the right failure kind, overflows are not
// sent again by a retry, and nothing that is not the model's answer is cached.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLlmClient, type LlmClientOptions } from './client.ts';
import { CallStore } from './call-store.ts';
import { startFakeOpenAIServer, type FakeOpenAIServer, type Fault } from './testing/fake-openai-server.ts';
import { SERVER_ERROR_BODIES, errorBody } from './testing/server-errors.ts';
import { tempDir } from '../testing/temp-dir.ts';
import type { CallFailureKind, ChatResult, ModelSpec } from './types.ts';

const user = (content: string) => [{ role: 'user' as const, content }];
const spec = (url: string, over: Partial<ModelSpec> = {}): ModelSpec => ({
  name: 'm',
  roles: ['evaluated'],
  provider: 'openai-compatible',
  baseURLs: [url],
  apiKeyOptional: true,
  modelId: 'org/m',
  contextWindow: 1_000_000,
  ...over,
});
const fast = { baseDelayMs: 5, maxDelayMs: 40, maxAttempts: 3 };

describe('server faults through the client', () => {
  let srv: FakeOpenAIServer;
  const client = (over: Partial<LlmClientOptions> = {}, model: Partial<ModelSpec> = {}) =>
    createLlmClient({
      cacheDir: tempDir('llm-faults-'),
      roster: [spec(srv.url, model)],
      retry: { ...fast, waitForServerMs: 0 },
      progress: () => {},
      ...over,
    });
  const ask = (c: ReturnType<typeof client>, text: string, params?: Record<string, unknown>) =>
    c.chat({ model: 'm', role: 'evaluated', messages: user(text), ...(params ? { params } : {}) });
  before(async () => {
    // A request whose message is "body:<id>" is answered with that error body, every time.
    srv = await startFakeOpenAIServer({
      faultFor: (_n, body) => {
        const m = /^body:(.+)$/.exec(body.messages[0].content);
        const b = m ? errorBody(m[1]) : undefined;
        return b && { kind: 'body', status: b.status, body: b.body, contentType: b.contentType };
      },
    });
  });
  after(() => srv.close());

  test("every error body gives the server's words, its kind, and the retries its kind deserves", async () => {
    const expectKind = (status: number, overflow: boolean): CallFailureKind =>
      overflow ? 'context-overflow' : [502, 503, 504].includes(status) ? 'unavailable' : 'http';
    for (const b of SERVER_ERROR_BODIES) {
      srv.resetCounters();
      const c = client();
      const r = await ask(c, `body:${b.id}`);
      await c.close();
      assert.ok(!r.ok, b.id);
      const overflow = b.overflowWindow !== undefined;
      assert.equal(r.kind, expectKind(b.status, overflow), `${b.id}: kind`);
      assert.equal(r.status, b.status, `${b.id}: status`);
      assert.ok(r.error.includes(b.message), `${b.id}: "${r.error}" carries "${b.message}"`);
      assert.ok(!r.error.includes('status code (no body)'), b.id);
      if (overflow) {
        assert.equal(r.window, b.overflowWindow ?? undefined, `${b.id}: window`);
        assert.equal(r.retryable, false);
        assert.equal(srv.counters.chat, 1, `${b.id}: an overflow is not retried`);
      } else if (b.status >= 500) {
        // 500 keeps the attempt count; a server not there is waited for (a budget of 0 here: one attempt).
        assert.equal(srv.counters.chat, b.status === 500 ? fast.maxAttempts : 1, `${b.id}: attempts`);
        assert.equal(r.retryable, true);
      } else {
        assert.equal(srv.counters.chat, 1, `${b.id}: a 4xx is not retried`);
        assert.equal(r.retryable, false);
      }
    }
  });

  test('200s that are not answers are retried and never cached; a cut-off answer with finish_reason length is the answer', async () => {
    const noAnswers: [Fault, string][] = [
      [{ kind: 'empty' }, 'empty content and no finish_reason'],
      [{ kind: 'empty', finishReason: 'stop' }, 'empty content (finish_reason "stop")'],
      [{ kind: 'no-choices' }, 'no choices'],
      [{ kind: 'aborted' }, 'finish_reason "abort"'],
      [{ kind: 'truncate' }, 'connection closed mid-body'],
      [{ kind: 'malformed' }, 'the body is not JSON'],
    ];
    for (const [fault, why] of noAnswers) {
      srv.resetCounters();
      const dir = tempDir('llm-empty-');
      const c = client({ cacheDir: dir });
      srv.injectFaults(fault, fault, fault);
      const r = await ask(c, `no answer ${fault.kind} ${why}`);
      await c.close();
      assert.equal(r.ok, false, why);
      assert.ok(!r.ok && r.kind === 'malformed' && r.retryable, `${why}: ${JSON.stringify(r)}`);
      assert.ok(!r.ok && r.error.includes(why), `${why}: ${!r.ok && r.error}`);
      assert.equal(srv.counters.chat, 3, `${why}: retried`);
      // Not cached: the next run asks again and gets the answer.
      const again = client({ cacheDir: dir });
      const r2 = await ask(again, `no answer ${fault.kind} ${why}`);
      await again.close();
      assert.ok(r2.ok && !r2.cached, why);
      assert.equal(srv.counters.chat, 4);
    }
    // One bad 200, then the answer: the call is ok after a retry.
    srv.resetCounters();
    const c = client();
    srv.injectFaults({ kind: 'empty' });
    const r = await ask(c, 'recovers');
    assert.ok(r.ok && r.text === 'echo(org/m): recovers');
    assert.equal(srv.counters.chat, 2);
    await c.close();
  });

  test("an answer cut at max_tokens is the model's: ok, with its finish reason, and cached", async () => {
    const cut = await startFakeOpenAIServer({ answer: () => ({ content: 'The first step is', finishReason: 'length' }) });
    try {
      const dir = tempDir('llm-length-');
      const mk = () => createLlmClient({ cacheDir: dir, roster: [spec(cut.url)], retry: fast });
      const c = mk();
      const r: ChatResult = await c.chat({ model: 'm', role: 'evaluated', messages: user('long answer'), params: { max_tokens: 4 } });
      await c.close();
      assert.ok(r.ok);
      assert.deepEqual([r.text, r.finishReason, r.cached], ['The first step is', 'length', false]);
      const again = mk();
      const r2 = await again.chat({ model: 'm', role: 'evaluated', messages: user('long answer'), params: { max_tokens: 4 } });
      await again.close();
      assert.ok(r2.ok && r2.cached && r2.finishReason === 'length');
      assert.equal(cut.counters.chat, 1);
    } finally {
      await cut.close();
    }
  });
});

describe('a context overflow the server reports', () => {
  for (const style of ['vllm', 'openai', 'sglang', 'llamacpp'] as const) {
    test(`(${style}) is labelled, not retried, and not sent again until the prompt, max_tokens or the window change`, async () => {
      const srv = await startFakeOpenAIServer({ contextWindow: 100, overflowStyle: style });
      try {
        const dir = tempDir('llm-overflow-');
        // The models file assumes a larger window than the server has: the server is the one that refuses.
        const mk = (window = 32_768) => createLlmClient({ cacheDir: dir, roster: [spec(srv.url, { contextWindow: window })], retry: fast });
        const big = 'word '.repeat(100); // 500 characters: 125 rough tokens > 100
        const ask = (c: ReturnType<typeof mk>, params?: Record<string, unknown>) =>
          c.chat({ model: 'm', role: 'evaluated', messages: user(big), sample: 'case-1', ...(params ? { params } : {}) });
        const c1 = mk();
        const r = await ask(c1);
        await c1.close();
        assert.ok(!r.ok);
        assert.deepEqual([r.kind, r.window, r.retryable, r.attempts, r.status], ['context-overflow', 100, false, 1, 400]);
        assert.match(r.error, /^context overflow: m's server refused the prompt \(window 100\): HTTP 400: .+ \(not retried\)$/);
        assert.equal(srv.counters.chat, 1);

        // A retry (cdp run --retry-failed asks every failed call again): answered without sending.
        const c2 = mk();
        const again = await ask(c2);
        await c2.close();
        assert.ok(!again.ok);
        assert.deepEqual([again.kind, again.window, again.attempts], ['context-overflow', 100, 0]);
        assert.match(again.error, /\[remembered from .+: not sent again until the prompt, its params or m's contextWindow change\]$/);
        assert.equal(srv.counters.chat, 1, 'the overflow was not resent');

        // Another max_tokens is another request: sent. So is the same request under another declared window.
        const c3 = mk();
        await ask(c3, { max_tokens: 8 });
        await c3.close();
        assert.equal(srv.counters.chat, 2);
        const c4 = mk(65_536);
        const wider = await ask(c4);
        await c4.close();
        assert.equal(srv.counters.chat, 3, 'a changed window sends it again');
        assert.ok(!wider.ok && wider.kind === 'context-overflow' && wider.attempts === 1);

        // Remembered durably, in the call store, by key and declared window.
        const store = CallStore.open(dir, { readOnly: true });
        assert.equal(store.size, 0, 'an overflow is not an answer');
        await store.close();
      } finally {
        await srv.close();
      }
    });
  }
});

describe('a server that is starting', () => {
  test('refusing connections for a while: every call waits for it and ends ok; one progress line for the model, then "answering again"', async () => {
    const srv = await startFakeOpenAIServer();
    try {
      const progress: string[] = [];
      // The documented default waits 5 min for a server; a 20 s warm-up is 1/15 of it. Here: 1 s of 15.
      const c = createLlmClient({
        cacheDir: tempDir('llm-warm-'),
        roster: [spec(srv.url, { retry: { waitForServerMs: 15_000 } })],
        retry: { baseDelayMs: 50, maxDelayMs: 400 },
        progress: (l) => progress.push(l),
      });
      await srv.warmUp(1000, 'refuse');
      const t0 = Date.now();
      const rs = await Promise.all(Array.from({ length: 6 }, (_, i) => c.chat({ model: 'm', role: 'evaluated', messages: user(`q${i}`) })));
      await c.close();
      assert.ok(
        rs.every((r) => r.ok),
        JSON.stringify(rs.filter((r) => !r.ok)),
      );
      assert.ok(Date.now() - t0 >= 900, 'they waited for the server');
      const waiting = progress.filter((l) => l.includes('unavailable since'));
      assert.equal(waiting.length, 1, progress.join('\n'));
      assert.match(waiting[0], /^llm: m unavailable since \d\d:\d\d:\d\d UTC \(0 ms\): connection refused; waiting up to 15 s for it$/);
      assert.match(progress.at(-1)!, /^llm: m is answering again after (\d+ ms|1 s|2 s) unavailable$/);
    } finally {
      await srv.close();
    }
  });

  test('answering 503 while loading, and 502 behind a proxy: waited for; Retry-After is honoured', async () => {
    const srv = await startFakeOpenAIServer();
    try {
      const c = createLlmClient({
        cacheDir: tempDir('llm-warm-'),
        roster: [spec(srv.url, { retry: { waitForServerMs: 10_000, maxAttempts: 2 } })],
        retry: { baseDelayMs: 50, maxDelayMs: 200 },
        progress: () => {},
      });
      const loading = errorBody('json-503-loading');
      await srv.warmUp(700, { status: 503, body: loading });
      const r = await c.chat({ model: 'm', role: 'evaluated', messages: user('loading') });
      assert.ok(r.ok, JSON.stringify(r));
      assert.ok(srv.counters.warmingUp > 2, 'more attempts than maxAttempts: a server not there is not counted');
      await srv.warmUp(400, { status: 502, body: errorBody('nginx-502-html') });
      assert.ok((await c.chat({ model: 'm', role: 'evaluated', messages: user('proxy') })).ok);
      srv.injectFaults({ kind: 'status', status: 503, retryAfter: '1' });
      const t0 = Date.now();
      assert.ok((await c.chat({ model: 'm', role: 'evaluated', messages: user('retry after') })).ok);
      assert.ok(Date.now() - t0 >= 990, 'Retry-After: 1 waited a second');
      await c.close();
    } finally {
      await srv.close();
    }
  });

  test('a warm-up that outlasts the budget: the calls fail as unavailable, saying since when; a retry after it is up succeeds', async () => {
    const srv = await startFakeOpenAIServer();
    try {
      const dir = tempDir('llm-cold-');
      const progress: string[] = [];
      const mk = () =>
        createLlmClient({
          cacheDir: dir,
          roster: [spec(srv.url, { retry: { waitForServerMs: 500 } })],
          retry: { baseDelayMs: 20, maxDelayMs: 100 },
          progress: (l) => progress.push(l),
        });
      await srv.warmUp(2500, 'refuse');
      const c = mk();
      const t0 = Date.now();
      const rs = await Promise.all([0, 1, 2].map((i) => c.chat({ model: 'm', role: 'evaluated', messages: user(`cold ${i}`) })));
      const took = Date.now() - t0;
      // Once the budget is spent, a later call of the model fails at its first attempt.
      const t1 = Date.now();
      const late = await c.chat({ model: 'm', role: 'evaluated', messages: user('late') });
      const lateTook = Date.now() - t1;
      await c.close();
      assert.ok(took >= 450 && took < 2000, `gave up after ${took} ms`);
      for (const r of [...rs, late]) {
        assert.ok(!r.ok);
        assert.equal(r.kind, 'unavailable');
        assert.equal(r.retryable, true);
        assert.match(
          r.error,
          /^m unavailable since \d\d:\d\d:\d\d UTC \(for \d+ ms; its wait budget is 500 ms\): connection refused; \d+ attempts?$/,
        );
      }
      assert.ok(!late.ok && late.attempts === 1 && lateTook < 300, `late: ${lateTook} ms`);
      assert.ok(progress.some((l) => /still unavailable after 500 ms/.test(l)));

      await srv.warm();
      const retry = mk();
      const back = await Promise.all([0, 1, 2].map((i) => retry.chat({ model: 'm', role: 'evaluated', messages: user(`cold ${i}`) })));
      await retry.close();
      assert.ok(
        back.every((r) => r.ok && !r.cached),
        'failures were not cached; the retry asks and is answered',
      );
    } finally {
      await srv.close();
    }
  });

  test('429s keep the attempt count, however long the wait budget', async () => {
    const srv = await startFakeOpenAIServer();
    try {
      const c = createLlmClient({
        cacheDir: tempDir('llm-429-'),
        roster: [spec(srv.url, { retry: { waitForServerMs: 60_000, maxAttempts: 3 } })],
        retry: { baseDelayMs: 5, maxDelayMs: 10 },
      });
      srv.injectFaults(...Array.from({ length: 5 }, () => ({ kind: 'status' as const, status: 429, message: 'Rate limit reached' })));
      const r = await c.chat({ model: 'm', role: 'evaluated', messages: user('limited') });
      await c.close();
      assert.ok(!r.ok);
      assert.deepEqual([r.kind, r.status, r.attempts, r.retryable], ['http', 429, 3, true]);
      assert.equal(r.error, 'HTTP 429 from m after 3 attempts: Rate limit reached');
    } finally {
      await srv.close();
    }
  });
});

test('a real model called without a role is refused, so no logged call lacks one; offline models need none', async () => {
  const c = createLlmClient({
    cacheDir: tempDir('llm-role-'),
    roster: [spec('http://127.0.0.1:9/v1'), { name: 'sim', roles: ['judge'], provider: 'offline' }],
    offlineHandlers: { sim: () => 'ok' },
  });
  await assert.rejects(c.chat({ model: 'm', messages: user('x') }), /the call to m in stage unstaged names no role; pass role: 'builder'/);
  await assert.rejects(c.embed({ model: 'm', input: ['x'] }), /names no role/);
  assert.ok((await c.chat({ model: 'sim', messages: user('x') })).ok);
  await c.close();
});
