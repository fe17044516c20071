/**
 * A small, stable string hash for seeding random streams from names and ids (the simulated
 * agents' per-case streams, the simulated raters' per-pair draws): the same text gives the same
 * seed on every machine and in every run.
 */

const utf8 = new TextEncoder();

/** 32-bit FNV-1a over the UTF-8 bytes of `text`. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  // ASCII (the ids and names the pipeline makes) is its own UTF-8: hashed from the character
  // codes, with no byte array made per call (two calls per pair in the simulated raters).
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return fnv1aBytes(h, utf8.encode(text.slice(i)));
    h ^= c;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function fnv1aBytes(h: number, bytes: Uint8Array): number {
  for (const byte of bytes) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
