import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CallStore, serializeRecord, type CallRecord } from './call-store.ts';
import { sha256Hex } from './request-key.ts';
import { tempDir } from '../testing/temp-dir.ts';

const rec = (i: number, over: Partial<CallRecord> = {}): CallRecord => ({
  key: sha256Hex(`k${i}`),
  status: 'ok',
  model: 'm',
  modelId: 'm-id',
  stage: 's',
  promptHash: sha256Hex(`p${i}`),
  repeat: 0,
  inputTokens: 10 + i,
  outputTokens: 20 + i,
  latencyMs: 5,
  attempts: 1,
  ts: '2026-01-01T00:00:00.000Z',
  text: `answer ${i} with "quotes", newlines\n and ünïcode ✓`,
  ...over,
});

test('answers survive reopening; failed records are logged but never served', async () => {
  const dir = tempDir('store-');
  const s = CallStore.open(dir);
  await Promise.all(
    [rec(1), rec(2), rec(3, { status: 'failed', error: 'HTTP 500 after 5 attempts', text: undefined })].map((r) => s.append(r)),
  );
  assert.equal(s.get(rec(1).key)?.text, rec(1).text);
  assert.equal(s.get(rec(3).key), undefined);
  await s.close();
  const again = CallStore.open(dir);
  assert.equal(again.size, 2);
  assert.deepEqual(again.get(rec(2).key), { text: rec(2).text, inputTokens: 12, outputTokens: 22, latencyMs: 5, attempt: 0 });
  assert.equal(again.has(rec(3).key), false);
  await again.close();
  const lines = readFileSync(join(dir, 'calls', readdirSync(join(dir, 'calls'))[0]), 'utf8')
    .trimEnd()
    .split('\n');
  assert.equal(lines.length, 3);
  const { text: _dropped, ...noText } = rec(3);
  assert.deepEqual(JSON.parse(lines[2]), { ...noText, status: 'failed', error: 'HTTP 500 after 5 attempts' });
  assert.ok(lines[2].startsWith(`{"key":"${rec(3).key}","status":"failed",`));
});

test("a torn last record is skipped, not cut off (its writer may be another process, still writing); new appends go to a segment of this store's own", async () => {
  const dir = tempDir('store-');
  const s = CallStore.open(dir);
  for (let i = 0; i < 5; i++) await s.append(rec(i));
  await s.close();
  const seg = join(dir, 'calls', readdirSync(join(dir, 'calls'))[0]);
  const whole = statSync(seg).size;
  const torn = serializeRecord(rec(99));
  appendFileSync(seg, torn.slice(0, 150)); // killed mid-write: no newline
  const reopened = CallStore.open(dir);
  assert.equal(statSync(seg).size, whole + 150, 'the segment is left as its writer left it');
  assert.equal(reopened.size, 5);
  assert.equal(reopened.has(rec(99).key), false);
  await reopened.append(rec(7));
  assert.equal(statSync(seg).size, whole + 150, 'nothing is appended to another segment');
  assert.equal(readdirSync(join(dir, 'calls')).length, 2);
  assert.equal(reopened.get(rec(4).key)?.text, rec(4).text);
  assert.equal(reopened.get(rec(7).key)?.text, rec(7).text);
  await reopened.close();
  const last = CallStore.open(dir);
  assert.equal(last.size, 6);
  await last.close();
});

test('a later answer for the same key wins, and lines longer than the scan chunk are indexed', async () => {
  const dir = tempDir('store-');
  const s = CallStore.open(dir);
  await s.append(rec(1, { text: 'old' }));
  const big = 'x'.repeat(9 * 1024 * 1024);
  await s.append(rec(2, { text: big }));
  await s.append(rec(1, { text: 'new' }));
  await s.close();
  const r = CallStore.open(dir);
  assert.equal(r.get(rec(1).key)?.text, 'new');
  assert.equal(r.get(rec(2).key)?.text.length, big.length);
  await r.close();
});

test('keys must be 64 hex characters', () => {
  assert.throws(() => serializeRecord(rec(1, { key: 'short' })), /64 lowercase hex/);
});

const rejectionOf = (i: number, attempt: number, reason: string) => {
  const { key, model, modelId, stage, promptHash, repeat } = rec(i);
  return { key, model, modelId, stage, promptHash, repeat, attempt, reason };
};

test('a rejected answer stays in the log, is never served again, and the next answer is a fresh attempt', async () => {
  const dir = tempDir('store-');
  const s = CallStore.open(dir);
  await s.append(rec(1, { text: "I'm sorry ```{not json" }));
  await s.append(rec(2));
  assert.equal(s.attemptOf(rec(1).key), 0);
  await s.reject(rejectionOf(1, 0, 'a refusal, not a vignette'));
  // A second caller that shared the same answer rejects it again: nothing changes.
  await s.reject(rejectionOf(1, 0, 'a refusal, not a vignette'));
  assert.equal(s.get(rec(1).key), undefined, 'not served in this run');
  assert.equal(s.attemptOf(rec(1).key), 1);
  await s.close();

  const reopened = CallStore.open(dir);
  assert.equal(reopened.get(rec(1).key), undefined, 'nor after reopening');
  assert.equal(reopened.attemptOf(rec(1).key), 1);
  assert.equal(reopened.get(rec(2).key)?.text, rec(2).text, 'other answers are untouched');
  await reopened.append(rec(1, { text: 'A patient presented.', attempt: 1 }));
  assert.deepEqual(reopened.get(rec(1).key), { text: 'A patient presented.', inputTokens: 11, outputTokens: 21, latencyMs: 5, attempt: 1 });
  await reopened.close();

  const third = CallStore.open(dir);
  assert.equal(third.get(rec(1).key)?.text, 'A patient presented.', 'the fresh answer is served once accepted');
  assert.equal(third.attemptOf(rec(1).key), 1);
  await third.close();
  const segs = readdirSync(join(dir, 'calls')).sort();
  assert.equal(segs.length, 2, 'each writer opens its own segment');
  const lines = segs
    .flatMap((f) =>
      readFileSync(join(dir, 'calls', f), 'utf8')
        .trimEnd()
        .split('\n'),
    )
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => [l.status, l.attempt ?? 0, l.reason ?? null]),
    [
      ['ok', 0, null],
      ['ok', 0, null],
      ['rejected', 0, 'a refusal, not a vignette'],
      ['ok', 1, null],
    ],
  );
  assert.equal(lines[0].text, "I'm sorry ```{not json", 'the rejected answer is kept for the record');
});

test('a corrupt cache line is a miss with a warning naming file, line and byte offset; the call can be recorded again', async () => {
  const dir = tempDir('store-');
  const s = CallStore.open(dir);
  for (let i = 0; i < 3; i++) await s.append(rec(i));
  await s.close();
  const seg = join(dir, 'calls', readdirSync(join(dir, 'calls'))[0]);
  const text = readFileSync(seg, 'utf8');
  const second = text.split('\n')[1];
  const at = text.indexOf(second);
  // A valid prefix (key and status at their fixed offsets), then broken JSON, then a newline.
  const broken = second.slice(0, 200) + '"oops' + second.slice(200);
  writeFileSync(seg, text.slice(0, at) + broken + text.slice(at + second.length));
  const warnings: string[] = [];
  const r = CallStore.open(dir, { warn: (l) => warnings.push(l) });
  assert.equal(r.has(rec(1).key), true, 'the prefix looks fine, so it is indexed until read');
  assert.equal(r.get(rec(1).key), undefined);
  assert.equal(r.has(rec(1).key), false);
  assert.equal(warnings.length, 1);
  assert.ok(warnings[0].includes(`${seg}, line 2 (byte offset ${Buffer.byteLength(text.slice(0, at))})`), warnings[0]);
  assert.match(warnings[0], /JSON/);
  assert.match(warnings[0], /its call is made again/);
  assert.equal(r.get(rec(0).key)?.text, rec(0).text);
  assert.equal(r.get(rec(2).key)?.text, rec(2).text);
  await r.append(rec(1, { text: 'asked again' }));
  assert.equal(r.get(rec(1).key)?.text, 'asked again');
  await r.close();
  const last = CallStore.open(dir, { warn: (l) => warnings.push(l) });
  assert.equal(last.get(rec(1).key)?.text, 'asked again', 'the new answer, later in the log, wins');
  assert.equal(warnings.length, 1);
  await last.close();
});
