/**
 * Chooses which CDPs go to LLM-based inspection (the paper's sampling inspection, §3.1).
 * The choice is a pure function of (cdp_id, seed, fraction): each id gets a score in [0, 1)
 * from a hash of the seed and the id, and is selected when its score is below the fraction.
 * So the selection does not depend on the order or the presence of other CDPs (adding a
 * guideline never reshuffles earlier choices), and raising the fraction only adds CDPs.
 */

/** FNV-1a over the UTF-8 bytes, then a murmur-style finaliser so nearby ids spread out. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The id's inspection score in [0, 1) under `seed`. */
export function inspectionScore(cdpId: string, seed: number): number {
  return hash32(`${seed >>> 0}\u0000${cdpId}`) / 2 ** 32;
}

export function isSelectedForInspection(cdpId: string, fraction: number, seed: number): boolean {
  if (!(fraction >= 0 && fraction <= 1)) {
    throw new Error(`inspection fraction must be within [0, 1], got ${fraction}; pass e.g. 0.05 for 5%`);
  }
  return inspectionScore(cdpId, seed) < fraction;
}

/** The selected ids, in input order. */
export function selectForInspection(cdpIds: readonly string[], fraction: number, seed: number): string[] {
  return cdpIds.filter((id) => isSelectedForInspection(id, fraction, seed));
}
