/**
 * The judging core through the real LLM client: against the local OpenAI-compatible server
 * (real HTTP, the durable call cache) and with the simulated judges registered offline.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import { startFakeOpenAIServer, type ChatBody, type FakeOpenAIServer } from '../../pipeline/llm/testing/fake-openai-server.ts';
import type { ModelSpec } from '../../pipeline/llm/types.ts';
import { judgeOutcome } from './judge-outcome.ts';
import { judgeStepScores } from './judge-step-scores.ts';
import { likertFromSimilarity } from '../agents/judges/likert-from-similarity.ts';
import { simulatedJudge, simulatedJudgeHandlers, simulatedJudgeSpecs } from '../agents/judges/simulated-judges.ts';
import { answerPrompt } from './testing/prompt-judge.ts';
import { tfidfMatrix } from '../agents/judges/similarity-tfidf.ts';

const REF = ['fever above 38 degrees', 'rash'];
const CAND = ['fever below 38 degrees', 'rash on arms', 'headache'];
const close = (actual: ArrayLike<number>, expected: number[]) => {
  assert.equal(actual.length, expected.length);
  for (let k = 0; k < expected.length; k++)
    assert.ok(Math.abs(actual[k] - expected[k]) < 1e-12, `index ${k}: ${actual[k]} vs ${expected[k]}`);
};

describe('judging through createLlmClient and a local OpenAI-compatible server', () => {
  let srv: FakeOpenAIServer;
  let answered = 0;
  const f1 = simulatedJudge('simulated-token-f1');
  before(async () => {
    // A "noisy LLM judge": the token-F1 answer, with R1-C2 scored 1 + (request number mod 5), so
    // that distinct requests give distinct answers while R1-C1 and the rest stay put.
    srv = await startFakeOpenAIServer({
      answer: (b: ChatBody) => {
        const text = answerPrompt(f1, b.messages[0].content);
        return /^\d$/.test(text) ? text : text.replace(/R1-C2: \d/, `R1-C2: ${1 + (answered++ % 5)}`);
      },
    });
  });
  after(() => srv.close());

  const roster = (): ModelSpec[] => [
    {
      name: 'judge-http',
      roles: ['judge'],
      provider: 'openai-compatible',
      baseURLs: [srv.url],
      apiKeyOptional: true,
      modelId: 'judge-model',
      contextWindow: 32_000,
      price: { inputPerMTok: 0, outputPerMTok: 0 },
    },
  ];

  test('five repeats are five HTTP requests and five answers averaged; a rerun makes none', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'judge-cache-'));
    srv.resetCounters();
    answered = 0;
    const c1 = createLlmClient({ cacheDir, roster: roster(), env: {} });
    const first = await judgeStepScores({
      client: c1.forStage('step_scores'),
      judge: 'judge-http',
      setting: 'single',
      reference: REF,
      candidate: CAND,
    });
    await c1.close();
    assert.equal(srv.counters.chat, 5);
    assert.ok(first.ok, first.ok ? '' : first.reason);
    // R1-C2 took 1, 2, 3, 4, 5 over the five requests: mean 3 → 0.5. Token F1 elsewhere: R1-C1 = 6/8 → 4 → 0.75, R2-C2 = 2/3 → 4 → 0.75.
    close(first.C, [0.75, 0.5, 0, 0, 0.75, 0]);
    assert.deepEqual([c1.counters().calls, c1.counters().cached, c1.counters().failed], [5, 0, 0]);

    srv.resetCounters();
    const c2 = createLlmClient({ cacheDir, roster: roster(), env: {} });
    const again = await judgeStepScores({
      client: c2.forStage('step_scores'),
      judge: 'judge-http',
      setting: 'single',
      reference: REF,
      candidate: CAND,
    });
    await c2.close();
    assert.equal(srv.counters.chat, 0, 'the rerun is served from the call cache');
    assert.equal(c2.counters().cached, 5);
    assert.ok(again.ok, again.ok ? '' : again.reason);
    close(again.C, Array.from(first.C));
  });

  test('an outcome judgement is one request, cached on rerun', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'judge-cache-'));
    srv.resetCounters();
    const c1 = createLlmClient({ cacheDir, roster: roster(), env: {} });
    const r = await judgeOutcome({ client: c1, judge: 'judge-http', reference: 'Start amoxicillin', candidate: 'Start amoxicillin now' });
    await c1.close();
    const { callRefs, ...rest } = r;
    assert.deepEqual(rest, { ok: true, score: 4, correct: true, calls: 1, problems: [], template: 'en/9-outcome-accuracy-scoring.md' });
    // The stored call of the answer, so its raw text can be read back from llm_calls.
    assert.equal(callRefs.length, 1);
    assert.deepEqual([callRefs[0]!.attempt, callRefs[0]!.run], [0, 0]);
    assert.match(callRefs[0]!.key, /\S{16,}/);
    assert.equal(srv.counters.chat, 1);
    const c2 = createLlmClient({ cacheDir, roster: roster(), env: {} });
    assert.deepEqual(
      await judgeOutcome({ client: c2, judge: 'judge-http', reference: 'Start amoxicillin', candidate: 'Start amoxicillin now' }),
      r,
    );
    await c2.close();
    assert.equal(srv.counters.chat, 1);
  });
});

test('the simulated judges run offline through the same client and code path', async () => {
  const c = createLlmClient({
    cacheDir: mkdtempSync(join(tmpdir(), 'judge-offline-')),
    roster: simulatedJudgeSpecs(),
    offlineHandlers: simulatedJudgeHandlers(),
    env: {},
  });
  const view = c.forStage('step_scores');
  const r = await judgeStepScores({ client: view, judge: 'simulated-tfidf', setting: 'multi', reference: REF, candidate: CAND });
  assert.ok(r.ok, r.ok ? '' : r.reason);
  close(
    r.C,
    Array.from(tfidfMatrix(REF, CAND), (s) => (likertFromSimilarity(s) - 1) / 4),
  );
  assert.deepEqual([r.runsOk, r.calls], [5, 5]);
  assert.equal(view.counters().calls, 5, 'five offline calls, like an LLM judge');
  const o = await judgeOutcome({
    client: view,
    judge: 'simulated-char-ngram',
    reference: 'Refer to cardiology',
    candidate: 'refer to CARDIOLOGY',
  });
  // Offline answers have no stored call: nothing to read back from llm_calls.
  assert.deepEqual(o, {
    ok: true,
    score: 5,
    correct: true,
    calls: 1,
    problems: [],
    callRefs: [],
    template: 'en/9-outcome-accuracy-scoring.md',
  });
  assert.deepEqual(r.callRefs, []);
  await c.close();
});
