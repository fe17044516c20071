import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { llmCallsRelation } from './call-log.ts';
import { serializeRecord } from './call-store.ts';
import { sha256Hex } from './request-key.ts';
import { tempDir } from '../testing/temp-dir.ts';

test('llm_calls reads the log with DuckDB alone, skipping a line torn mid-write; null before any call', async () => {
  const dir = tempDir("llm-log-it's-");
  assert.equal(llmCallsRelation(dir), null);
  mkdirSync(join(dir, 'calls'));
  assert.equal(llmCallsRelation(dir), null);
  const base = { model: 'gpt-5.4-mini', modelId: 'gpt-5.4-mini', stage: 'judge_steps', repeat: 0, attempts: 1, ts: '2026-11-29T10:00:00.000Z' };
  appendFileSync(
    join(dir, 'calls', 'seg.jsonl'),
    serializeRecord({ ...base, key: sha256Hex('a'), status: 'ok', promptHash: sha256Hex('p'), inputTokens: 120, outputTokens: 30, latencyMs: 812, text: 'secret answer text' }) +
      serializeRecord({ ...base, key: sha256Hex('b'), status: 'failed', promptHash: sha256Hex('q'), inputTokens: 0, outputTokens: 0, latencyMs: 40, attempts: 5, error: 'HTTP 429 after 5 attempts' }) +
      '{"key":"' + sha256Hex('c') + '","status":"o',
  );
  const rel = llmCallsRelation(dir);
  assert.ok(rel);
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  await con.run(`create view llm_calls as select * from ${rel}`);
  const rows = (await con.runAndReadAll(`select model, stage, status, tokens_in, tokens_out, latency_ms, attempts, error, prompt_hash = '${sha256Hex('p')}' as p, finished_at::varchar as t from llm_calls order by status desc`)).getRowObjects();
  assert.deepEqual(rows, [
    { model: 'gpt-5.4-mini', stage: 'judge_steps', status: 'ok', tokens_in: 120, tokens_out: 30, latency_ms: 812, attempts: 1, error: null, p: true, t: '2026-11-29 10:00:00' },
    { model: 'gpt-5.4-mini', stage: 'judge_steps', status: 'failed', tokens_in: 0, tokens_out: 0, latency_ms: 40, attempts: 5, error: 'HTTP 429 after 5 attempts', p: false, t: '2026-11-29 10:00:00' },
  ]);
  const cols = (await con.runAndReadAll('select column_name from (describe llm_calls)')).getRows().map((r) => r[0]);
  assert.ok(!cols.includes('text'), 'answers stay out of the accounting view');
  con.closeSync();
});
