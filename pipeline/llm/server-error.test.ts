// Reading servers' error bodies: every format in testing/server-errors.ts gives the server's own
// words, and every overflow wording is recognised with the window it states.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contextOverflowIn, MAX_SERVER_MESSAGE, readServerError, trimMessage } from './server-error.ts';
import { SERVER_ERROR_BODIES } from './testing/server-errors.ts';

test('each server error body gives the server its own words; overflows are recognised with their window', () => {
  for (const b of SERVER_ERROR_BODIES) {
    // As the SDK hands them on: a JSON body parsed, anything else as text.
    let parsed: unknown = b.body;
    try {
      parsed = JSON.parse(b.body);
    } catch {
      // text stays text
    }
    const got = readServerError(parsed);
    assert.equal(got.message, b.message, b.id);
    assert.equal(got.overflow, b.overflowWindow !== undefined, `${b.id}: overflow`);
    if (b.overflowWindow) assert.equal(got.window, b.overflowWindow, `${b.id}: window`);
    else assert.equal(got.window, undefined, `${b.id}: no window stated`);
    // The same body as raw text reads the same.
    assert.equal(readServerError(b.body).message, b.message, `${b.id} as text`);
  }
});

test('the overflow wordings of vLLM, SGLang, llama.cpp, TGI and OpenAI, and messages that are not overflows', () => {
  const cases: [string, number | null][] = [
    ["This model's maximum context length is 8192 tokens. However, your request has 9000 input tokens.", 8192],
    ['Prompt length of 5016 is longer than the maximum model length of 4096.', 4096],
    ["The input (9000 tokens) is longer than the model's context length (8192 tokens).", 8192],
    ['the request exceeds the available context size, try increasing it', null],
    [
      'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4000 `inputs` tokens and 500 `max_new_tokens`',
      4096,
    ],
    ['context_length_exceeded', null],
    ['prompt is too long: 213462 tokens > 200000 maximum', null],
  ];
  for (const [msg, window] of cases) {
    const got = contextOverflowIn(msg);
    assert.equal(got.overflow, true, msg);
    assert.equal(got.window ?? null, window, msg);
  }
  for (const msg of ['Invalid API key', 'The model `x` does not exist.', 'temperature must be at most 2', 'rate limit exceeded'])
    assert.equal(contextOverflowIn(msg).overflow, false, msg);
});

test('messages are trimmed and capped; an empty body says nothing; an HTML page without a title is read as text', () => {
  assert.equal(trimMessage('  a \n\t b  '), 'a b');
  const long = readServerError({ error: { message: 'x'.repeat(1000) } }).message;
  assert.equal(long.length, MAX_SERVER_MESSAGE);
  assert.ok(long.endsWith('…'));
  assert.deepEqual(readServerError(''), { message: '', overflow: false });
  assert.deepEqual(readServerError(undefined), { message: '', overflow: false });
  assert.equal(
    readServerError('<html><body><h1>Service Unavailable</h1><p>try later</p></body></html>').message,
    'Service Unavailable try later',
  );
  assert.equal(readServerError({ foo: 1 }).message, '{"foo":1}', 'an unknown JSON shape is shown as it is');
  assert.equal(readServerError({ error: { code: 'x' } }).message, '{"code":"x"}');
});
