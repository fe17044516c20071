import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modelsForRole, redact, resolveRoster } from './roster.ts';
import type { ModelSpec } from './types.ts';

const roster: ModelSpec[] = [
  { name: 'gpt-x', roles: ['builder'], provider: 'openai-compatible', baseURLs: ['https://api.example.com/v1/'], apiKeyEnv: 'X_KEY' },
  { name: 'open-y', roles: ['evaluated', 'judge'], provider: 'openai-compatible', baseURLEnv: 'Y_URL', modelId: 'org/open-y' },
  { name: 'off', roles: ['evaluated'], provider: 'openai-compatible', baseURLs: ['http://h/v1'], active: false },
  { name: 'agent-simulated', roles: ['evaluated', 'patient', 'judge', 'builder'], provider: 'offline', simulated: true },
];

test('models are active only when their endpoint (and required key) is configured', () => {
  const r = resolveRoster(roster, {});
  assert.deepEqual(
    r.map((m) => [m.name, m.active, m.inactiveReason]),
    [
      ['gpt-x', false, 'no API key: set X_KEY'],
      ['open-y', false, 'no endpoint: set Y_URL or CDP_LLM_BASE_URL'],
      ['off', false, 'disabled in the roster'],
      ['agent-simulated', true, undefined],
    ],
  );
  const r2 = resolveRoster(roster, { X_KEY: 'secret', Y_URL: 'http://a:8000/v1, http://b:8000/v1/' });
  assert.equal(r2[0].active, true);
  assert.deepEqual(r2[0].baseURLs, ['https://api.example.com/v1']);
  assert.equal(r2[1].active, true);
  assert.deepEqual(r2[1].baseURLs, ['http://a:8000/v1', 'http://b:8000/v1']);
  // Keys are referred to by name only.
  assert.ok(!JSON.stringify(r2).includes('secret'));
  // The declared roster is not modified.
  assert.equal(roster[0].active, undefined);
});

test('CDP_LLM_BASE_URL routes every openai-compatible model to one server, keeping their ids', () => {
  const r = resolveRoster(roster, { CDP_LLM_BASE_URL: 'http://127.0.0.1:8000/v1' });
  const byName = Object.fromEntries(r.map((m) => [m.name, m]));
  assert.equal(byName['gpt-x'].active, true);
  assert.deepEqual(byName['gpt-x'].baseURLs, ['http://127.0.0.1:8000/v1']);
  assert.equal(byName['gpt-x'].apiKeyEnv, 'CDP_LLM_API_KEY');
  assert.equal(byName['open-y'].modelId, 'org/open-y');
  assert.equal(byName.off.active, false);
  assert.deepEqual(modelsForRole(r, 'judge').map((m) => m.name), ['open-y']);
  assert.deepEqual(modelsForRole(r, 'patient').map((m) => m.name), ['agent-simulated']);
});

test('CDP_LLM_MODEL makes one local model play every role; simulated agents stay as reference rows', () => {
  const r = resolveRoster(roster, { CDP_LLM_BASE_URL: 'http://127.0.0.1:8000/v1', CDP_LLM_MODEL: 'Qwen/Qwen3-8B' });
  assert.deepEqual(
    r.map((m) => [m.name, m.active]),
    [
      ['gpt-x', false],
      ['open-y', false],
      ['off', false],
      ['agent-simulated', true],
      ['Qwen/Qwen3-8B', true],
    ],
  );
  for (const role of ['builder', 'evaluated', 'patient', 'judge'] as const) assert.deepEqual(modelsForRole(r, role).map((m) => m.name), ['Qwen/Qwen3-8B']);
  assert.equal(r[4].modelId, 'Qwen/Qwen3-8B');
  assert.equal(r[0].inactiveReason, 'CDP_LLM_MODEL=Qwen/Qwen3-8B replaces it');
});

test('duplicate names are refused; redact hides secrets', () => {
  assert.throws(() => resolveRoster([roster[0], roster[0]], {}), /appears twice/);
  assert.equal(redact('Bearer sk-abc123 failed for sk-abc123', ['sk-abc123', undefined, '']), 'Bearer [redacted] failed for [redacted]');
});

test('resolving twice gives the same roster, reasons included', () => {
  for (const env of [{}, { X_KEY: 'k', Y_URL: 'http://a/v1' }, { CDP_LLM_BASE_URL: 'http://h/v1' }, { CDP_LLM_BASE_URL: 'http://h/v1', CDP_LLM_MODEL: 'local' }]) {
    const once = resolveRoster(roster, env);
    assert.deepEqual(resolveRoster(once, env), once, JSON.stringify(env));
  }
});
