import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { callKey, callKeyCanonical, canonicalJson, promptHash, sampleSeed, seedOf, sha256Hex, type SeedUnit } from './request-key.ts';

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

test('the seed rule: every sampled call is seeded by its unit and repeat; greedy calls and fixed seeds are not', () => {
  const ph = promptHash([{ role: 'user', content: 'q' }]);
  const u = (over: Partial<SeedUnit> = {}): SeedUnit => ({ promptHash: ph, repeat: 0, attempt: 0, ...over });
  // Temperature above 0, or unset (servers default above 0): seeded, by the prompt when no sample names the unit.
  assert.equal(seedOf({ temperature: 0.7 }, u()), sampleSeed(`prompt:${ph}`, 0));
  assert.equal(seedOf({}, u()), sampleSeed(`prompt:${ph}`, 0));
  assert.equal(seedOf({}, u({ repeat: 3 })), sampleSeed(`prompt:${ph}`, 3));
  assert.equal(seedOf({}, u({ sample: 'case-1' })), sampleSeed('case-1', 0));
  assert.equal(seedOf({}, u({ sample: 'case-1', attempt: 2 })), sampleSeed('case-1\u0000fresh:2', 0));
  // Greedy and not asked for a distinct draw: no seed. A sample, repeat or fresh attempt still gets one.
  assert.equal(seedOf({ temperature: 0 }, u()), undefined);
  assert.equal(seedOf({ temperature: 0 }, u({ repeat: 1 })), sampleSeed(`prompt:${ph}`, 1));
  assert.equal(seedOf({ temperature: 0 }, u({ sample: 'c' })), sampleSeed('c', 0));
  // A seed the params fix is the one sent (and keyed as a param): none of ours.
  assert.equal(seedOf({ seed: 7, temperature: 1 }, u({ sample: 'c' })), undefined);
  // Seeds are 31-bit non-negative integers, every server's int.
  const s = sampleSeed('case-1', 0);
  assert.ok(Number.isInteger(s) && s >= 0 && s < 2 ** 31);
  assert.equal(s, parseInt(sha256Hex('cdp-seed-v1\u0000case-1\u00000').slice(0, 8), 16) & 0x7fffffff);
});

test('the key is version 2 and covers the seed sent: a v1 entry (sent without one) is never served as seeded', () => {
  const p = promptHash([{ role: 'user', content: 'q' }]);
  const params = { temperature: 0.7 };
  const seed = sampleSeed(`prompt:${p}`, 0);
  const material = `cdp-llm-v2\u0000m\u0000${p}\u0000{"temperature":0.7}\u0000null\u00000\u0000seed:${seed}`;
  assert.equal(callKey('m', p, params, undefined, 0, undefined, seed), sha256Hex(material));
  const v1 = sha256Hex(`cdp-llm-v1\u0000m\u0000${p}\u0000{"temperature":0.7}\u0000null\u00000`);
  assert.notEqual(callKey('m', p, params, undefined, 0, undefined, seed), v1);
  assert.notEqual(callKey('m', p, params, undefined, 0, undefined, seed), callKey('m', p, params, undefined, 0));
  assert.notEqual(callKey('m', p, params, undefined, 0, 'c', seed), callKey('m', p, params, undefined, 0, undefined, seed));
});
