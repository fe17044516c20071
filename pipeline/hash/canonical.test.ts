import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { canonicalJson, hashValue, sha256 } from './canonical.ts';

/**
 * The reference, written from what canonical JSON promises: JSON.stringify's leaves, object keys in
 * string order (integer-like keys too, which Object.fromEntries would move first).
 */
function reference(v: unknown): string {
  if (Array.isArray(v)) return '[' + v.map(reference).join(',') + ']';
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).sort();
    return '{' + keys.map((k) => JSON.stringify(k) + ':' + reference(o[k])).join(',') + '}';
  }
  return JSON.stringify(v);
}

function randomValue(rand: () => number, depth: number): unknown {
  const pick = Math.floor(rand() * (depth > 3 ? 5 : 7));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return [0, -0, 1.5, -3e-9, 1e21, 2 ** 53, -17][Math.floor(rand() * 7)];
    case 3:
      return ['', 'a"b', 'line\nbreak', '中文', '\u2028', 'x'.repeat(40)][Math.floor(rand() * 6)];
    case 4:
      return Math.floor(rand() * 1000) - 500;
    case 5:
      return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(rand() * 5); i > 0; i--)
        o[['b', 'a', 'z', 'é', '10', '2', 'k"'][Math.floor(rand() * 7)]] = randomValue(rand, depth + 1);
      return o;
    }
  }
}

test('canonical JSON equals JSON.stringify with sorted keys, on 2,000 random values', () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 2000; i++) {
    const v = randomValue(rand, 0);
    assert.equal(canonicalJson(v), reference(v));
  }
});

test('canonical JSON drops undefined members, writes undefined array items as null, dates as ISO strings', () => {
  assert.equal(canonicalJson({ b: 1, a: undefined, c: [undefined, 2] }), '{"b":1,"c":[null,2]}');
  assert.equal(canonicalJson({ d: new Date(Date.UTC(2026, 0, 2)) }), '{"d":"2026-01-02T00:00:00.000Z"}');
  assert.equal(canonicalJson(new Float64Array([1, 2.5])), '[1,2.5]');
  assert.equal(canonicalJson(12n), '12');
});

test('a value JSON cannot round-trip is refused with its path', () => {
  assert.throws(() => canonicalJson({ a: [1, { b: Infinity }] }), /cannot hash Infinity at \$\.a\[1\]\.b: only finite numbers/);
  assert.throws(() => canonicalJson([0, () => 1]), /cannot hash a function at \$\[1\]: stage params and rows must be plain data/);
  assert.throws(() => canonicalJson({ ok: 1, s: Symbol('x') }), /cannot hash a symbol at \$\.s/);
  assert.throws(() => canonicalJson(NaN), /cannot hash NaN at \$:/);
});

test('sha256 and hashValue match node:crypto', () => {
  const ref = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');
  assert.equal(sha256(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.equal(sha256('中文 text'), ref('中文 text'));
  assert.equal(sha256(Buffer.from([0, 255, 7])), ref(Buffer.from([0, 255, 7])));
  assert.equal(hashValue({ b: 2, a: 1 }), ref('{"a":1,"b":2}'));
});
