/** fnv1a's ASCII fast path against FNV-1a over TextEncoder's bytes, the definition. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fnv1a } from './string-hash.ts';
import { createRng } from './rng.ts';

const reference = (text: string) => {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h >>> 0;
};

test('fnv1a: the published vectors, and non-ASCII text by its UTF-8 bytes', () => {
  assert.equal(fnv1a(''), 0x811c9dc5);
  assert.equal(fnv1a('a'), 0xe40c292c);
  assert.equal(fnv1a('foobar'), 0xbf9cf968);
  // é is C3 A9 in UTF-8: hashed as two bytes, not as its code 0xE9.
  assert.equal(fnv1a('é'), Math.imul(Math.imul(0x811c9dc5 ^ 0xc3, 0x01000193) ^ 0xa9, 0x01000193) >>> 0);
  for (const s of ['multi|en-0001|a|b', '高血压指南', 'x\u00e9y', 'ok \ud83d\ude00', 'lone \ud800 high', 'lone \udc00 low', '\u0000'])
    assert.equal(fnv1a(s), reference(s), JSON.stringify(s));
});

test('fnv1a: equal to the definition on 5,000 random strings of ASCII, Latin, CJK and surrogates', () => {
  const rng = createRng(7);
  const pools = [
    [0x20, 0x7f],
    [0x00, 0x100],
    [0x4e00, 0x9fff],
    [0xd800, 0xe000],
  ] as const;
  for (let k = 0; k < 5000; k++) {
    let s = '';
    const len = rng.nextInt(24);
    for (let i = 0; i < len; i++) {
      const [lo, hi] = pools[rng.nextInt(k % 3 === 0 ? 4 : 1)]!;
      s += String.fromCharCode(lo + rng.nextInt(hi - lo));
    }
    assert.equal(fnv1a(s), reference(s), JSON.stringify(s));
  }
});
