import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequest, ChatResult } from '../../pipeline/llm/types.ts';
import { DEFAULT_OUTCOME_CUTOFF, judgeOutcome } from './judge-outcome.ts';

function fakeClient(answers: (req: ChatRequest) => string | { fail: string }) {
  const requests: ChatRequest[] = [];
  return {
    requests,
    async chat(req: ChatRequest): Promise<ChatResult> {
      requests.push(structuredClone(req));
      const a = answers(req);
      if (typeof a !== 'string') return { ok: false, error: a.fail, attempts: 1, kind: 'http', retryable: true };
      return { ok: true, text: a, cached: false, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0 };
    },
  };
}

const base = { judge: 'judge-a', reference: 'Community-acquired pneumonia; start amoxicillin.', candidate: 'Pneumonia; amoxicillin.' };

test('Prompt 9 is sent once with both conclusions; the score is read', async () => {
  const client = fakeClient(() => 'Score: 4');
  const r = await judgeOutcome({ client, ...base });
  // The template sent is recorded with the result.
  assert.deepEqual(r, {
    ok: true,
    score: 4,
    correct: true,
    calls: 1,
    problems: [],
    callRefs: [],
    template: 'en/9-outcome-accuracy-scoring.md',
  });
  assert.equal(client.requests.length, 1);
  const q = client.requests[0];
  assert.equal(q.repeat, 0);
  assert.equal(q.model, 'judge-a');
  assert.match(q.messages[0].content as string, /^You are a medical expert\.\nYou will receive two clinical conclusions:/);
  assert.match(
    q.messages[0].content as string,
    /## Reference Clinical Conclusion:\nCommunity-acquired pneumonia; start amoxicillin\.\n## Candidate Clinical Conclusion:\nPneumonia; amoxicillin\.\n## Your Output:$/,
  );
});

test('the cut-off: 4 by default ("largely consistent"), a parameter', async () => {
  assert.equal(DEFAULT_OUTCOME_CUTOFF, 4);
  const correct = async (score: number, cutoff?: number) => {
    const r = await judgeOutcome({ client: fakeClient(() => String(score)), ...base, cutoff });
    assert.ok(r.ok, r.ok ? '' : r.reason);
    assert.equal(r.score, score);
    return r.correct;
  };
  assert.deepEqual(await Promise.all([1, 2, 3, 4, 5].map((s) => correct(s))), [false, false, false, true, true]);
  assert.deepEqual(await Promise.all([1, 2, 3, 4, 5].map((s) => correct(s, 5))), [false, false, false, false, true]);
  assert.deepEqual(await Promise.all([1, 2, 3, 4, 5].map((s) => correct(s, 3))), [false, false, true, true, true]);
  await assert.rejects(judgeOutcome({ client: fakeClient(() => '4'), ...base, cutoff: 6 }), /cutoff = 6 must be in \[1, 5\]/);
});

test('an invalid answer is re-asked with the reason, then accepted', async () => {
  const client = fakeClient((req) => (req.messages.length === 1 ? '3 or 4' : '3'));
  const r = await judgeOutcome({ client, ...base });
  assert.deepEqual(r, {
    ok: true,
    score: 3,
    correct: false,
    calls: 2,
    problems: ['answer 1 rejected: the answer holds several different numbers (3, 4); output a single integer 1–5'],
    callRefs: [],
    template: 'en/9-outcome-accuracy-scoring.md',
  });
  assert.match(client.requests[1].messages[2].content as string, /- the answer holds several different numbers \(3, 4\)/);
});

test('still invalid after the bound: a failure with the reason', async () => {
  const client = fakeClient(() => 'The conclusions are consistent.');
  const r = await judgeOutcome({ client, ...base, maxReasks: 1 });
  assert.equal(client.requests.length, 2);
  assert.equal(r.ok, false);
  assert.equal(
    r.ok ? '' : r.reason,
    'outcome judge judge-a: no valid answer after 2 attempts: the answer holds no score; output a single integer 1–5',
  );
  assert.equal(r.calls, 2);
});

test('a failed call is a failure without re-asks', async () => {
  const client = fakeClient(() => ({ fail: 'context overflow (9000 tokens > window 8192)' }));
  const r = await judgeOutcome({ client, ...base });
  assert.equal(client.requests.length, 1);
  assert.deepEqual(r, {
    ok: false,
    reason: 'outcome judge judge-a: context overflow (9000 tokens > window 8192)',
    calls: 1,
    problems: [],
    callRefs: [],
    template: 'en/9-outcome-accuracy-scoring.md',
  });
});

test('an empty candidate conclusion scores 1 without a call; an empty reference is refused', async () => {
  const client = fakeClient(() => assert.fail('no call expected'));
  assert.deepEqual(await judgeOutcome({ client, ...base, candidate: '  \n' }), {
    ok: true,
    score: 1,
    correct: false,
    calls: 0,
    problems: ['empty candidate conclusion: scored 1 without a judge call'],
    callRefs: [],
    // No call, no template.
  });
  await assert.rejects(judgeOutcome({ client, ...base, reference: '' }), /reference conclusion is empty/);
});

test('repeat and sampling parameters are passed through', async () => {
  const client = fakeClient(() => '5');
  await judgeOutcome({ client, ...base, repeat: 3, params: { temperature: 0 } });
  assert.equal(client.requests[0].repeat, 3);
  assert.deepEqual(client.requests[0].params, { temperature: 0 });
});
