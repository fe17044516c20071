import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Availability, formatDuration, PROGRESS_EVERY_MS } from './availability.ts';
import {
  DEFAULT_RETRY,
  isRetryableStatus,
  isUnavailableStatus,
  parseRetryAfter,
  Retrier,
  retryDelayMs,
  SERVER_POLL_MS,
  type AttemptFailure,
} from './retry.ts';

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
  const f: AttemptFailure = { reason: 'HTTP 500', retryable: true, kind: 'http' };
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
  // A server that is not there is polled at least every SERVER_POLL_MS, whatever maxDelayMs says.
  const slow = { ...DEFAULT_RETRY, baseDelayMs: 1000, maxDelayMs: 60_000 };
  const down: AttemptFailure = { reason: 'connection refused', retryable: true, kind: 'unavailable' };
  assert.equal(
    retryDelayMs(slow, 20, down, () => 0.999),
    Math.floor(0.999 * SERVER_POLL_MS),
  );
  assert.equal(
    retryDelayMs(slow, 20, f, () => 0.999),
    Math.floor(0.999 * 60_000),
  );
  assert.equal(retryDelayMs(slow, 1, { ...down, retryAfterMs: 30_000 }), 30_000, 'Retry-After is honoured while waiting too');
});

test('which statuses are retried, and which say the server is not there yet', () => {
  const all = [400, 401, 404, 408, 409, 422, 429, 500, 501, 502, 503, 504];
  assert.deepEqual(all.filter(isRetryableStatus), [408, 409, 429, 500, 501, 502, 503, 504]);
  assert.deepEqual(all.filter(isUnavailableStatus), [502, 503, 504]);
  assert.equal(DEFAULT_RETRY.waitForServerMs, 300_000, 'the documented default: 5 minutes');
});

test('the Retrier: retries what may recover up to the policy, stops at a final failure, and redacts what it logs and throws', async () => {
  const log: string[] = [];
  const r = new Retrier(
    { maxAttempts: 3, waitForServerMs: 0, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1 },
    {
      random: () => 0,
      log: (l) => log.push(l),
      classify: (err) => ({ reason: (err as Error).message, retryable: !(err as Error).message.includes('final'), kind: 'http' }),
      redact: (t) => t.replace('sk-secret', '[redacted]'),
    },
  );
  const outcomes = [{ ok: false as const, reason: 'HTTP 500 sk-secret', retryable: true, kind: 'http' as const }, { ok: true as const }];
  assert.deepEqual(await r.run('m', async () => outcomes.shift()!), { result: { ok: true }, attempts: 2 });
  assert.deepEqual(log, ['llm: m HTTP 500 [redacted]; attempt 2/3 in 0 ms']);

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

test('a server that is not there is waited for, for the budget and not the attempt count; other faults keep the count', async () => {
  const progress: string[] = [];
  const policy = { ...DEFAULT_RETRY, maxAttempts: 2, waitForServerMs: 400, baseDelayMs: 5, maxDelayMs: 20 };
  const r = new Retrier(policy, {
    random: () => 1,
    classify: () => ({ reason: 'x', retryable: true, kind: 'http' }),
    progress: (l) => progress.push(l),
  });
  const down = { ok: false as const, reason: 'HTTP 503: Service Unavailable', retryable: true, kind: 'unavailable' as const };
  // Up after 150 ms: many more attempts than maxAttempts, all within the budget.
  const t0 = Date.now();
  const upAt = t0 + 150;
  const warm = await r.run('m', async () => (Date.now() < upAt ? down : { ok: true as const }));
  assert.equal(warm.result.ok, true);
  assert.ok(warm.attempts > policy.maxAttempts, `${warm.attempts} attempts`);
  assert.match(
    progress[0],
    /^llm: m unavailable since \d\d:\d\d:\d\d UTC \(0 ms\): HTTP 503: Service Unavailable; waiting up to 400 ms for it$/,
  );
  assert.match(progress.at(-1)!, /^llm: m is answering again after \d+ ms unavailable$/);
  assert.equal(progress.length, 2, 'one line while waiting (repeated at most every 10 s), one when it answers');

  // Never up: the call fails once the budget is spent, as unavailable, saying since when.
  progress.length = 0;
  const t1 = Date.now();
  const gone = await r.run('m', async () => down);
  const took = Date.now() - t1;
  assert.ok(took >= 400 && took < 1500, `gave up after ${took} ms`);
  assert.equal(gone.result.ok, false);
  assert.ok(!gone.result.ok && gone.result.kind === 'unavailable');
  assert.match(
    !gone.result.ok ? gone.result.reason : '',
    /^m unavailable since \d\d:\d\d:\d\d UTC \(for \d+ ms; its wait budget is 400 ms\): HTTP 503: Service Unavailable$/,
  );
  assert.match(progress.at(-1)!, /^llm: m still unavailable after 400 ms .*its calls fail as unavailable until it answers again$/);

  // A 500 is counted: maxAttempts, then a failure, however long the budget.
  const five = { ok: false as const, reason: 'HTTP 500', retryable: true, kind: 'http' as const };
  const counted = await r.run('m', async () => five);
  assert.deepEqual([counted.result.ok, counted.attempts], [false, 2]);
});

test("a model's calls share one wait: once its budget is spent, the next call fails at its first attempt, until the server answers", async () => {
  const progress: string[] = [];
  const policy = { ...DEFAULT_RETRY, waitForServerMs: 200, baseDelayMs: 5, maxDelayMs: 10 };
  const r = new Retrier(policy, {
    random: () => 1,
    classify: () => ({ reason: 'x', retryable: true, kind: 'http' }),
    progress: (l) => progress.push(l),
  });
  const avail = r.availability('m');
  let up = false;
  const attempt = async () =>
    up ? { ok: true as const } : { ok: false as const, reason: 'connection refused', retryable: true, kind: 'unavailable' as const };
  const first = await Promise.all([1, 2, 3].map(() => r.run('m', attempt, { availability: avail })));
  assert.ok(first.every((x) => !x.result.ok));
  assert.equal(progress.filter((l) => l.includes('waiting up to')).length, 1, 'one progress line for the model, not one per call');
  const t = Date.now();
  const late = await r.run('m', attempt, { availability: avail });
  assert.deepEqual([late.result.ok, late.attempts], [false, 1]);
  assert.ok(Date.now() - t < 100, 'no second wait');
  up = true;
  const back = await r.run('m', attempt, { availability: avail });
  assert.deepEqual([back.result.ok, back.attempts], [true, 1]);
  assert.equal(avail.downSince, null);
});

test('the progress line of a model still unavailable is repeated at most every 10 s', () => {
  let now = Date.parse('2026-11-29T12:00:00Z');
  const lines: string[] = [];
  const a = new Availability(
    'judge-qwen',
    300_000,
    (l) => lines.push(l),
    () => now,
  );
  for (let s = 0; s <= 35; s++) {
    now = Date.parse('2026-11-29T12:00:00Z') + s * 1000;
    assert.ok(a.down('HTTP 503') > 0);
  }
  assert.equal(PROGRESS_EVERY_MS, 10_000);
  assert.deepEqual(lines, [
    'llm: judge-qwen unavailable since 12:00:00 UTC (0 ms): HTTP 503; waiting up to 5 min for it',
    'llm: judge-qwen unavailable since 12:00:00 UTC (10 s): HTTP 503; waiting up to 5 min for it',
    'llm: judge-qwen unavailable since 12:00:00 UTC (20 s): HTTP 503; waiting up to 5 min for it',
    'llm: judge-qwen unavailable since 12:00:00 UTC (30 s): HTTP 503; waiting up to 5 min for it',
  ]);
  now += 300_000;
  assert.ok(a.down('connection refused') <= 0);
  a.up();
  assert.equal(lines.at(-1), 'llm: judge-qwen is answering again after 5 min 35 s unavailable');
  assert.deepEqual([formatDuration(800), formatDuration(61_000), formatDuration(120_000)], ['800 ms', '1 min 1 s', '2 min']);
});
