// The batch provider on its own, through callApi, against the local server's Batch API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyError, makeSdk } from '../openai-transport.ts';
import { sampleSeed } from '../request-key.ts';
import { Retrier } from '../retry.ts';
import { startFakeOpenAIServer, type ChatBody } from '../testing/fake-openai-server.ts';
import { tempDir } from '../../testing/temp-dir.ts';
import type { ProviderPrompt, ProviderResponse, StoredCall } from '../types.ts';
import { BatchProvider, type BatchProviderOptions } from './batch.ts';

const call = (n: number, over: Partial<StoredCall> = {}): StoredCall => ({
  key: n.toString(16).padStart(64, '0'),
  model: 'builder',
  modelId: 'builder-model',
  stage: 'trees',
  promptHash: 'p'.repeat(64),
  repeat: 0,
  ...over,
});
const prompt = (n: number, over: Partial<ProviderPrompt> = {}): ProviderPrompt => ({
  model: 'builder',
  messages: [{ role: 'user', content: `tree ${n}` }],
  call: call(n, over.sample ? { sample: over.sample } : {}),
  ...over,
});
const retry = (maxAttempts = 3) =>
  new Retrier({ maxAttempts, waitForServerMs: 0, baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 10 }, { classify: classifyError });

test('calls become the lines of one batch, sent when flushed; every outcome is recorded with its batch id', async () => {
  const srv = await startFakeOpenAIServer({
    batchPollsBeforeComplete: 1,
    answer: (b: ChatBody) => `${b.model} seed=${String(b.seed ?? 'none')}: ${b.messages[0].content}`,
  });
  try {
    const records: [StoredCall, ProviderResponse][] = [];
    const provider = (o: Partial<BatchProviderOptions> = {}) =>
      new BatchProvider({
        cacheDir: tempDir('batch-provider-'),
        policy: { windowMs: 60_000, pollIntervalMs: 5 },
        baseURLOf: () => srv.url,
        sdkFor: (baseURL) => makeSdk({ baseURL, apiKey: 'sk-batch-provider' }),
        retry: retry(),
        record: async (c, r) => void records.push([c, r]),
        redact: (t) => t.split('sk-batch-provider').join('[redacted]'),
        ...o,
      });
    const p = provider();
    const answers = Promise.all([
      p.callApi(prompt(0), undefined),
      p.callApi(prompt(1, { sample: 'case-1', seed: sampleSeed('case-1', 0) }), undefined),
    ]);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(srv.counters.fileUploads, 0, 'the batch window is still open');
    await p.flush();
    const rs = await answers;
    assert.deepEqual(
      rs.map((r) => r.output),
      ['builder-model seed=none: tree 0', `builder-model seed=${sampleSeed('case-1', 0)}: tree 1`],
    );
    const batchId = rs[0].batchId;
    assert.match(batchId ?? '', /^batch_/);
    assert.ok(rs.every((r) => r.batchId === batchId && r.attempts === 1 && r.tokenUsage && r.finishReason === 'stop'));
    assert.deepEqual([srv.counters.chat, srv.counters.fileUploads, srv.counters.batchCreates, srv.counters.fileDownloads], [0, 1, 1, 1]);
    assert.deepEqual(
      records.map(([c, r]) => [c.key, c.sample, r.output, r.batchId, r.latencyMs]),
      [
        [call(0).key, undefined, rs[0].output, batchId, 0],
        [call(1).key, 'case-1', rs[1].output, batchId, 0],
      ],
    );

    await assert.rejects(p.callApi({ model: 'builder', messages: [] }, undefined), /names no call/);

    // A batch that cannot be submitted fails every call in it, each recorded.
    records.length = 0;
    const down = provider({ baseURLOf: () => 'http://127.0.0.1:9/v1', retry: retry(1), policy: { windowMs: 1 } });
    const failed = await down.callApi(prompt(2), undefined);
    assert.match(failed.error ?? '', /^batch submission failed: batch upload: connection .+ after 1 attempt\(s\)$/);
    assert.deepEqual([failed.output, failed.attempts, failed.batchId], [undefined, 1, undefined]);
    assert.deepEqual(
      records.map(([c, r]) => [c.key, r.error]),
      [[call(2).key, failed.error]],
    );
  } finally {
    await srv.close();
  }
});
