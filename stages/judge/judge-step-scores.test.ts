import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequest, ChatResult } from '../../pipeline/llm/types.ts';
import { judgeStepScores } from './judge-step-scores.ts';
import { findLabelledPathways } from './testing/unlabel-pathway.ts';

type Script = (req: ChatRequest, prompt: string) => string | { fail: string };

/** A plain object with `chat`, answering from a script and keeping every request. */
function fakeClient(script: Script) {
  const requests: ChatRequest[] = [];
  return {
    requests,
    async chat(req: ChatRequest): Promise<ChatResult> {
      requests.push(structuredClone(req));
      const prompt = req.messages[0].content as string;
      const a = script(req, prompt);
      if (typeof a !== 'string') return { ok: false, error: a.fail, attempts: 3, kind: 'http', retryable: true };
      return { ok: true, text: a, cached: false, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0 };
    },
  };
}

/** Prompt 5/8 answer from a score function of (1-based labels in the prompt, steps). */
function grid(prompt: string, score: (i: number, j: number, ref: string, cand: string) => number): string {
  const p = findLabelledPathways(prompt);
  assert.ok(p, 'the prompt holds labelled pathways');
  return p.reference.map((r, i) => p.candidate.map((c, j) => `R${i + 1}-C${j + 1}: ${score(i + 1, j + 1, r, c)}`).join(', ')).join('\n');
}

const close = (actual: ArrayLike<number>, expected: number[]) => {
  assert.equal(actual.length, expected.length);
  for (let k = 0; k < expected.length; k++)
    assert.ok(Math.abs(actual[k] - expected[k]) < 1e-12, `index ${k}: ${actual[k]} vs ${expected[k]}`);
};

const REF = ['Fever above 38 °C?', 'Cough longer than two weeks?'];
const CAND = ['Is the temperature over 38?', 'Any cough?', 'Order a chest X-ray'];

describe('judgeStepScores against a scripted client', () => {
  test('five distinct calls with repeat 0..4, averaged and normalised', async () => {
    // Run r scores R1-C1 as r + 1 (mean 3 → 0.5), R2-C2 as 5 − (r % 2) (mean 4.6 → 0.9), the rest 1 → 0.
    const client = fakeClient((req, prompt) =>
      grid(prompt, (i, j) => (i === 1 && j === 1 ? req.repeat! + 1 : i === 2 && j === 2 ? 5 - (req.repeat! % 2) : 1)),
    );
    const r = await judgeStepScores({ client, judge: 'judge-a', setting: 'single', reference: REF, candidate: CAND });
    assert.deepEqual(client.requests.map((q) => q.repeat).sort(), [0, 1, 2, 3, 4]);
    for (const q of client.requests) {
      assert.equal(q.model, 'judge-a');
      assert.equal(q.messages.length, 1);
      assert.equal(q.messages[0].role, 'user');
      assert.match(q.messages[0].content as string, /^You are a medical expert\.\nYou will receive two clinical decision pathways:/);
      assert.match(
        q.messages[0].content as string,
        /\nR1: Fever above 38 °C\?\nR2: Cough longer than two weeks\?\n## Candidate Clinical Pathway:\nC1: Is the temperature over 38\?\nC2: Any cough\?\nC3: Order a chest X-ray\n## Your Output:$/,
      );
    }
    assert.ok(r.ok, r.ok ? '' : r.reason);
    assert.deepEqual(
      { m: r.m, n: r.n, runsOk: r.runsOk, runsFailed: r.runsFailed, calls: r.calls, blocks: r.blocks, problems: r.problems },
      { m: 2, n: 3, runsOk: 5, runsFailed: 0, calls: 5, blocks: 1, problems: [] },
    );
    assert.ok(r.C instanceof Float64Array, 'r.C instanceof Float64Array');
    close(r.C, [0.5, 0, 0, 0, 0.9, 0]);
  });

  test('the multi-turn setting sends Prompt 8; runs and sampling parameters are honoured', async () => {
    const client = fakeClient((_q, prompt) => grid(prompt, () => 3));
    const r = await judgeStepScores({
      client,
      judge: 'j',
      setting: 'multi',
      reference: REF,
      candidate: CAND,
      runs: 2,
      params: { temperature: 0.7 },
    });
    assert.equal(client.requests.length, 2);
    assert.match(
      client.requests[0].messages[0].content as string,
      /^You are a medical expert\.\nYou will receive two clinical questioning pathways:/,
    );
    assert.deepEqual(client.requests[0].params, { temperature: 0.7 });
    assert.ok(r.ok, r.ok ? '' : r.reason);
    close(r.C, [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]);
  });

  test('a malformed answer is re-asked with its problems; the corrected answer is used', async () => {
    const client = fakeClient((req, prompt) => {
      const full = grid(prompt, () => (req.repeat === 2 ? 5 : 1));
      // Run 2's first answer drops its last pair.
      if (req.repeat === 2 && req.messages.length === 1) return full.replace(/, R2-C3: 5$/, '');
      return full;
    });
    const r = await judgeStepScores({ client, judge: 'j', setting: 'single', reference: REF, candidate: CAND });
    assert.ok(r.ok, r.ok ? '' : r.reason);
    assert.equal(r.calls, 6);
    assert.equal(r.runsOk, 5);
    const reask = client.requests.find((q) => q.repeat === 2 && q.messages.length === 3)!;
    assert.equal(reask.messages[1].role, 'assistant');
    assert.equal(reask.messages[2].role, 'user');
    assert.match(reask.messages[2].content as string, /could not be used:\n- missing pairs: R2-C3\n/);
    assert.deepEqual(r.problems, ['run 2: answer 1 rejected: missing pairs: R2-C3']);
    // Four runs of 1s and one of 5s: mean 1.8 → 0.2 everywhere.
    close(r.C, Array(6).fill(0.2));
  });

  test('a run still malformed after maxReasks fails; a minority of failed runs is tolerated', async () => {
    const client = fakeClient((req, prompt) => (req.repeat === 1 ? 'R1-C1: 9' : grid(prompt, () => 4)));
    const r = await judgeStepScores({ client, judge: 'j', setting: 'single', reference: REF, candidate: CAND, maxReasks: 2 });
    assert.equal(client.requests.filter((q) => q.repeat === 1).length, 3, 'first answer plus two re-asks');
    assert.ok(r.ok, r.ok ? '' : r.reason);
    assert.deepEqual([r.runsOk, r.runsFailed, r.calls], [4, 1, 7]);
    assert.equal(r.problems.length, 4);
    assert.match(r.problems[0], /^run 1: answer 1 rejected: score 9 for R1-C1 is not in 1–5; missing pairs: R1-C2/);
    assert.equal(r.problems[3], 'run 1: no valid answer after 3 attempts');
    close(r.C, Array(6).fill(0.75));
  });

  test('fewer than the minimum of successful runs: the pair fails with the reason', async () => {
    const client = fakeClient((req, prompt) => (req.repeat! < 3 ? 'The pathways agree.' : grid(prompt, () => 2)));
    const r = await judgeStepScores({ client, judge: 'judge-a', setting: 'single', reference: REF, candidate: CAND, maxReasks: 1 });
    assert.equal(r.ok, false);
    assert.equal(client.requests.length, 3 * 2 + 2);
    assert.deepEqual([r.runsOk, r.runsFailed], [2, 3]);
    assert.match(
      r.ok ? '' : r.reason,
      /^only 2 of 5 judge runs of judge-a gave a complete 2×3 score matrix; at least 3 are needed\. First problem: run 0: answer 1 rejected: no pairs of the form/,
    );
    // The minimum is a parameter.
    const lenient = await judgeStepScores({
      client,
      judge: 'judge-a',
      setting: 'single',
      reference: REF,
      candidate: CAND,
      maxReasks: 0,
      minRunsOk: 2,
    });
    assert.ok(lenient.ok, lenient.ok ? '' : lenient.reason);
    close(lenient.C, Array(6).fill(0.25));
  });

  test('a failed call is not re-asked: re-asking cannot fix the transport', async () => {
    const client = fakeClient((req, prompt) => (req.repeat === 4 ? { fail: 'HTTP 500 after 3 attempts' } : grid(prompt, () => 5)));
    const r = await judgeStepScores({ client, judge: 'j', setting: 'single', reference: REF, candidate: CAND });
    assert.equal(client.requests.length, 5);
    assert.ok(r.ok, r.ok ? '' : r.reason);
    assert.deepEqual([r.runsOk, r.runsFailed], [4, 1]);
    assert.deepEqual(r.problems, ['run 4: HTTP 500 after 3 attempts']);
  });

  test('empty candidate: no call, C is m×0', async () => {
    const client = fakeClient(() => assert.fail('no call expected'));
    const r = await judgeStepScores({ client, judge: 'j', setting: 'single', reference: REF, candidate: [] });
    assert.ok(r.ok, r.ok ? '' : r.reason);
    assert.equal(r.C.length, 0);
    assert.deepEqual([r.m, r.n, r.runsOk, r.calls], [2, 0, 0, 0]);
    assert.equal(client.requests.length, 0);
  });

  test('bad inputs are refused before any call', async () => {
    const client = fakeClient(() => assert.fail('no call expected'));
    const base = { client, judge: 'j', setting: 'single' as const, reference: REF, candidate: CAND };
    await assert.rejects(judgeStepScores({ ...base, reference: [] }), /reference pathway is empty/);
    await assert.rejects(judgeStepScores({ ...base, runs: 0 }), /runs = 0/);
    await assert.rejects(judgeStepScores({ ...base, minRunsOk: 6 }), /minRunsOk = 6 exceeds runs = 5/);
    await assert.rejects(
      judgeStepScores({ ...base, setting: 'both' as 'single' }),
      /setting must be 'single' \(Prompt 5\) or 'multi' \(Prompt 8\), got "both"/,
    );
  });
});

describe('long reference pathways in blocks', () => {
  // Reference step k (0-based) reads "step k"; the judge scores it against candidate j as ((k + j) % 5) + 1.
  const ref = Array.from({ length: 7 }, (_, k) => `step ${k}`);
  const cand = ['alpha', 'beta', 'gamma'];
  const global = (refText: string) => Number(refText.split(' ')[1]);
  const expected = ref.flatMap((_, k) => cand.map((_c, j) => (((k + j) % 5) + 1 - 1) / 4));

  test('blockRows: blocks relabel R1.., carry the whole candidate, and stitch back in order', async () => {
    const client = fakeClient((_q, prompt) => grid(prompt, (_i, j, r) => ((global(r) + (j - 1)) % 5) + 1));
    const r = await judgeStepScores({ client, judge: 'j', setting: 'single', reference: ref, candidate: cand, blockRows: 3, runs: 2 });
    assert.ok(r.ok, r.ok ? '' : r.reason);
    assert.equal(r.blocks, 3);
    assert.equal(client.requests.length, 6);
    const prompts = [...new Set(client.requests.map((q) => q.messages[0].content as string))];
    assert.equal(prompts.length, 3);
    const seen = prompts.map((p) => findLabelledPathways(p)!);
    assert.deepEqual(
      seen.map((s) => s.reference),
      [['step 0', 'step 1', 'step 2'], ['step 3', 'step 4', 'step 5'], ['step 6']],
    );
    for (const s of seen) assert.deepEqual(s.candidate, cand);
    assert.match(prompts[2], /labeled sequentially from R1 to R1, for a total of 1 steps/);
    for (const q of client.requests) assert.ok(q.repeat === 0 || q.repeat === 1, 'q.repeat === 0 || q.repeat === 1');
    close(r.C, expected);
  });

  test('maxPromptTokens chooses the blocks; every prompt fits', async () => {
    const client = fakeClient((_q, prompt) => grid(prompt, (_i, j, r) => ((global(r) + (j - 1)) % 5) + 1));
    const count = (t: string) => t.length; // a stand-in counter: one token per UTF-16 unit
    const whole = await judgeStepScores({ client, judge: 'j', setting: 'single', reference: ref, candidate: cand, runs: 1 });
    const oneRow = (client.requests[0].messages[0].content as string).length;
    client.requests.length = 0;
    const budget = oneRow - 30; // the whole pathway does not fit, a few rows do
    const r = await judgeStepScores({
      client,
      judge: 'j',
      setting: 'single',
      reference: ref,
      candidate: cand,
      runs: 1,
      maxPromptTokens: budget,
      countTokens: count,
    });
    assert.ok(whole.ok && r.ok, 'whole.ok && r.ok');
    assert.ok(r.blocks > 1, 'r.blocks > 1');
    for (const q of client.requests)
      assert.ok((q.messages[0].content as string).length + 7 <= budget, '(q.messages[0].content as string).length + 7 <= budget');
    close(r.C, expected);
    close(r.C, Array.from(whole.C));
  });

  test('a failed block fails its run', async () => {
    const client = fakeClient((req, prompt) => {
      const p = findLabelledPathways(prompt)!;
      if (req.repeat === 0 && p.reference[0] === 'step 3') return 'R1-C1: 3';
      return grid(prompt, () => 5);
    });
    const r = await judgeStepScores({ client, judge: 'j', setting: 'single', reference: ref, candidate: cand, blockRows: 3, maxReasks: 0 });
    assert.ok(r.ok, r.ok ? '' : r.reason);
    assert.deepEqual([r.runsOk, r.runsFailed], [4, 1]);
    assert.match(r.problems[0], /^run 0, block 2\/3 \(R4–R6\): answer 1 rejected: missing pairs: R1-C2/);
    close(r.C, Array(21).fill(1));
  });

  test('a candidate too long for the budget fails with the reason, without calls', async () => {
    const client = fakeClient(() => assert.fail('no call expected'));
    const r = await judgeStepScores({
      client,
      judge: 'j',
      setting: 'single',
      reference: ref,
      candidate: cand,
      maxPromptTokens: 100,
      countTokens: (t) => t.length,
    });
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.reason, /candidate is never split/);
  });
});
