// Which provider the client hands a call to: offline model → its offline provider, estimate mode →
// the estimate provider, batch model or batch stage → the batch provider, else the live one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLlmClient, llmCacheLayout, providerKind } from './client.ts';
import { startFakeOpenAIServer } from './testing/fake-openai-server.ts';
import { tempDir } from '../testing/temp-dir.ts';
import type { ModelSpec } from './types.ts';

const live: ModelSpec = {
  name: 'judge-a',
  roles: ['judge'],
  provider: 'openai-compatible',
  baseURLs: ['http://h/v1'],
  modelId: 'judge-model',
};
const batch: ModelSpec = { ...live, name: 'builder-b', roles: ['builder'], modelId: 'builder-model', batch: true };
const offline: ModelSpec = { name: 'patient-simulated', roles: ['patient'], provider: 'offline', simulated: true };

test('providerKind: offline wins over every mode, estimate over batch, a batch model or stage over live', () => {
  const none = new Set<string>();
  const bulk = new Set(['bulk']);
  assert.equal(providerKind(offline, 'x', 'live', bulk), 'offline');
  assert.equal(providerKind(offline, 'x', 'estimate', none), 'offline');
  assert.equal(providerKind(batch, 'x', 'estimate', bulk), 'estimate');
  assert.equal(providerKind(live, 'bulk', 'estimate', bulk), 'estimate');
  assert.equal(providerKind(batch, 'x', 'live', none), 'batch');
  assert.equal(providerKind(live, 'bulk', 'live', bulk), 'batch');
  assert.equal(providerKind(live, 'x', 'live', bulk), 'live');
});

test('one client sends each call the way its model and stage say, and an estimating client sends none', async () => {
  const srv = await startFakeOpenAIServer({ batchPollsBeforeComplete: 0 });
  try {
    const roster = [live, batch, offline].map((m) => (m.provider === 'offline' ? m : { ...m, baseURLs: [srv.url] }));
    const heard: string[] = [];
    const options = {
      roster,
      batchStages: ['bulk'],
      batch: { windowMs: 5, pollIntervalMs: 5 },
      offlineHandlers: {
        'patient-simulated': (req: { messages: { content: unknown }[] }) => (heard.push(String(req.messages[0].content)), 'No'),
      },
    };
    const user = (content: string) => [{ role: 'user' as const, content }];
    const dir = tempDir('llm-dispatch-');
    const c = createLlmClient({ cacheDir: dir, ...options });
    const counts = () => [srv.counters.chat, srv.counters.batchCreates];

    assert.ok((await c.chat({ model: 'judge-a', role: 'judge', stage: 'score', messages: user('live one') })).ok);
    assert.deepEqual(counts(), [1, 0], 'live: one request');
    assert.ok((await c.chat({ model: 'builder-b', role: 'builder', stage: 'trees', messages: user('batched by its model') })).ok);
    assert.deepEqual(counts(), [1, 1], 'a batch model: a batch');
    assert.ok((await c.chat({ model: 'judge-a', role: 'judge', stage: 'bulk', messages: user('batched by its stage') })).ok);
    assert.deepEqual(counts(), [1, 2], 'a batch stage: a batch');
    const simulated = await c.chat({ model: 'patient-simulated', stage: 'bulk', messages: user('pain?') });
    assert.ok(simulated.ok && simulated.text === 'No' && !simulated.call);
    assert.deepEqual([counts(), heard], [[1, 2], ['pain?']], 'offline: answered in process');
    await c.close();
    const n = c.counters();
    assert.deepEqual([n.calls, n.offline, n.cached, n.failed], [4, 1, 0, 0]);

    const { calls } = llmCacheLayout(dir);
    const lines = readdirSync(calls).flatMap((f) =>
      readFileSync(join(calls, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { stage: string; batchId?: string }),
    );
    assert.deepEqual(
      lines.map((l) => [l.stage, l.batchId !== undefined]).sort(),
      [
        ['bulk', true],
        ['score', false],
        ['trees', true],
      ],
      'the simulated answer is not stored',
    );

    srv.resetCounters();
    const est = createLlmClient({ cacheDir: tempDir('llm-dispatch-'), mode: 'estimate', ...options });
    for (const [model, stage] of [
      ['judge-a', 'score'],
      ['builder-b', 'trees'],
      ['judge-a', 'bulk'],
      ['patient-simulated', 'bulk'],
    ])
      await est.chat({ model, role: 'judge', stage, messages: user(`estimated ${model} ${stage}`) });
    await est.close();
    assert.deepEqual(counts(), [0, 0]);
    assert.deepEqual(
      est.estimateReport().map((r) => [r.stage, r.model, r.calls]),
      [
        ['bulk', 'judge-a', 1],
        ['score', 'judge-a', 1],
        ['trees', 'builder-b', 1],
      ],
    );
    assert.equal(heard.length, 2, 'the offline model still answers while estimating');
  } finally {
    await srv.close();
  }
});
