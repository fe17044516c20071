import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { callKey, callKeyCanonical, canonicalJson, promptHash } from './request-key.ts';

test('canonical JSON sorts keys at every depth and drops undefined members', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: 'x' }, u: undefined }), '{"a":{"c":"x","d":[2,{"y":2,"z":1}]},"b":1}');
  assert.equal(canonicalJson(null), 'null');
});

test('the prompt hash is sha256 of a length-prefixed encoding (checked by hand)', () => {
  // system "hi" → "system:" "s2:" "hi" ";" ; user [blob fff…, text "?"] → "user:" "b:fff…" "t1:" "?" ";"
  const manual = createHash('sha256')
    .update('system:s2:hi;user:b:' + 'f'.repeat(64) + 't1:?;')
    .digest('hex');
  assert.equal(
    promptHash([
      { role: 'system', content: 'hi' },
      {
        role: 'user',
        content: [
          { type: 'blob', blob: 'f'.repeat(64) },
          { type: 'text', text: '?' },
        ],
      },
    ]),
    manual,
  );
});

test('message boundaries cannot be forged by content', () => {
  const a = promptHash([{ role: 'user', content: 'a;user:s1:b' }]);
  const b = promptHash([
    { role: 'user', content: 'a' },
    { role: 'user', content: 'b' },
  ]);
  assert.notEqual(a, b);
});

test('the call key changes with model id, params, response format and repeat, and with nothing else', () => {
  const p = promptHash([{ role: 'user', content: 'q' }]);
  const base = callKey('m', p, { temperature: 0.2, top_p: 1 }, undefined, 0);
  assert.match(base, /^[0-9a-f]{64}$/);
  assert.equal(callKey('m', p, { top_p: 1, temperature: 0.2 }, undefined, 0), base);
  assert.equal(callKey('m', p, { top_p: 1, temperature: 0.2 }, null, 0), base);
  const variants = [
    callKey('m2', p, { temperature: 0.2, top_p: 1 }, undefined, 0),
    callKey('m', p, { temperature: 0.3, top_p: 1 }, undefined, 0),
    callKey('m', p, { temperature: 0.2 }, undefined, 0),
    callKey('m', p, { temperature: 0.2, top_p: 1 }, { type: 'json_object' }, 0),
    callKey('m', p, { temperature: 0.2, top_p: 1 }, undefined, 1),
    callKey('m', promptHash([{ role: 'user', content: 'q ' }]), { temperature: 0.2, top_p: 1 }, undefined, 0),
  ];
  assert.equal(new Set([base, ...variants]).size, 7);
});

test('a key from precomputed canonical params equals the key from the params', () => {
  const p = promptHash([{ role: 'user', content: 'q' }]);
  const params = { top_p: 0.5, temperature: 1, stop: ['x'] };
  assert.equal(
    callKeyCanonical('m', p, canonicalJson(params), { type: 'json_object' }, 3),
    callKey('m', p, params, { type: 'json_object' }, 3),
  );
});
