import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { llmCallsRelation } from './call-log.ts';
import { CallStore, serializeRecord } from './call-store.ts';
import { StoreLog } from './store-log.ts';
import { sha256Hex } from './request-key.ts';
import { tempDir } from '../testing/temp-dir.ts';

test('llm_calls reads the log with DuckDB alone, skipping a line torn mid-write; null before any call', async () => {
  const dir = tempDir("llm-log-it's-");
  assert.equal(llmCallsRelation(dir), null);
  mkdirSync(join(dir, 'calls'));
  assert.equal(llmCallsRelation(dir), null);
  const base = {
    model: 'gpt-5.4-mini',
    modelId: 'gpt-5.4-mini',
    stage: 'judge_steps',
    repeat: 0,
    attempts: 1,
    ts: '2026-11-29T10:00:00.000Z',
  };
  appendFileSync(
    join(dir, 'calls', 'seg.jsonl'),
    serializeRecord({
      ...base,
      key: sha256Hex('a'),
      status: 'ok',
      promptHash: sha256Hex('p'),
      inputTokens: 120,
      outputTokens: 30,
      latencyMs: 812,
      text: 'secret answer text',
    }) +
      serializeRecord({
        ...base,
        key: sha256Hex('b'),
        status: 'failed',
        promptHash: sha256Hex('q'),
        inputTokens: 0,
        outputTokens: 0,
        latencyMs: 40,
        attempts: 5,
        error: 'HTTP 429 after 5 attempts',
      }) +
      '{"key":"' +
      sha256Hex('c') +
      '","status":"o',
  );
  const rel = llmCallsRelation(dir);
  assert.ok(rel);
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  await con.run(`create view llm_calls as select * from ${rel}`);
  const rows = (
    await con.runAndReadAll(
      `select model, stage, status, tokens_in, tokens_out, latency_ms, attempts, error, prompt_hash = '${sha256Hex('p')}' as p, finished_at::varchar as t from llm_calls order by status desc`,
    )
  ).getRowObjects();
  assert.deepEqual(rows, [
    {
      model: 'gpt-5.4-mini',
      stage: 'judge_steps',
      status: 'ok',
      tokens_in: 120,
      tokens_out: 30,
      latency_ms: 812,
      attempts: 1,
      error: null,
      p: true,
      t: '2026-11-29 10:00:00',
    },
    {
      model: 'gpt-5.4-mini',
      stage: 'judge_steps',
      status: 'failed',
      tokens_in: 0,
      tokens_out: 0,
      latency_ms: 40,
      attempts: 5,
      error: 'HTTP 429 after 5 attempts',
      p: false,
      t: '2026-11-29 10:00:00',
    },
  ]);
  con.closeSync();
});

test('llm_calls keeps each answer, its finish reason, sample, role and attempt, and marks the answers a reader rejected', async () => {
  const dir = tempDir('llm-log-');
  mkdirSync(join(dir, 'calls'));
  const base = {
    model: 'qwen3-8b',
    modelId: 'Qwen/Qwen3-8B',
    stage: 'outcome_scores',
    repeat: 2,
    attempts: 1,
    promptHash: sha256Hex('p'),
    ts: '2026-11-29T10:00:00.000Z',
  };
  const k = sha256Hex('outcome call');
  const other = sha256Hex('patient call');
  const answered = { status: 'ok' as const, inputTokens: 50, outputTokens: 9, latencyMs: 10 };
  const garbled = "I'm sorry ```{not json";
  appendFileSync(
    join(dir, 'calls', 'a.jsonl'),
    serializeRecord({ ...base, ...answered, key: k, text: garbled, finishReason: 'stop', role: 'judge' }) +
      serializeRecord({ ...base, ...answered, key: other, text: 'Yes.', finishReason: 'length', role: 'patient', sample: 'cdp-7' }) +
      serializeRecord({
        ...base,
        key: k,
        status: 'rejected',
        inputTokens: 0,
        outputTokens: 0,
        latencyMs: 0,
        attempts: 0,
        reason: 'no score 1-5 found',
      }),
  );
  // The fresh attempt, in a later segment (a later run): answered and accepted.
  const fresh = serializeRecord({ ...base, ...answered, key: k, text: '4', finishReason: 'stop', role: 'judge', attempt: 1 });
  appendFileSync(join(dir, 'calls', 'b.jsonl'), fresh);
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  await con.run(`create view llm_calls as select * from ${llmCallsRelation(dir)!}`);
  const cols = 'key, text, finish_reason, rejected, rejected_reason, sample, role, attempt, "repeat"';
  const rows = (await con.runAndReadAll(`select ${cols} from llm_calls order by key = '${k}' desc, attempt`)).getRowObjects();
  const judge = { sample: null, role: 'judge', repeat: 2 };
  assert.deepEqual(rows, [
    { key: k, text: garbled, finish_reason: 'stop', rejected: true, rejected_reason: 'no score 1-5 found', attempt: 0, ...judge },
    { key: k, text: '4', finish_reason: 'stop', rejected: false, rejected_reason: null, attempt: 1, ...judge },
    {
      key: other,
      text: 'Yes.',
      finish_reason: 'length',
      rejected: false,
      rejected_reason: null,
      sample: 'cdp-7',
      role: 'patient',
      attempt: 0,
      repeat: 2,
    },
  ]);
  const n = (await con.runAndReadAll("select count(*)::int from llm_calls where status = 'rejected'")).getRows()[0]![0];
  assert.equal(n, 0, 'a rejection is a mark on its answer, not a call of its own');
  con.closeSync();
});

test("a store's view of the shared cache: its own lines, the copies of other stores' answers it used, its log from before; failure facts as columns", async () => {
  const cache = tempDir('llm-shared-view-');
  const storeA = join(tempDir('llm-store-a-'), 'llm');
  const storeB = join(tempDir('llm-store-b-'), 'llm');
  const a = StoreLog.open(storeA);
  const b = StoreLog.open(storeB);
  assert.ok(a.id && b.id && a.id !== b.id);
  const line = (k: string, store: string, over: Record<string, unknown> = {}) => ({
    key: sha256Hex(k),
    status: 'ok' as const,
    model: 'm',
    modelId: 'm',
    stage: 's',
    promptHash: sha256Hex(`p${k}`),
    repeat: 0,
    inputTokens: 1,
    outputTokens: 1,
    latencyMs: 1,
    attempts: 1,
    ts: '2026-11-29T10:00:00.000Z',
    role: 'judge',
    store,
    text: `answer ${k}`,
    ...over,
  });
  const shared = CallStore.open(cache);
  await shared.append(line('a1', a.id));
  await shared.append(line('a2', a.id));
  await shared.append(
    line('a3', a.id, {
      status: 'failed',
      text: undefined,
      error: 'context overflow: …',
      kind: 'context-overflow',
      httpStatus: 400,
      window: 8192,
      contextWindow: 32768,
    }),
  );
  await shared.append(line('b1', b.id, { seed: 123456 }));
  // Store B is served a1, which store A made: copied once, however often it is served.
  const hit = shared.get(sha256Hex('a1'))!;
  await Promise.all([b.served(shared, sha256Hex('a1'), hit), b.served(shared, sha256Hex('a1'), hit)]);
  await a.served(shared, sha256Hex('a2'), shared.get(sha256Hex('a2'))!); // its own: nothing copied
  await Promise.all([shared.close(), a.close(), b.close()]);
  // Store B's log from before the cache was shared.
  mkdirSync(join(storeB, 'calls'), { recursive: true });
  appendFileSync(join(storeB, 'calls', 'old.jsonl'), serializeRecord(line('old', '')));

  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  const keys = async (storeLog?: string) =>
    (
      await con.runAndReadAll(
        `select key, status, failure_kind, http_status, server_window, seed from ${llmCallsRelation(cache, storeLog)!} order by key`,
      )
    )
      .getRowObjectsJson()
      .map((r) => ({ ...r, key: ['a1', 'a2', 'a3', 'b1', 'old'].find((k) => sha256Hex(k) === r.key) }) as Record<string, unknown>);
  assert.deepEqual((await keys(storeA)).map((r) => r.key).sort(), ['a1', 'a2', 'a3']);
  assert.deepEqual((await keys(storeB)).map((r) => r.key).sort(), ['a1', 'b1', 'old']);
  assert.deepEqual((await keys()).map((r) => r.key).sort(), ['a1', 'a2', 'a3', 'b1'], 'without a store: every call of the cache');
  const a3 = (await keys(storeA)).find((r) => r.key === 'a3');
  assert.deepEqual(a3, {
    key: 'a3',
    status: 'failed',
    failure_kind: 'context-overflow',
    http_status: 400,
    server_window: 8192,
    seed: null,
  });
  assert.equal((await keys(storeB)).find((r) => r.key === 'b1')?.seed, '123456');
  con.closeSync();
});
