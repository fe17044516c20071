import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import { loadTemplate, renderTemplate } from '../prompts/templates.ts';
import { pathwayVars } from '../prompts/pathway-labels.ts';
import { findLabelledPathways } from '../judge/testing/unlabel-pathway.ts';
import { simulatedJudgeHandlers, simulatedJudgeSpecs } from '../agents/judges/simulated-judges.ts';
import stepScores from './step-scores.stage.ts';
import outcomeScores from './outcome-scores.stage.ts';
import { runRows, scriptedClient } from './testing/stage-harness.ts';
import { realJudge, simulatedJudges } from '../roster/testing/specs.ts';

const tokenF1 = simulatedJudges(['simulated-token-f1'])[0]!;

const pathway = (over: object = {}) => ({
  setting: 'single',
  model: 'model-a',
  cdp_id: 'c1',
  guideline_id: 'g1',
  language: 'en',
  simulated: false,
  reference: ['Fever above 38 °C?', 'Cough longer than two weeks?'],
  candidate: ['temperature over 38', 'any cough', 'chest X-ray'],
  reference_conclusion: 'Treat as pneumonia.',
  candidate_outcome: 'Pneumonia, treat it.',
  usable: true,
  reason: null,
  ...over,
});

/** 5 on the diagonal, 1 elsewhere. */
const diagonal = (_: unknown, prompt: string) => {
  const p = findLabelledPathways(prompt)!;
  return p.reference.map((_r, i) => p.candidate.map((_c, j) => `R${i + 1}-C${j + 1}: ${i === j ? 5 : 1}`).join(', ')).join('\n');
};

describe('step_scores', () => {
  test('five runs (repeat 0..4) averaged and normalised into an m×n C, LLM judge kind', async () => {
    const client = scriptedClient(diagonal);
    const [r] = await runRows(stepScores, [pathway()], { judges: [realJudge('judge-x')] }, realJudge('judge-x'), client);
    assert.equal(r!.error, undefined);
    assert.deepEqual(r!.C, [
      [1, 0, 0],
      [0, 1, 0],
    ]);
    assert.deepEqual(
      [r!.m, r!.n, r!.runs_ok, r!.runs_failed, r!.judge, r!.judge_kind, r!.setting],
      [2, 3, 5, 0, 'judge-x', 'llm', 'single'],
    );
    assert.deepEqual(
      client.requests.map((q) => q.repeat),
      [0, 1, 2, 3, 4],
    );
    assert.ok(client.requests.every((q) => q.model === 'judge-x'));
  });

  test('the multi-turn setting uses Prompt 8, runs is a param, and blockRows splits the reference into blocks', async () => {
    const client = scriptedClient(diagonal);
    const [r] = await runRows(
      stepScores,
      [pathway({ setting: 'multi' })],
      { judges: [realJudge('judge-x')], runs: 2, blockRows: 1 },
      realJudge('judge-x'),
      client,
    );
    assert.deepEqual([r!.runs_ok, r!.blocks, r!.calls], [2, 2, 4]);
    // Each block relabels its one reference row R1, so the diagonal script scores R1-C1 = 5 in both blocks.
    assert.deepEqual(r!.C, [
      [1, 0, 0],
      [1, 0, 0],
    ]);
    const prompt8 = renderTemplate(
      loadTemplate('multi-turn-step-level-consistency-scoring', 'en'),
      pathwayVars(['Fever above 38 °C?'], pathway().candidate),
    );
    assert.equal(client.requests[0]!.messages[0]!.content, prompt8);
  });

  test('a judge spec’s prompt budget applies to its judge only: a budget no block fits fails that judge’s unit', async () => {
    const client = scriptedClient(diagonal);
    // A 10-token budget: a context window 10 tokens above the answer reserve.
    const tinyJudge = realJudge('tiny', { contextWindow: 8192 + 10 });
    const roomyJudge = realJudge('roomy');
    assert.deepEqual([tinyJudge.promptBudget, roomyJudge.promptBudget], [10, null]);
    const params = { judges: [tinyJudge, roomyJudge], runs: 1 };
    const [tiny] = await runRows(stepScores, [pathway()], params, tinyJudge, client);
    assert.match(String(tiny!.error), /10/);
    assert.equal(client.requests.length, 0);
    const [roomy] = await runRows(stepScores, [pathway()], params, roomyJudge, client);
    assert.deepEqual([roomy!.error, roomy!.runs_ok], [undefined, 1]);
  });

  test('an empty candidate gives m empty rows without a call; an unusable pathway is a failure row; a judge that never answers fails the unit', async () => {
    const client = scriptedClient(() => 'I cannot score this.');
    const rows = await runRows(
      stepScores,
      [pathway({ candidate: [] }), pathway({ usable: false, reason: 'prediction failed: HTTP 500' }), pathway()],
      { judges: [realJudge('j')], maxReasks: 0 },
      realJudge('j'),
      client,
    );
    assert.deepEqual([rows[0]!.C, rows[0]!.n, rows[0]!.error], [[[], []], 0, undefined]);
    assert.equal(rows[1]!.error, 'pathway not judged: prediction failed: HTTP 500');
    assert.match(String(rows[2]!.error), /only 0 of 5 judge runs of j/);
    assert.equal(client.requests.length, 5, 'one call per run for the third pathway only');
  });

  test('the simulated token-F1 judge through the real client: hand-computed C', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'cdp-eval-judges-'));
    const client = createLlmClient({ cacheDir, roster: simulatedJudgeSpecs(), offlineHandlers: simulatedJudgeHandlers(), env: {} });
    try {
      const row = pathway({
        reference: ['fever above 38 degrees', 'rash'],
        candidate: ['fever below 38 degrees', 'rash on arms', 'headache'],
      });
      const [r] = await runRows(stepScores, [row], { judges: [tokenF1] }, tokenF1, client.forStage('step_scores'));
      // Token F1: R1-C1 = 6/8 → Likert 4, R2-C2 = 2/3 → 4, others 0 → 1; (s − 1)/4.
      assert.deepEqual(r!.C, [
        [0.75, 0, 0],
        [0, 0.75, 0],
      ]);
      assert.equal(r!.judge_kind, 'similarity');
      assert.equal(client.counters().calls, 5);
      const [o] = await runRows(outcomeScores, [row], { judges: [tokenF1] }, tokenF1, client.forStage('outcome_scores'));
      // "Treat as pneumonia." vs "Pneumonia, treat it.": the same content words → F1 1 → 5.
      assert.deepEqual([o!.score, o!.correct, o!.cutoff], [5, true, 4]);
    } finally {
      await client.close();
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  test('the judge spec decides: a real judge skips simulated agents, rows carry its kind, flag and calibration', async () => {
    const client = scriptedClient(diagonal);
    const judge = realJudge('judge-x', { calibration: { gamma: 0.55, beta: 0.3, calibrated: true } });
    const rows = await runRows(
      stepScores,
      [pathway(), pathway({ model: 'simulated-oracle', simulated: true })],
      { judges: [judge] },
      judge,
      client,
    );
    assert.equal(rows.length, 1, 'no row, and no call, for the simulated agent');
    assert.equal(client.requests.length, 5);
    assert.deepEqual(
      [rows[0]!.judge, rows[0]!.judge_kind, rows[0]!.judge_simulated, rows[0]!.gamma, rows[0]!.beta, rows[0]!.gamma_calibrated],
      ['judge-x', 'llm', false, 0.55, 0.3, true],
    );
    const sim = await runRows(
      stepScores,
      [pathway({ model: 'simulated-oracle', simulated: true })],
      { judges: [tokenF1] },
      tokenF1,
      scriptedClient(diagonal),
    );
    assert.deepEqual([sim[0]!.judge_kind, sim[0]!.judge_simulated, sim[0]!.gamma, sim[0]!.beta], ['similarity', true, 0.2, 0.1]);
  });

  test('a bare judge name is refused with what to pass instead', async () => {
    await assert.rejects(
      runRows(stepScores, [pathway()], { judges: [realJudge('j')] }, 'j', scriptedClient(diagonal)),
      /the crossed judge \(param 'judges', crossed as 'judge'\) is "j", not a model; pass the roster's value/,
    );
  });
});

describe('outcome_scores', () => {
  test('an embedding judge scores no outcomes; a real judge no simulated agent', async () => {
    const client = scriptedClient(() => '5');
    const embed = realJudge('embed-e5', { kind: 'embedding' });
    assert.deepEqual(await runRows(outcomeScores, [pathway()], { judges: [embed] }, embed, client), []);
    const j = realJudge('j');
    assert.deepEqual(await runRows(outcomeScores, [pathway({ simulated: true })], { judges: [j] }, j, client), []);
    assert.equal(client.requests.length, 0);
  });
  test('score from the judge, correct = score ≥ cutoff (default 4)', async () => {
    let answer = '4';
    const client = scriptedClient(() => answer);
    const [four] = await runRows(outcomeScores, [pathway()], { judges: [realJudge('j')] }, realJudge('j'), client);
    assert.deepEqual([four!.score, four!.correct, four!.cutoff], [4, true, 4]);
    const [strict] = await runRows(outcomeScores, [pathway()], { judges: [realJudge('j')], cutoff: 5 }, realJudge('j'), client);
    assert.deepEqual([strict!.score, strict!.correct], [4, false]);
    answer = 'Score: 2';
    const [two] = await runRows(outcomeScores, [pathway()], { judges: [realJudge('j')] }, realJudge('j'), client);
    assert.deepEqual([two!.score, two!.correct], [2, false]);
  });

  test('an empty conclusion scores 1 without a call; an unusable pathway is a failure row', async () => {
    const client = scriptedClient(() => '5');
    const rows = await runRows(
      outcomeScores,
      [pathway({ candidate_outcome: '' }), pathway({ usable: false, reason: 'dialogue failed: x' })],
      { judges: [realJudge('j')] },
      realJudge('j'),
      client,
    );
    assert.deepEqual([rows[0]!.score, rows[0]!.correct], [1, false]);
    assert.equal(rows[1]!.error, 'pathway not judged: dialogue failed: x');
    assert.equal(client.requests.length, 0);
  });
});
