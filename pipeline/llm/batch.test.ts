import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createLlmClient } from './client.ts';
import { startFakeOpenAIServer } from './testing/fake-openai-server.ts';
import type { ModelSpec } from './types.ts';
import { tempDir } from '../testing/temp-dir.ts';

const spec = (url: string, batch: boolean): ModelSpec => ({
  name: 'builder',
  roles: ['builder'],
  provider: 'openai-compatible',
  baseURLs: [url],
  apiKeyEnv: 'BATCH_KEY',
  modelId: 'builder-model',
  batch,
});
const ask = (i: number) => ({
  model: 'builder',
  role: 'builder' as const,
  stage: 'trees',
  messages: [{ role: 'user' as const, content: `tree ${i}` }],
});

test('batch mode: JSONL upload, create, poll, download; answers enter the same cache as live calls', async () => {
  const srv = await startFakeOpenAIServer({ batchPollsBeforeComplete: 2 });
  try {
    const dir = tempDir('llm-batch-');
    const c = createLlmClient({
      cacheDir: dir,
      roster: [spec(srv.url, true)],
      env: { BATCH_KEY: 'sk-batch-secret' },
      batch: { windowMs: 10, pollIntervalMs: 5 },
    });
    const rs = await Promise.all([0, 1, 2].map((i) => c.chat(ask(i))));
    await c.close();
    assert.deepEqual(
      rs.map((r) => r.ok && r.text),
      [0, 1, 2].map((i) => `echo(builder-model): tree ${i}`),
    );
    assert.equal(srv.counters.chat, 0, 'no single requests in batch mode');
    assert.equal(srv.counters.fileUploads, 1);
    assert.equal(srv.counters.batchCreates, 1);
    assert.equal(srv.counters.batchRetrieves, 3, 'two in_progress polls, then completed');
    assert.equal(srv.counters.fileDownloads, 1);
    const manifests = readdirSync(join(dir, 'batches')).filter((f) => f.endsWith('.json'));
    assert.equal(manifests.length, 1);
    assert.equal(JSON.parse(readFileSync(join(dir, 'batches', manifests[0]), 'utf8')).status, 'done');

    // The same calls made live from the cache: no request of any kind.
    srv.resetCounters();
    const live = createLlmClient({ cacheDir: dir, roster: [spec(srv.url, false)], env: { BATCH_KEY: 'sk-batch-secret' } });
    const again = await Promise.all([0, 1, 2].map((i) => live.chat(ask(i))));
    await live.close();
    assert.ok(again.every((r) => r.ok && r.cached));
    assert.equal(srv.counters.chat + srv.counters.batchCreates + srv.counters.fileUploads, 0);
  } finally {
    await srv.close();
  }
});

test('a batch submitted by a killed run is resumed by id, not submitted again', async () => {
  const srv = await startFakeOpenAIServer({ batchPollsBeforeComplete: 1_000_000 });
  try {
    const dir = tempDir('llm-batch-');
    // Run 1 submits, polls once, and leaves while the batch is still in progress.
    const c1 = createLlmClient({
      cacheDir: dir,
      roster: [spec(srv.url, true)],
      env: { BATCH_KEY: 'k' },
      batch: { windowMs: 5, pollIntervalMs: 60_000 },
    });
    const left = Promise.all([c1.chat(ask(0)), c1.chat(ask(1))]);
    for (let i = 0; i < 200 && srv.counters.batchRetrieves === 0; i++) await new Promise((r) => setTimeout(r, 5));
    await c1.close({ detachBatches: true });
    assert.match(
      (await left).map((r) => (r.ok ? 'ok' : r.error)).join('|'),
      /^batch \S+ still in_progress; rerun to collect its results\|batch \S+ still in_progress/,
    );
    assert.equal(srv.counters.batchCreates, 1);
    const manifest = readdirSync(join(dir, 'batches')).find((f) => f.endsWith('.json'))!;
    assert.equal(JSON.parse(readFileSync(join(dir, 'batches', manifest), 'utf8')).status, 'submitted');

    // Run 2 asks for the same calls: it polls the pending batch and creates none.
    srv.resetCounters();
    const c2 = createLlmClient({
      cacheDir: dir,
      roster: [spec(srv.url, true)],
      env: { BATCH_KEY: 'k' },
      batch: { windowMs: 5, pollIntervalMs: 5 },
    });
    const done = Promise.all([0, 1].map((i) => c2.chat(ask(i))));
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(srv.counters.batchCreates, 0);
    assert.ok(srv.counters.batchRetrieves >= 1);
    // The provider finishes the batch; run 2 collects it.
    srv.setBatchPollsBeforeComplete(0);
    const rs = await done;
    await c2.close();
    assert.deepEqual(
      rs.map((r) => r.ok && r.text),
      ['echo(builder-model): tree 0', 'echo(builder-model): tree 1'],
    );
    assert.equal(srv.counters.batchCreates, 0);
    assert.equal(srv.counters.fileUploads, 0);
    assert.equal(JSON.parse(readFileSync(join(dir, 'batches', manifest), 'utf8')).status, 'done');
  } finally {
    await srv.close();
  }
});
