// Answer failures are results (issue 21 item 3): --retry-failed leaves them, and --retry-answers
// (runDag's retryKinds ['answer']) asks each again as a fresh sample, labelled in its row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeOpenAIServer, type ChatBody } from '../../pipeline/llm/testing/fake-openai-server.ts';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import type { ModelSpec } from '../../pipeline/llm/types.ts';
import { fixtureData, taskDag, taskProject } from './testing/task-dag.ts';
import { realModel } from '../roster/testing/specs.ts';

const asked = (b: ChatBody) => b.messages.filter((m) => m.role === 'assistant').length;

test('--retry-answers asks unreadable answers again as fresh samples; --retry-failed and a plain rerun keep them', async () => {
  let readable = false;
  const server = await startFakeOpenAIServer({
    answer: (b) => {
      if (b.model === 'st') {
        return readable
          ? '### Clinical Decision Process:\n1. Criterion one holds.\n### Clinical Decision Outcome: Start an ACE inhibitor.'
          : '### Clinical Decision Process:\n1. Criterion one holds.';
      }
      if (b.model === 'dr') {
        if (asked(b) === 0) return 'Is criterion 1 met?';
        return readable ? 'Final Conclusion: Start an ACE inhibitor.' : 'Do you have a fever? Do you have a cough?';
      }
      return 'Yes.';
    },
  });
  const data = fixtureData((c, i) => (i < 2 ? 'test' : null));
  const config = taskDag(data, { models: [realModel('st')] }, { models: [realModel('dr')], patient: realModel('pt') });
  const project = taskProject(config);
  const spec = (name: string, roles: ModelSpec['roles']): ModelSpec => ({
    name,
    roles,
    provider: 'openai-compatible',
    baseURLs: [server.url],
    apiKeyOptional: true,
    modelId: name,
    contextWindow: 100_000,
  });
  const run = async (opts: { retryFailed?: boolean; retryKinds?: string[] } = {}) => {
    const client = createLlmClient({
      cacheDir: project.cacheDir,
      roster: [spec('st', ['evaluated']), spec('dr', ['evaluated']), spec('pt', ['patient'])],
    });
    try {
      return await project.run(client, opts);
    } finally {
      await client.close();
    }
  };
  try {
    assert.equal((await run()).ok, true);
    const single = () => project.rows('predictions_single');
    const multi = () => project.rows('dialogues_multi');
    assert.deepEqual(
      single().map((r) => [r.parse_ok, r.failure_kind, r.resampled, r.error ?? null]),
      [
        [false, 'answer', 0, null],
        [false, 'answer', 0, null],
      ],
      'an unreadable answer is a result, not a failure row',
    );
    assert.deepEqual(
      multi().map((r) => [String(r.end_reason).slice(0, 13), r.failure_kind, r.resampled, r.error ?? null]),
      [
        ['invalid-turn:', 'answer', 0, null],
        ['invalid-turn:', 'answer', 0, null],
      ],
    );

    // The model would now answer readably, but answers are results: neither a rerun nor --retry-failed asks again.
    readable = true;
    server.resetCounters();
    const kept = await run({ retryFailed: true });
    assert.ok(
      kept.stages.every((s) => s.status === 'reused'),
      JSON.stringify(kept.stages.map((s) => [s.stage, s.status])),
    );
    assert.equal(server.counters.chat, 0);

    // --retry-answers: each unreadable answer is refused and asked again, a fresh sample; nothing else is sent.
    const again = await run({ retryKinds: ['answer'] });
    assert.equal(again.ok, true);
    assert.deepEqual(
      single().map((r) => [r.parse_ok, r.failure_kind, r.resampled, r.outcome]),
      [
        [true, null, 1, 'Start an ACE inhibitor.'],
        [true, null, 1, 'Start an ACE inhibitor.'],
      ],
    );
    assert.deepEqual(
      multi().map((r) => [r.end_reason, r.success, r.failure_kind, r.resampled]),
      [
        ['conclusion', true, null, 1],
        ['conclusion', true, null, 1],
      ],
    );
    // Per case: one fresh single-turn sample and one fresh doctor turn; the doctor's first turn and
    // the patient's answer come from the call cache.
    assert.deepEqual({ ...server.counters.byModel }, { st: 2, dr: 2 });
    const reasks = server.requests.filter((b) => b.model === 'dr');
    assert.ok(
      reasks.every((b) => asked(b) === 1 && typeof b.seed === 'number'),
      'only the refused turn, with a seed of its own',
    );
    // Nothing left to ask: another --retry-answers sends nothing.
    server.resetCounters();
    const done = await run({ retryKinds: ['answer'] });
    assert.ok(done.stages.every((s) => s.status === 'reused'));
    assert.equal(server.counters.chat, 0);
  } finally {
    project.remove();
    await server.close();
  }
});
