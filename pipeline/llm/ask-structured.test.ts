import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { askStructured, jsonSchemaParser, reaskMessage, type Chatter } from './ask-structured.ts';
import type { ChatRequest, ChatResult } from './types.ts';

/** A scripted model: answers in order, recording what it was asked. */
function scripted(answers: (string | { fail: string })[]): Chatter & { asked: ChatRequest[] } {
  const asked: ChatRequest[] = [];
  return {
    asked,
    async chat(req): Promise<ChatResult> {
      asked.push(req);
      const a = answers[asked.length - 1];
      if (typeof a !== 'string') return { ok: false, error: a.fail, attempts: 3, kind: 'http', retryable: true };
      return { ok: true, text: a, cached: false, usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 1 };
    },
  };
}

const parse = jsonSchemaParser(z.object({ score: z.int().min(1).max(5) }));
const req: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'Score it.' }] };

test('a chatty, fenced answer with a reasoning block parses on the first try', async () => {
  const m = scripted(['<think>hmm</think>Sure! Here it is:\n```json\n{"score": 4}\n```\nHope that helps.']);
  const r = await askStructured(m, req, parse);
  assert.deepEqual(r, {
    ok: true,
    value: { score: 4 },
    text: m.asked.length && '<think>hmm</think>Sure! Here it is:\n```json\n{"score": 4}\n```\nHope that helps.',
    attempts: 1,
    cached: false,
    format: 'fence+preamble+think-block+trailing-note',
  });
});

test('an answer cut off at the token limit is re-asked as truncated, never parsed; the finish reason reaches the parser', async () => {
  const asked: ChatRequest[] = [];
  const answers: Array<[string, string]> = [
    ['{"score": 4', 'length'],
    ['{"score": 4}', 'stop'],
  ];
  const m: Chatter = {
    async chat(r): Promise<ChatResult> {
      asked.push(r);
      const [text, finishReason] = answers[asked.length - 1];
      return { ok: true, text, cached: false, usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 1, finishReason } as ChatResult;
    },
  };
  const r = await askStructured(m, req, parse);
  assert.deepEqual(r, {
    ok: true,
    value: { score: 4 },
    text: '{"score": 4}',
    attempts: 2,
    cached: false,
    format: 'strict',
    finishReason: 'stop',
  });
  assert.equal(
    asked[1].messages[2].content,
    reaskMessage([
      'truncated answer (finish_reason: length): cut off at the output token limit; answer again, complete and more concisely',
    ]),
  );
});

test('a rejected answer is re-asked with the problems stated, as a continued conversation', async () => {
  const m = scripted(['no json here', '{"score": 9}', '{"score": 5}']);
  const r = await askStructured(m, req, parse, { maxAttempts: 3 });
  assert.ok(r.ok && r.value.score === 5 && r.attempts === 3);
  assert.deepEqual(m.asked[1].messages, [
    { role: 'user', content: 'Score it.' },
    { role: 'assistant', content: 'no json here' },
    { role: 'user', content: reaskMessage(['the answer contains no parseable JSON object or array']) },
  ]);
  assert.equal(m.asked[2].messages.length, 5);
  assert.equal(
    m.asked[2].messages[4].content,
    'Your previous answer could not be used:\n- answer.score must be at most 5, but is 9\nPlease answer again with the complete corrected output only, in the required format.',
  );
});

test('the bound is respected and the last problems are returned; a failed call stops at once', async () => {
  const m = scripted(['{}', '{}', '{}']);
  const r = await askStructured(m, req, parse, { maxAttempts: 2 });
  assert.deepEqual(r, {
    ok: false,
    error: 'no valid answer after 2 attempts',
    problems: ['answer.score is required but missing'],
    attempts: 2,
    lastText: '{}',
  });
  assert.equal(m.asked.length, 2);
  const f = scripted([{ fail: 'HTTP 500 after 3 attempts' }]);
  assert.deepEqual(await askStructured(f, req, parse), {
    ok: false,
    error: 'HTTP 500 after 3 attempts',
    problems: [],
    attempts: 1,
    lastText: undefined,
  });
});

test('a failed exchange hands every answer it got to reject, with its reasons; an accepted one rejects none', async () => {
  const withReject = (answers: (string | { fail: string })[]) => {
    const m = scripted(answers);
    const rejected: [string, string][] = [];
    return Object.assign(m, {
      rejected,
      async reject(r: ChatResult, reason: string) {
        if (r.ok) rejected.push([r.text, reason]);
      },
    });
  };
  const refused = withReject(['no json here', '{"score": 9}']);
  assert.equal((await askStructured(refused, req, parse, { maxAttempts: 2 })).ok, false);
  assert.equal(refused.rejected.length, 2);
  assert.equal(refused.rejected[0]![0], 'no json here');
  assert.match(refused.rejected[0]![1], /JSON/);
  assert.deepEqual(refused.rejected[1], ['{"score": 9}', 'answer.score must be at most 5, but is 9']);

  // A transport failure after a refused answer: the refused answer is rejected too, so a retry starts afresh.
  const broken = withReject(['no json here', { fail: 'HTTP 500 after 5 attempts' }]);
  const b = await askStructured(broken, req, parse, { maxAttempts: 3 });
  assert.deepEqual([b.ok, !b.ok && b.error, broken.rejected.map(([t]) => t)], [false, 'HTTP 500 after 5 attempts', ['no json here']]);

  const accepted = withReject(['no json here', '{"score": 2}']);
  assert.equal((await askStructured(accepted, req, parse)).ok, true);
  assert.deepEqual(accepted.rejected, [], 'the conversation the accepted answer came from stays replayable');
});
