import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cosine, judgeByEmbeddings } from './embedding-judge.ts';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import { startFakeOpenAIServer, fakeEmbedding } from '../../pipeline/llm/testing/fake-openai-server.ts';
import { tempDir } from '../../pipeline/testing/temp-dir.ts';
import { withDefaults } from '../evaluate/testing/stage-harness.ts';
import type { EmbedRequest, ModelSpec } from '../../pipeline/llm/types.ts';
import { realJudge } from '../roster/testing/specs.ts';
import type { JudgeSpec } from '../roster/judge-spec.ts';

test('cosine on hand cases', () => {
  assert.equal(cosine([1, 0], [1, 0]), 1);
  assert.equal(cosine([1, 0], [0, 1]), 0);
  assert.equal(cosine([3, 4], [4, 3]), 24 / 25);
  assert.equal(cosine([0, 0], [1, 1]), 0, 'a zero vector is unrelated to everything');
  assert.throws(() => cosine([1], [1, 2]), /different lengths/);
});

test('C is the clipped cosine of step embeddings, one request per pair, none for an empty prediction', async () => {
  const asked: EmbedRequest[] = [];
  const vectors: Record<string, number[]> = { r1: [1, 0], r2: [0, 1], c1: [1, 1], c2: [-1, 0] };
  const client = {
    async embed(req: EmbedRequest) {
      asked.push(req);
      return { ok: true as const, vectors: req.input.map((t) => vectors[t]), cached: 0 };
    },
  };
  const r = await judgeByEmbeddings(client, 'embed-x', ['r1', 'r2'], ['c1', 'c2']);
  assert.ok(r.ok);
  // r1·c1 = 1/√2, r1·c2 = −1 → 0 (clipped), r2·c1 = 1/√2, r2·c2 = 0.
  assert.deepEqual(
    Array.from(r.C).map((x) => Math.round(x * 1e12) / 1e12),
    [0.707106781187, 0, 0.707106781187, 0],
  );
  assert.deepEqual(
    asked.map((a) => a.input),
    [['r1', 'r2', 'c1', 'c2']],
  );
  const empty = await judgeByEmbeddings(client, 'embed-x', ['r1'], []);
  assert.deepEqual([empty.ok, empty.m, empty.n, empty.calls], [true, 1, 0, 0]);
  assert.equal(asked.length, 1);
});

test('through the real client and a local server: each text cached once, a rerun sends nothing', async () => {
  const server = await startFakeOpenAIServer();
  try {
    const roster: ModelSpec[] = [
      {
        name: 'embed-test',
        roles: ['judge'],
        provider: 'openai-compatible',
        baseURLs: [server.url],
        apiKeyOptional: true,
        modelId: 'fake-embedding',
      },
    ];
    const cacheDir = tempDir('cdp-embed-');
    const reference = ['Is systolic blood pressure 140 mmHg or more?', 'Does the patient have diabetes?'];
    const candidate = ['Systolic pressure at least 140 mmHg', 'Check kidney function'];
    const first = createLlmClient({ cacheDir, roster });
    const a = await judgeByEmbeddings(first.forStage('step_scores'), 'embed-test', reference, candidate);
    await first.close();
    assert.ok(a.ok);
    const expected = reference.flatMap((r) => candidate.map((c) => Math.max(0, cosine(fakeEmbedding(r), fakeEmbedding(c)))));
    assert.deepEqual(Array.from(a.C), expected);
    assert.ok(a.C[0] > a.C[1], 'the paraphrase scores higher than the unrelated step');
    assert.deepEqual([server.counters.embeddings, server.counters.embeddedTexts], [1, 4]);

    const second = createLlmClient({ cacheDir, roster });
    const b = await judgeByEmbeddings(second, 'embed-test', [reference[0], 'A new reference step'], candidate);
    await second.close();
    assert.ok(b.ok);
    assert.deepEqual([server.counters.embeddings, server.counters.embeddedTexts], [2, 5], 'only the new text was sent');
    const third = createLlmClient({ cacheDir, roster });
    const c = await judgeByEmbeddings(third, 'embed-test', reference, candidate);
    await third.close();
    assert.ok(c.ok);
    assert.deepEqual(Array.from(c.C), expected);
    assert.equal(server.counters.embeddings, 2, 'a rerun is served from the cache');
  } finally {
    await server.close();
  }
});

test('an embedding request that fails after its retries is a failure with the reason', async () => {
  const server = await startFakeOpenAIServer();
  const url = server.url;
  await server.close();
  const client = createLlmClient({
    cacheDir: tempDir('cdp-embed-'),
    roster: [{ name: 'embed-down', roles: ['judge'], provider: 'openai-compatible', baseURLs: [url], apiKeyOptional: true }],
    // A server that is not there is waited for this long (the models file's retry.waitForServerMs), then the call fails.
    retry: { maxAttempts: 2, waitForServerMs: 50, baseDelayMs: 1, maxDelayMs: 2 },
    progress: () => {},
  });
  const r = await judgeByEmbeddings(client, 'embed-down', ['a'], ['b']);
  await client.close();
  assert.equal(r.ok, false);
  assert.match(
    (r as { reason: string }).reason,
    /^embeddings from embed-down: embed-down unavailable since .*: connection refused after \d+ attempt/,
  );
});

test('step_scores answers an embedding judge with cosine C and a chat judge with Prompt 5 in the same stage', async () => {
  const { default: stepScores } = await import('../evaluate/step-scores.stage.ts');
  const server = await startFakeOpenAIServer({ answer: () => 'R1-C1: 5' });
  try {
    const roster: ModelSpec[] = [
      { name: 'embed-test', roles: ['judge'], provider: 'openai-compatible', baseURLs: [server.url], apiKeyOptional: true },
      { name: 'chat-judge', roles: ['judge'], provider: 'openai-compatible', baseURLs: [server.url], apiKeyOptional: true },
    ];
    const client = createLlmClient({ cacheDir: tempDir('cdp-embed-'), roster });
    const row = {
      setting: 'single',
      model: 'm',
      cdp_id: 'c',
      guideline_id: 'g',
      language: 'en',
      simulated: false,
      usable: true,
      reference: ['Fever above 38 C'],
      candidate: ['Temperature above 38 C'],
    };
    const judges = [realJudge('embed-test', { kind: 'embedding' }), realJudge('chat-judge')];
    const run = (judge: JudgeSpec) =>
      (stepScores as unknown as { run: (u: unknown, ctx: unknown) => Promise<Record<string, unknown>> }).run(
        { row, cross: judge, joined: {}, whole: {} },
        {
          stage: 'step_scores',
          params: withDefaults(stepScores, { judges }),
          root: '.',
          llm: client.forStage('step_scores'),
          log() {},
          signal: new AbortController().signal,
        },
      );
    const byEmbedding = await run(judges[0]!);
    assert.equal(byEmbedding.judge_kind, 'embedding');
    assert.deepEqual(byEmbedding.C, [[cosine(fakeEmbedding(row.reference[0]), fakeEmbedding(row.candidate[0]))]]);
    assert.equal(server.counters.chat, 0);
    const byChat = await run(judges[1]!);
    assert.deepEqual(byChat.C, [[1]], 'five Likert 5s average to C = 1');
    assert.equal(server.counters.chat, 5);
    assert.equal(server.counters.embeddings, 1);
    await client.close();
  } finally {
    await server.close();
  }
});
