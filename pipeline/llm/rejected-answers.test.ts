// Rejected answers through the real client and a local server: kept in the log, never served
// again, and asked afresh (a new seed) on the next run, so a server that recovers clears failures.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { createLlmClient } from './client.ts';
import { llmCallsRelation } from './call-log.ts';
import { askStructured, jsonSchemaParser } from './ask-structured.ts';
import { promptHash, sampleSeed } from './request-key.ts';
import { startFakeOpenAIServer, type ChatBody } from './testing/fake-openai-server.ts';
import { tempDir } from '../testing/temp-dir.ts';
import type { ChatRequest, ModelSpec } from './types.ts';

const GARBLE = "I'm sorry, here is something unrelated: ```{not json";
let garbling = true;
const server = await startFakeOpenAIServer({
  answer: (b: ChatBody) => (garbling ? GARBLE : b.messages.length > 1 ? '{"score": 3}' : '{"score": 4}'),
});
after(() => server.close());

const roster: ModelSpec[] = [
  {
    name: 'judge',
    roles: ['judge'],
    provider: 'openai-compatible',
    baseURLs: [server.url],
    apiKeyOptional: true,
    modelId: 'judge-id',
    contextWindow: 8000,
  },
  { name: 'sim', roles: ['judge'], provider: 'offline', simulated: true },
];
const parse = jsonSchemaParser(z.object({ score: z.int().min(1).max(5) }));
const req: ChatRequest = {
  model: 'judge',
  messages: [{ role: 'user', content: 'Score the answer from 1 to 5 as {"score": n}.' }],
  role: 'judge',
  stage: 'outcome_scores',
};

async function calls(cacheDir: string): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  await con.run(`create view llm_calls as select * from ${llmCallsRelation(cacheDir)!}`);
  const q = 'select text, rejected, attempt, role, stage from llm_calls order by finished_at, attempt, length(text)';
  const rows = (await con.runAndReadAll(q)).getRowObjects();
  con.closeSync();
  return rows;
}

test('a failed exchange leaves nothing to serve: the next run asks afresh, the recovered answer is then replayed', async () => {
  const dir = tempDir('rejected-');
  garbling = true;
  server.resetCounters();
  const run = async () => {
    const c = createLlmClient({ cacheDir: dir, roster, offlineHandlers: { sim: () => GARBLE } });
    try {
      return { r: await askStructured(c.forStage('outcome_scores'), req, parse, { maxAttempts: 2 }), counters: c.counters() };
    } finally {
      await c.close();
    }
  };
  const first = await run();
  assert.equal(first.r.ok, false);
  assert.equal(server.counters.chat, 2, 'asked, then re-asked with the problem stated');

  // Without recovery a retry asks again (nothing is served from the cache) and fails again.
  const again = await run();
  assert.deepEqual([again.r.ok, again.counters.cached, server.counters.chat], [false, 0, 4]);

  garbling = false;
  const recovered = await run();
  assert.deepEqual([recovered.r.ok && recovered.r.value, recovered.counters.cached, server.counters.chat], [{ score: 4 }, 0, 5]);
  const fresh = server.requests.at(-1)!;
  // No sample: the request's own prompt is its unit (temperature unset counts as sampled).
  const unit = `prompt:${promptHash(req.messages)}`;
  assert.equal(fresh.seed, sampleSeed(`${unit}\u0000fresh:2`, 0), 'the third attempt of the first request, with its own seed');
  assert.equal(server.requests[0]!.seed, sampleSeed(unit, 0), 'a first attempt is seeded by its prompt');

  const replay = await run();
  assert.deepEqual([replay.r.ok && replay.r.value, replay.counters.cached, server.counters.chat], [{ score: 4 }, 1, 5]);

  const log = await calls(dir);
  assert.deepEqual(
    log.map((r) => [r.text, r.rejected, r.attempt]),
    [
      [GARBLE, true, 0],
      [GARBLE, true, 0],
      [GARBLE, true, 1],
      [GARBLE, true, 1],
      ['{"score": 4}', false, 2],
    ],
  );
  assert.ok(log.every((r) => r.role === 'judge' && r.stage === 'outcome_scores'));
});

test('an exchange that ends accepted keeps its refused answer cached, so a rerun replays it with no request', async () => {
  const dir = tempDir('rejected-');
  server.resetCounters();
  let n = 0;
  const flaky = await startFakeOpenAIServer({ answer: () => (++n === 1 ? GARBLE : '{"score": 5}') });
  try {
    const r2: ModelSpec[] = [{ ...roster[0]!, baseURLs: [flaky.url] }];
    const run = async () => {
      const c = createLlmClient({ cacheDir: dir, roster: r2 });
      try {
        return await askStructured(c.forStage('s'), req, parse);
      } finally {
        await c.close();
      }
    };
    const a = await run();
    const b = await run();
    assert.deepEqual(
      [a.ok && a.value, a.ok && a.attempts, b.ok && b.value, b.ok && b.cached, flaky.counters.chat],
      [{ score: 5 }, 2, { score: 5 }, true, 2],
    );
  } finally {
    await flaky.close();
  }
});

test('reject: a fresh attempt of a sampled call gets a new seed; simulated and failed results are left alone', async () => {
  const dir = tempDir('rejected-');
  garbling = true;
  server.resetCounters();
  const c = createLlmClient({ cacheDir: dir, roster, offlineHandlers: { sim: () => 'simulated' } });
  try {
    const sampled = { ...req, sample: 'cdp-3' };
    const a = await c.chat(sampled);
    assert.ok(a.ok && a.call && a.call.attempt === 0);
    const hit = await c.chat(sampled);
    assert.equal(hit.ok && hit.cached, true, 'served until rejected');
    await c.reject(hit, 'not JSON');
    garbling = false;
    const b = await c.chat(sampled);
    assert.deepEqual([b.ok && b.text, b.ok && b.cached, b.ok && b.call?.attempt], ['{"score": 4}', false, 1]);
    assert.deepEqual(
      server.requests.map((r) => r.seed),
      [sampleSeed('cdp-3', 0), sampleSeed('cdp-3\u0000fresh:1', 0)],
    );
    const sim = await c.chat({ ...req, model: 'sim' });
    await c.reject(sim, 'ignored');
    await c.reject({ ok: false, error: 'HTTP 500', attempts: 5, kind: 'http', retryable: true }, 'ignored');
    const after = await c.chat(sampled);
    assert.deepEqual([after.ok && after.text, after.ok && after.cached], ['{"score": 4}', true], 'the accepted fresh answer is served');
  } finally {
    await c.close();
  }
});

test('a corrupt cache line is warned about with its file and line, and its call is made again', async () => {
  const dir = tempDir('rejected-');
  garbling = false;
  server.resetCounters();
  const first = createLlmClient({ cacheDir: dir, roster });
  await first.chat(req);
  await first.chat({ ...req, messages: [{ role: 'user', content: 'second prompt' }] });
  await first.close();
  const seg = join(dir, 'calls', readdirSync(join(dir, 'calls'))[0]!);
  const [line1, line2] = readFileSync(seg, 'utf8').split('\n');
  // A valid prefix, then a broken value: the kind of damage that gave "Unexpected string in JSON".
  writeFileSync(seg, `${line1!.slice(0, 150)}"x"${line1!.slice(150)}\n${line2}\n`);
  const warnings: string[] = [];
  const second = createLlmClient({ cacheDir: dir, roster, log: (l) => warnings.push(l) });
  try {
    const r = await second.chat(req);
    assert.deepEqual([r.ok && r.text, r.ok && r.cached, server.counters.chat], ['{"score": 4}', false, 3]);
    const other = await second.chat({ ...req, messages: [{ role: 'user', content: 'second prompt' }] });
    assert.equal(other.ok && other.cached, true, 'the intact line is still served');
    assert.equal(warnings.length, 1);
    assert.ok(warnings[0]!.startsWith(`call store: skipping an unreadable cache line in ${seg}, line 1 (byte offset 0): `), warnings[0]);
  } finally {
    await second.close();
  }
});
