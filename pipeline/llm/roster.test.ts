import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redact, resolveRoster } from './roster.ts';
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
      ['open-y', false, 'no endpoint: set Y_URL'],
      ['off', false, 'disabled ("enabled": false)'],
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

test('duplicate names are refused; redact hides secrets', () => {
  assert.throws(() => resolveRoster([roster[0], roster[0]], {}), /appears twice/);
  assert.equal(redact('Bearer sk-abc123 failed for sk-abc123', ['sk-abc123', undefined, '']), 'Bearer [redacted] failed for [redacted]');
});

test('resolving twice gives the same roster, reasons included', () => {
  for (const env of [{}, { X_KEY: 'k', Y_URL: 'http://a/v1' }]) {
    const once = resolveRoster(roster, env);
    assert.deepEqual(resolveRoster(once, env), once, JSON.stringify(env));
  }
});
