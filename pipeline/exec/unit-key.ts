/**
 * The keys of a row stage's units. What every unit shares (`common`) is hashed once; each unit's
 * own key adds its driving row, its crossed element and the rows joined to it, so a new driving
 * row leaves the other units' keys untouched.
 */
import { hashValue, sha256 } from '../hash/canonical.ts';
import type { KeyComponents } from '../store/ledger.ts';

/**
 * What every unit of a row stage shares: its code, its params (the crossed one aside), its whole
 * inputs and its shape. The driving and joined inputs enter each unit's own key instead.
 */
export function commonKey(components: KeyComponents, wholeNames: readonly string[]): string {
  return hashValue({
    code: components.code.hash,
    params: components.params.hash,
    whole: Object.fromEntries(wholeNames.map((n) => [n, components.inputs[n].hash])),
    shape: components.shape,
  });
}

/**
 * A unit's key: the sha256 of the canonical JSON of { c: common, j: joined rows' hashes by input,
 * r: the driving row's hash, x: the crossed element's hash or null }, written out directly (every
 * member is a hex hash or a plain input name, and a million units are keyed in a large run);
 * `hashValue` of that object gives the same key (incremental-rows.test.ts).
 */
export function unitKey(common: string, rowHash: string, crossHash: string | null, joined: Record<string, readonly string[]>): string {
  let j = '';
  for (const name of Object.keys(joined).sort()) {
    j += `${j ? ',' : ''}${JSON.stringify(name)}:[${joined[name]!.map((h) => `"${h}"`).join(',')}]`;
  }
  return sha256(`{"c":"${common}","j":{${j}},"r":"${rowHash}","x":${crossHash === null ? 'null' : `"${crossHash}"`}}`);
}
