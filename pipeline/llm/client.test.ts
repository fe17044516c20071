import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { createLlmClient, type LlmClientOptions } from './client.ts';
import { llmCallsRelation } from './call-log.ts';
import { countTokens, tokenUpperBound } from './tokens.ts';
import { promptHash, sampleSeed } from './request-key.ts';
import { startFakeOpenAIServer, type ChatBody, type FakeOpenAIServer } from './testing/fake-openai-server.ts';
import type { ModelSpec } from './types.ts';

const KEY = 'sk-test-9f8e7d6c5b4a-DO-NOT-STORE';
const made: string[] = [];
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), 'llm-client-'));
  made.push(d);
  return d;
};
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
const user = (content: string) => [{ role: 'user' as const, content }];

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

describe('llm client against a local OpenAI-compatible server', () => {
  let srv: FakeOpenAIServer;
  let counter = 0;
  let poison = true;
  const model = (over: Partial<ModelSpec> = {}): ModelSpec => ({
    name: 'judge-a',
    roles: ['judge'],
    provider: 'openai-compatible',
    baseURLs: [srv.url],
    apiKeyEnv: 'TEST_LLM_KEY',
    modelId: 'judge-model',
    params: { temperature: 0.7 },
    contextWindow: 4096,
    concurrency: 4,
    price: { inputPerMTok: 2, outputPerMTok: 8 },
    ...over,
  });
  const client = (over: Partial<LlmClientOptions> & { cacheDir: string }) =>
    createLlmClient({ roster: [model()], env: { TEST_LLM_KEY: KEY }, retry: { baseDelayMs: 2, maxDelayMs: 10 }, ...over });

  before(async () => {
    srv = await startFakeOpenAIServer({
      answer: (b: ChatBody) => {
        const last = b.messages[b.messages.length - 1].content;
        if (last.startsWith('count')) return `answer #${++counter}`;
        return `re: ${last.slice(0, 40)}`;
      },
      faultFor: (_n, b) => (poison && b.messages.some((m) => m.content.includes('poison')) ? { kind: 'status', status: 500 } : undefined),
    });
  });
  after(() => srv.close());

  test('a rerun is served entirely from the cache: zero HTTP requests, same answers', async () => {
    const dir = fresh();
    srv.resetCounters();
    const c1 = client({ cacheDir: dir });
    const first = await Promise.all(
      Array.from({ length: 10 }, (_, i) => c1.chat({ model: 'judge-a', role: 'judge', messages: user(`q${i}`) })),
    );
    await c1.close();
    assert.equal(srv.counters.chat, 10);
    assert.ok(first.every((r) => r.ok && !r.cached));
    srv.resetCounters();
    const c2 = client({ cacheDir: dir });
    const again = await Promise.all(
      Array.from({ length: 10 }, (_, i) => c2.chat({ model: 'judge-a', role: 'judge', messages: user(`q${i}`) })),
    );
    await c2.close();
    assert.equal(srv.counters.chat, 0);
    assert.deepEqual(
      again.map((r) => (r.ok ? [r.text, r.cached] : null)),
      Array.from({ length: 10 }, (_, i) => [`re: q${i}`, true]),
    );
    assert.deepEqual(c2.counters(), { calls: 10, offline: 0, cached: 10, failed: 0, inputTokens: 0, outputTokens: 0, estimatedCostUsd: 0 });
  });

  test('five repeats of one judge prompt are five requests and five entries; a rerun makes none', async () => {
    const dir = fresh();
    srv.resetCounters();
    const c1 = client({ cacheDir: dir });
    const texts = [];
    for (let repeat = 0; repeat < 5; repeat++) {
      const r = await c1.chat({ model: 'judge-a', role: 'judge', messages: user('count me'), repeat });
      assert.ok(r.ok);
      texts.push(r.text);
    }
    await c1.close();
    assert.equal(srv.counters.chat, 5);
    assert.equal(new Set(texts).size, 5, 'each repeat got its own answer');
    srv.resetCounters();
    const c2 = client({ cacheDir: dir });
    const replay = [];
    for (let repeat = 0; repeat < 5; repeat++) {
      const r = await c2.chat({ model: 'judge-a', role: 'judge', messages: user('count me'), repeat });
      assert.ok(r.ok && r.cached);
      replay.push(r.text);
    }
    await c2.close();
    assert.equal(srv.counters.chat, 0);
    assert.deepEqual(replay, texts);
  });

  test('every sampling parameter is in the key; the order params are written in is not', async () => {
    const dir = fresh();
    srv.resetCounters();
    const c = client({ cacheDir: dir });
    await c.chat({ model: 'judge-a', role: 'judge', messages: user('p'), params: { top_p: 0.9, seed: 1 } });
    await c.chat({ model: 'judge-a', role: 'judge', messages: user('p'), params: { seed: 1, top_p: 0.9 } });
    assert.equal(srv.counters.chat, 1);
    await c.chat({ model: 'judge-a', role: 'judge', messages: user('p'), params: { seed: 2, top_p: 0.9 } });
    await c.chat({
      model: 'judge-a',
      role: 'judge',
      messages: user('p'),
      params: { seed: 1, top_p: 0.9 },
      responseFormat: { type: 'json_object' },
    });
    await c.close();
    assert.equal(srv.counters.chat, 3);
    // The model's default params are sent, and the request's override them.
    assert.equal(srv.requests[0].temperature, 0.7);
    assert.deepEqual(srv.requests[2].response_format, { type: 'json_object' });

    // The client keeps its own copy of the defaults: mutating the roster later changes nothing.
    const roster = [model()];
    const c2 = createLlmClient({ cacheDir: dir, roster, env: { TEST_LLM_KEY: KEY } });
    roster[0].params!.temperature = 0;
    const again = await c2.chat({ model: 'judge-a', role: 'judge', messages: user('p'), params: { top_p: 0.9, seed: 1 } });
    await c2.close();
    assert.ok(again.ok && again.cached);
  });

  test('identical calls in flight at once share one request', async () => {
    srv.resetCounters();
    const c = client({ cacheDir: fresh() });
    const [a, b] = await Promise.all([
      c.chat({ model: 'judge-a', role: 'judge', messages: user('twin') }),
      c.chat({ model: 'judge-a', role: 'judge', messages: user('twin') }),
    ]);
    await c.close();
    assert.equal(srv.counters.chat, 1);
    assert.ok(a.ok && b.ok && a.text === b.text);
    assert.equal(c.counters().cached, 1);
  });

  test('each transport fault is retried and the call still succeeds', async () => {
    srv.resetCounters();
    const logs: string[] = [];
    const c = client({
      cacheDir: fresh(),
      retry: { baseDelayMs: 2, maxDelayMs: 10, maxAttempts: 6 },
      timeoutMs: 150,
      log: (l) => logs.push(l),
    });
    srv.injectFaults(
      { kind: 'status', status: 503 },
      { kind: 'reset' },
      { kind: 'truncate' },
      { kind: 'malformed' },
      { kind: 'delay', ms: 400 },
    );
    const r = await c.chat({ model: 'judge-a', role: 'judge', messages: user('faulty') });
    await c.close();
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.text, 're: faulty');
    assert.equal(srv.counters.chat, 6);
    assert.deepEqual(
      logs.map((l) => l.replace(/; attempt.*/, '').replace(/in \d+ ms$/, 'in 0 ms')),
      [
        'HTTP 503: injected 503; waiting for the server, attempt 2 in 0 ms',
        'connection reset; waiting for the server, attempt 3 in 0 ms',
        'truncated response: connection closed mid-body',
        'malformed response: the body is not JSON',
        'timeout',
      ].map((x) => `llm: judge-a ${x}`),
    );
  });

  test('a 429 waits as long as its Retry-After says', async () => {
    srv.resetCounters();
    const c = client({ cacheDir: fresh() });
    srv.injectFaults({ kind: 'status', status: 429, retryAfter: '1' });
    const t0 = performance.now();
    const r = await c.chat({ model: 'judge-a', role: 'judge', messages: user('rate limited') });
    const waited = performance.now() - t0;
    await c.close();
    assert.ok(r.ok);
    assert.equal(srv.counters.chat, 2);
    assert.ok(waited >= 990, `waited ${waited} ms, Retry-After asked for 1000`);
  });

  test('a client error is not retried and names the status', async () => {
    srv.resetCounters();
    const c = client({ cacheDir: fresh() });
    srv.injectFaults({ kind: 'status', status: 400, message: 'bad parameter foo' });
    const r = await c.chat({ model: 'judge-a', role: 'judge', messages: user('bad request') });
    await c.close();
    assert.deepEqual(r, {
      ok: false,
      error: 'HTTP 400 from judge-a: bad parameter foo (not retried)',
      attempts: 1,
      kind: 'http',
      status: 400,
      retryable: false,
    });
    assert.equal(srv.counters.chat, 1);
  });

  test('failures become rows, the stage goes on, and a rerun retries only the failed calls', async () => {
    const dir = fresh();
    srv.resetCounters();
    poison = true;
    const prompts = ['ok 1', 'poison 2', 'ok 3', 'poison 4', 'ok 5'];
    const c1 = client({ cacheDir: dir, retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 3 } });
    const stage = c1.forStage('judge_steps');
    const first = await Promise.all(prompts.map((p) => stage.chat({ model: 'judge-a', role: 'judge', messages: user(p) })));
    await c1.close();
    assert.deepEqual(
      first.map((r) => (r.ok ? 'ok' : r.error)),
      ['ok', 'HTTP 500 from judge-a after 3 attempts: injected 500', 'ok', 'HTTP 500 from judge-a after 3 attempts: injected 500', 'ok'],
    );
    assert.equal(srv.counters.chat, 3 + 2 * 3);
    const sc = stage.counters();
    assert.equal(sc.calls, 5);
    assert.equal(sc.failed, 2);
    // Cost from the server's usage counts: prompt tokens ceil(len/4) per message, answer likewise.
    const inTok = [1, 3, 5].reduce((s) => s + Math.ceil('ok 1'.length / 4), 0);
    const outTok = ['re: ok 1', 're: ok 3', 're: ok 5'].reduce((s, t) => s + Math.ceil(t.length / 4), 0);
    assert.equal(sc.inputTokens, inTok);
    assert.equal(sc.outputTokens, outTok);
    assert.ok(Math.abs(sc.estimatedCostUsd - (inTok * 2 + outTok * 8) / 1e6) < 1e-12);

    poison = false;
    srv.resetCounters();
    const c2 = client({ cacheDir: dir });
    const second = await Promise.all(
      prompts.map((p) => c2.forStage('judge_steps').chat({ model: 'judge-a', role: 'judge', messages: user(p) })),
    );
    await c2.close();
    assert.equal(srv.counters.chat, 2, 'only the two failed calls are asked again');
    assert.deepEqual(
      second.map((r) => r.ok && r.text),
      prompts.map((p) => `re: ${p}`),
    );

    // The warehouse view sees both runs: 3 + 2 answered, 2 failed, with their reasons.
    const rel = llmCallsRelation(dir);
    assert.ok(rel);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    await con.run(`create view llm_calls as select * from ${rel}`);
    const rows = (
      await con.runAndReadAll(
        `select status, count(*)::int as n, min(error) as e, min(stage) as s from llm_calls group by status order by status`,
      )
    ).getRowObjects();
    assert.deepEqual(rows, [
      { status: 'failed', n: 2, e: 'HTTP 500 from judge-a after 3 attempts: injected 500', s: 'judge_steps' },
      { status: 'ok', n: 5, e: null, s: 'judge_steps' },
    ]);
    const cols = (await con.runAndReadAll(`select column_name from (describe llm_calls)`)).getRows().map((r) => r[0]);
    for (const col of ['model', 'stage', 'prompt_hash', 'tokens_in', 'tokens_out', 'latency_ms', 'status', 'error'])
      assert.ok(cols.includes(col), col);
    con.closeSync();
  });

  test('a request over the context window is a failure row, never sent, never truncated', async () => {
    const dir = fresh();
    srv.resetCounters();
    const c = createLlmClient({ cacheDir: dir, roster: [model({ contextWindow: 40 })], env: { TEST_LLM_KEY: KEY } });
    const text = 'hello world '.repeat(20);
    const r = await c.chat({ model: 'judge-a', role: 'judge', messages: user(text) });
    const fits = await c.chat({ model: 'judge-a', role: 'judge', messages: user('Hello, world!') });
    await c.close();
    const n = countTokens(text) + 4 + 3;
    assert.ok(n > 40);
    assert.deepEqual(r, {
      ok: false,
      error: `context overflow (${n} tokens > window 40)`,
      attempts: 0,
      kind: 'context-overflow',
      window: 40,
      retryable: false,
    });
    // 'Hello, world!' is 4 o200k tokens, plus 4 for the message and 3 for the reply: 11 <= 40.
    assert.ok(fits.ok);
    assert.equal(srv.counters.chat, 1);
    const log = readFileSync(join(dir, 'calls', readdirSync(join(dir, 'calls'))[0]), 'utf8');
    assert.match(log, /"status":"failed".*context overflow/);
  });

  test('the output reservation counts against the window', async () => {
    srv.resetCounters();
    const c = createLlmClient({ cacheDir: fresh(), roster: [model({ contextWindow: 40 })], env: { TEST_LLM_KEY: KEY } });
    const r = await c.chat({ model: 'judge-a', role: 'judge', messages: user('Hello, world!'), params: { max_tokens: 30 } });
    await c.close();
    assert.deepEqual(r, {
      ok: false,
      error: 'context overflow (41 tokens > window 40)',
      attempts: 0,
      kind: 'context-overflow',
      window: 40,
      retryable: false,
    });
  });

  test('estimate mode counts and prices the misses only, and sends nothing', async () => {
    const dir = fresh();
    const warm = client({ cacheDir: dir });
    await warm.chat({ model: 'judge-a', role: 'judge', messages: user('cached one') });
    await warm.close();
    srv.resetCounters();
    const c = client({ cacheDir: dir, mode: 'estimate', expectedOutputTokens: 100 });
    const s = c.forStage('score');
    const hit = await s.chat({ model: 'judge-a', role: 'judge', messages: user('cached one') });
    const miss1 = await s.chat({ model: 'judge-a', role: 'judge', messages: user('Hello, world!') });
    const miss2 = await c.forStage('build').chat({
      model: 'judge-a',
      role: 'judge',
      messages: [{ role: 'system', content: 'hello world' }, ...user('Hello, world!')],
      expectedOutputTokens: 10,
    });
    await c.close();
    assert.equal(srv.counters.chat, 0);
    assert.ok(hit.ok && hit.cached);
    assert.deepEqual(miss1, { ok: false, error: 'estimate only: not sent', attempts: 0, kind: 'estimate', retryable: false });
    assert.ok(!miss2.ok);
    // 'Hello, world!' = 4 tokens, 'hello world' = 2; each message +4, each reply +3.
    assert.deepEqual(c.estimateReport(), [
      {
        stage: 'build',
        model: 'judge-a',
        calls: 1,
        inputTokens: 2 + 4 + 4 + 4 + 3,
        outputTokens: 10,
        costUsd: (17 * 2 + 10 * 8) / 1e6,
        priced: true,
        overflows: 0,
        // No stand-in is set: nothing answered either miss.
        stoodIn: 0,
        unanswered: 1,
      },
      {
        stage: 'score',
        model: 'judge-a',
        calls: 1,
        inputTokens: 4 + 4 + 3,
        outputTokens: 100,
        costUsd: (11 * 2 + 100 * 8) / 1e6,
        priced: true,
        overflows: 0,
        stoodIn: 0,
        unanswered: 1,
      },
    ]);
  });

  test('a call per case: two cases with one prompt are two requests with reproducible seeds; shared when the model says so', async () => {
    srv.resetCounters();
    const dir = fresh();
    const c = client({ cacheDir: dir });
    const ask = (sample?: string) => c.chat({ model: 'judge-a', role: 'judge', messages: user('the same first prompt'), sample });
    await ask('case-1');
    await ask('case-2');
    await ask('case-1');
    await ask();
    assert.equal(srv.counters.chat, 3, 'case-1 twice is one call; no sample is a third');
    const seeds = srv.requests.slice(-3).map((b) => b.seed);
    const ph = promptHash(user('the same first prompt'));
    // Temperature 0.7: every call carries a seed — a case's from the case, the others' from their prompt.
    assert.deepEqual(seeds, [sampleSeed('case-1', 0), sampleSeed('case-2', 0), sampleSeed(`prompt:${ph}`, 0)]);
    await c.close();
    srv.resetCounters();
    const again = client({ cacheDir: fresh() });
    await again.chat({ model: 'judge-a', role: 'judge', messages: user('the same first prompt'), sample: 'case-1' });
    await again.close();
    assert.equal(srv.requests.at(-1)!.seed, seeds[0], 'the seed of a sample is the same on every run');
    srv.resetCounters();
    const shared = createLlmClient({ roster: [model({ independentSamples: false })], env: { TEST_LLM_KEY: KEY }, cacheDir: fresh() });
    await shared.chat({ model: 'judge-a', role: 'judge', messages: user('the same first prompt'), sample: 'case-1' });
    await shared.chat({ model: 'judge-a', role: 'judge', messages: user('the same first prompt'), sample: 'case-2' });
    await shared.close();
    assert.equal(srv.counters.chat, 1, 'independentSamples: false shares one answer');
    assert.equal(srv.requests.at(-1)!.seed, sampleSeed(`prompt:${ph}`, 0), 'seeded by its prompt, not by a case');
  });

  test('estimate mode: a stand-in answers real misses so later calls are estimated; identical requests count once; overflows are counted, not sent', async () => {
    srv.resetCounters();
    const dir = fresh();
    const standIn: ModelSpec = { name: 'stand-in-simulated', roles: ['judge'], provider: 'offline', simulated: true };
    const c = client({
      cacheDir: dir,
      mode: 'estimate',
      roster: [model(), standIn],
      offlineHandlers: { 'stand-in-simulated': (req) => `answer to ${String(req.messages[0].content).slice(0, 5)}` },
      estimateStandIn: (req) => (req.stage === 'later' ? undefined : 'stand-in-simulated'),
    });
    const s = c.forStage('first');
    const a = await s.chat({ model: 'judge-a', role: 'judge', messages: user('Hello, world!') });
    assert.deepEqual(a, { ok: true, text: 'answer to Hello', cached: false, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0 });
    const again = await s.chat({ model: 'judge-a', role: 'judge', messages: user('Hello, world!') });
    assert.ok(again.ok && again.cached && again.text === 'answer to Hello', 'the identical request is what the cache would serve');
    // Two independent samples of one prompt are two requests.
    await s.chat({ model: 'judge-a', role: 'judge', messages: user('Hello, world!'), sample: 'case-1' });
    const unanswered = await c.forStage('later').chat({ model: 'judge-a', role: 'judge', messages: user('next') });
    assert.deepEqual(unanswered, { ok: false, error: 'estimate only: not sent', attempts: 0, kind: 'estimate', retryable: false });
    const huge = await s.chat({ model: 'judge-a', role: 'judge', messages: user('word '.repeat(5000)) });
    assert.ok(!huge.ok && /^context overflow \(\d+ tokens > window 4096\)$/.test(huge.error), JSON.stringify(huge));
    await c.close();
    assert.equal(srv.counters.chat, 0);
    const rows = c.estimateReport();
    // 'answer to Hello' is 4 tokens: a stand-in's answer sets the output estimate when nothing declares one.
    assert.deepEqual(
      rows.map((r) => [r.stage, r.calls, r.inputTokens, r.outputTokens, r.overflows]),
      [
        ['first', 2, 2 * 11, 2 * countTokens('answer to Hello'), 1],
        ['later', 1, countTokens('next') + 7, 512, 0],
      ],
    );
    assert.ok(!existsSync(join(dir, 'calls')), 'estimating writes nothing to the store');
  });

  test('a shared blob is sent in full and keys like any content; unregistered blobs are refused', async () => {
    srv.resetCounters();
    const c = client({ cacheDir: fresh() });
    const guideline = 'GUIDELINE '.repeat(300);
    const part = c.blob(guideline);
    assert.deepEqual(c.blob(guideline), part);
    const msg = (q: string) => [{ role: 'user' as const, content: [part, { type: 'text' as const, text: `\nQ: ${q}` }] }];
    await c.chat({ model: 'judge-a', role: 'judge', messages: msg('one') });
    await c.chat({ model: 'judge-a', role: 'judge', messages: msg('two') });
    await c.chat({ model: 'judge-a', role: 'judge', messages: msg('one') });
    assert.equal(srv.counters.chat, 2);
    assert.equal(srv.requests[0].messages[0].content, guideline + '\nQ: one');
    const other = client({ cacheDir: fresh() });
    await assert.rejects(other.chat({ model: 'judge-a', role: 'judge', messages: msg('one') }), /not registered/);
    await c.close();
    await other.close();
  });

  test("calls spread over replicas, within each replica's concurrency limit", async () => {
    const b = await startFakeOpenAIServer({ latencyMs: 20 });
    srv.resetCounters();
    srv.setLatency(20);
    const c = createLlmClient({
      cacheDir: fresh(),
      roster: [model({ baseURLs: [srv.url, b.url], concurrency: 3 })],
      env: { TEST_LLM_KEY: KEY },
    });
    const rs = await Promise.all(
      Array.from({ length: 24 }, (_, i) => c.chat({ model: 'judge-a', role: 'judge', messages: user(`spread ${i}`) })),
    );
    await c.close();
    srv.setLatency(0);
    await b.close();
    assert.ok(rs.every((r) => r.ok));
    assert.equal(srv.counters.chat + b.counters.chat, 24);
    assert.ok(srv.counters.chat >= 6 && b.counters.chat >= 6, `${srv.counters.chat} / ${b.counters.chat}`);
    assert.ok(srv.counters.maxInFlight <= 3 && b.counters.maxInFlight <= 3);
    assert.equal(srv.counters.maxInFlight, 3);
  });

  test('the API key is sent to the server but written to no file; inactive models fail with the reason', async () => {
    const dir = fresh();
    srv.resetCounters();
    const c = client({ cacheDir: dir });
    srv.injectFaults({ kind: 'status', status: 401, message: `bad key ${KEY}` });
    const denied = await c.chat({ model: 'judge-a', role: 'judge', messages: user('auth?') });
    await c.chat({ model: 'judge-a', role: 'judge', messages: user('auth!') });
    await c.close();
    assert.ok(!denied.ok && !denied.error.includes(KEY) && denied.error.includes('[redacted]'));
    assert.ok(srv.authHeaders.every((h) => h === `Bearer ${KEY}`) && srv.authHeaders.length === 2);
    const files = allFiles(dir);
    assert.ok(files.length >= 1);
    for (const f of files) assert.ok(!readFileSync(f, 'utf8').includes(KEY), `${f} holds the key`);

    // Without the key the model is inactive: misses fail with the reason, but the cache still
    // serves what it holds and estimates still count (both need no key).
    const noKey = createLlmClient({ cacheDir: dir, roster: [model()], env: {} });
    assert.deepEqual(await noKey.chat({ model: 'judge-a', role: 'judge', messages: user('x') }), {
      ok: false,
      error: 'model judge-a is inactive: no API key: set TEST_LLM_KEY',
      attempts: 0,
      kind: 'inactive',
      retryable: false,
    });
    const fromCache = await noKey.chat({ model: 'judge-a', role: 'judge', messages: user('auth!') });
    assert.ok(fromCache.ok && fromCache.cached && fromCache.text === 're: auth!');
    const est = createLlmClient({ cacheDir: dir, roster: [model()], env: {}, mode: 'estimate' });
    await est.chat({ model: 'judge-a', role: 'judge', messages: user('x') });
    assert.equal(est.estimateReport()[0].calls, 1);
    await est.close();
    await assert.rejects(noKey.chat({ model: 'nobody', messages: user('x') }), /not in the roster/);
    await noKey.close();
  });

  test('offline models are answered by their handler, counted, and not stored', async () => {
    const dir = fresh();
    srv.resetCounters();
    const seen: string[] = [];
    const c = createLlmClient({
      cacheDir: dir,
      roster: [{ name: 'patient-simulated', roles: ['patient'], provider: 'offline', simulated: true }],
      offlineHandlers: {
        'patient-simulated': (req) => (seen.push(String(req.messages[0].content)), `I have ${req.messages.length} message(s)`),
      },
    });
    const part = c.blob('shared text');
    const s = c.forStage('dialogue');
    const r = await s.chat({ model: 'patient-simulated', messages: [{ role: 'user', content: [part, { type: 'text', text: '!' }] }] });
    await c.close();
    assert.ok(r.ok && r.text === 'I have 1 message(s)' && !r.cached);
    assert.deepEqual(seen, ['shared text!']);
    assert.equal(s.counters().calls, 1);
    assert.equal(srv.counters.chat, 0);
    assert.equal(llmCallsRelation(dir), null);
  });
});

// Token counting lives here rather than in its own file: building the o200k encoder takes
// seconds, and this file pays for it anyway.
test('o200k_base counts of known strings, and the byte bound never under-counts', () => {
  // Published o200k_base encodings: "hello world" → [24912, 2375]; "Hello, world!" → Hello , world !
  assert.equal(countTokens('hello world'), 2);
  assert.equal(countTokens('Hello, world!'), 4);
  assert.equal(countTokens(''), 0);
  for (const s of ['hello world', '诊断与治疗指南：高血压', 'x'.repeat(1000), '{"steps":[1,2,3]}', '<|endoftext|> is plain text here'])
    assert.ok(countTokens(s) <= tokenUpperBound(s), s);
  assert.equal(tokenUpperBound('诊断'), 6);
});
