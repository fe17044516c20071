/**
 * A small, stable string hash for seeding random streams from names and ids (the simulated
 * agents' per-case streams, the simulated raters' per-pair draws): the same text gives the same
 * seed on every machine and in every run.
 */

/** 32-bit FNV-1a over the UTF-8 bytes of `text`. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
