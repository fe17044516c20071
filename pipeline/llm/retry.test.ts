import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_RETRY, isRetryableStatus, parseRetryAfter, Retrier, retryDelayMs } from './retry.ts';

const h = (o: Record<string, string>) => new Headers(o);

test('Retry-After in seconds, as an HTTP date, and retry-after-ms', () => {
  assert.equal(parseRetryAfter(h({ 'retry-after': '3' })), 3000);
  assert.equal(parseRetryAfter(h({ 'retry-after': '0.5' })), 500);
  assert.equal(parseRetryAfter(h({ 'retry-after-ms': '250', 'retry-after': '3' })), 250);
  const now = Date.parse('Sun, 29 Nov 2026 12:00:00 GMT');
  assert.equal(parseRetryAfter(h({ 'retry-after': 'Sun, 29 Nov 2026 12:00:07 GMT' }), now), 7000);
  assert.equal(parseRetryAfter(h({ 'retry-after': 'soon' })), undefined);
  assert.equal(parseRetryAfter(h({})), undefined);
  assert.equal(parseRetryAfter(undefined), undefined);
});

test('backoff is full jitter under an exponential ceiling; Retry-After wins, capped', () => {
  const p = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };
  const f = { reason: 'HTTP 500', retryable: true };
  assert.equal(
    retryDelayMs(p, 1, f, () => 0.5),
    50,
  );
  assert.equal(
    retryDelayMs(p, 3, f, () => 0.5),
    200,
  );
  assert.equal(
    retryDelayMs(p, 10, f, () => 0.999),
    999,
  );
  assert.equal(
    retryDelayMs(p, 1, f, () => 0),
    0,
  );
  assert.equal(
    retryDelayMs(p, 1, { ...f, retryAfterMs: 2000 }, () => 0),
    2000,
  );
  assert.equal(retryDelayMs(p, 1, { ...f, retryAfterMs: 60_000 }), 5000);
});

test('which statuses are retried', () => {
  assert.deepEqual([400, 401, 404, 408, 409, 422, 429, 500, 502, 503].filter(isRetryableStatus), [408, 409, 429, 500, 502, 503]);
});

test('the Retrier: retries what may recover up to the policy, stops at a final failure, and redacts what it logs and throws', async () => {
  const log: string[] = [];
  const r = new Retrier(
    { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1 },
    {
      random: () => 0,
      log: (l) => log.push(l),
      classify: (err) => ({ reason: (err as Error).message, retryable: !(err as Error).message.includes('final') }),
      redact: (t) => t.replace('sk-secret', '[redacted]'),
    },
  );
  const outcomes = [{ ok: false as const, reason: 'HTTP 503 sk-secret', retryable: true }, { ok: true as const }];
  assert.deepEqual(await r.run('m', async () => outcomes.shift()!), { result: { ok: true }, attempts: 2 });
  assert.deepEqual(log, ['llm: m HTTP 503 [redacted]; attempt 2/3 in 0 ms']);

  let tries = 0;
  await assert.rejects(
    r.op('batch upload', async () => {
      tries++;
      throw new Error('reset by sk-secret');
    }),
    { message: 'batch upload: reset by [redacted] after 3 attempt(s)' },
  );
  assert.equal(tries, 3);
  tries = 0;
  await assert.rejects(
    r.op('batch create', async () => {
      tries++;
      throw new Error('final answer');
    }),
    { message: 'batch create: final answer after 1 attempt(s)' },
  );
  assert.equal(tries, 1);
  assert.equal(await r.op('batch retrieve', async () => 42), 42);
});
