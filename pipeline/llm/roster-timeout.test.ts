// The request timeout from the environment: per model, for every model, and in force on the wire.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envSlug, resolveRoster, timeoutFromEnv } from './roster.ts';
import { createLlmClient } from './client.ts';
import { startFakeOpenAIServer } from './testing/fake-openai-server.ts';
import type { ModelSpec } from './types.ts';

const roster: ModelSpec[] = [
  { name: 'qwen3-8b', roles: ['judge'], provider: 'openai-compatible', baseURLs: ['http://h/v1'], apiKeyOptional: true, timeoutMs: 30_000 },
  { name: 'gpt-x', roles: ['builder'], provider: 'openai-compatible', baseURLs: ['http://h/v1'], apiKeyOptional: true },
  { name: 'agent-simulated', roles: ['judge'], provider: 'offline', simulated: true },
];
const timeouts = (env: NodeJS.ProcessEnv) => resolveRoster(roster, env).map((m) => [m.name, m.timeoutMs]);

test('CDP_LLM_TIMEOUT_S_<NAME> beats CDP_LLM_TIMEOUT_S, which beats the declaration; offline models have none', () => {
  assert.equal(envSlug('qwen3-8b'), 'QWEN3_8B');
  assert.deepEqual(timeouts({}), [
    ['qwen3-8b', 30_000],
    ['gpt-x', undefined],
    ['agent-simulated', undefined],
  ]);
  assert.deepEqual(timeouts({ CDP_LLM_TIMEOUT_S: '1200' }), [
    ['qwen3-8b', 1_200_000],
    ['gpt-x', 1_200_000],
    ['agent-simulated', undefined],
  ]);
  assert.deepEqual(timeouts({ CDP_LLM_TIMEOUT_S: '1200', CDP_LLM_TIMEOUT_S_QWEN3_8B: '2.5' }), [
    ['qwen3-8b', 2_500],
    ['gpt-x', 1_200_000],
    ['agent-simulated', undefined],
  ]);
  // Resolving again changes nothing.
  const env = { CDP_LLM_TIMEOUT_S_QWEN3_8B: '900' };
  const once = resolveRoster(roster, env);
  assert.equal(once.find((m) => m.name === 'qwen3-8b')?.timeoutMs, 900_000);
  assert.deepEqual(resolveRoster(once, env), once);
});

test('a timeout that is not a positive number of seconds names the variable and an example', () => {
  for (const bad of ['0', '-5', 'ten', 'Infinity']) {
    const message = `CDP_LLM_TIMEOUT_S="${bad}": the request timeout must be a positive number of seconds, e.g. CDP_LLM_TIMEOUT_S=1200`;
    assert.throws(() => timeoutFromEnv('gpt-x', { CDP_LLM_TIMEOUT_S: bad }), { message });
  }
  assert.throws(() => resolveRoster(roster, { CDP_LLM_TIMEOUT_S_GPT_X: 'x' }), /CDP_LLM_TIMEOUT_S_GPT_X="x"/);
  assert.equal(timeoutFromEnv('gpt-x', { CDP_LLM_TIMEOUT_S: '  ' }), undefined);
});

test('the timeout from the environment is the one the client applies', async () => {
  const srv = await startFakeOpenAIServer({ latencyMs: 400 });
  const dir = mkdtempSync(join(tmpdir(), 'llm-timeout-'));
  after(() => {
    srv.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const ask = async (env: NodeJS.ProcessEnv, cacheDir: string) => {
    const c = createLlmClient({
      cacheDir,
      roster: [{ name: 'local', roles: ['judge'], provider: 'openai-compatible', baseURLs: [srv.url], apiKeyOptional: true }],
      env,
      retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 2 },
    });
    try {
      return await c.chat({ model: 'local', role: 'judge', messages: [{ role: 'user', content: 'slow' }] });
    } finally {
      await c.close();
    }
  };
  const short = await ask({ CDP_LLM_TIMEOUT_S: '0.1' }, join(dir, 'a'));
  assert.equal(short.ok, false);
  assert.match(!short.ok ? short.error : '', /timeout/);
  const long = await ask({ CDP_LLM_TIMEOUT_S: '0.1', CDP_LLM_TIMEOUT_S_LOCAL: '5' }, join(dir, 'b'));
  assert.equal(long.ok, true, JSON.stringify(long));
});
