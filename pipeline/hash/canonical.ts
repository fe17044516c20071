/**
 * Canonical JSON and content hashes. Every key in the runner is a sha256 over canonical JSON,
 * so two values that mean the same (keys in another order, `undefined` members) hash the same.
 */
import { hash } from 'node:crypto';

/** JSON with object keys sorted and `undefined` members dropped; rejects values JSON cannot round-trip. */
export function canonicalJson(value: unknown): string {
  const out = write(value);
  if (out === null) throw unhashable(value, '$');
  return out;
}

// Hot (every row of every artifact is hashed): no path strings are built on the way; a value that
// cannot be hashed makes write() return null, and unhashable() walks again to name where it is.
function write(v: unknown): string | null {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return Number.isFinite(v) ? String(v) : null;
    case 'bigint':
      return v.toString();
    case 'object': {
      if (Array.isArray(v)) {
        let out = '[';
        for (let i = 0; i < v.length; i++) {
          const x = v[i] === undefined ? 'null' : write(v[i]);
          if (x === null) return null;
          out += i ? ',' + x : x;
        }
        return out + ']';
      }
      if (ArrayBuffer.isView(v)) return write(Array.from(v as unknown as ArrayLike<number>));
      if (v instanceof Date) return JSON.stringify(v.toISOString());
      const keys = Object.keys(v as object).sort();
      let out = '{';
      let first = true;
      for (const k of keys) {
        const x = (v as Record<string, unknown>)[k];
        if (x === undefined) continue;
        const w = write(x);
        if (w === null) return null;
        out += (first ? '' : ',') + JSON.stringify(k) + ':' + w;
        first = false;
      }
      return out + '}';
    }
    default:
      return null;
  }
}

/** The error for the first value under `v` that write() refuses, naming its path. */
function unhashable(v: unknown, at: string): TypeError {
  if (typeof v === 'number')
    return new TypeError(`cannot hash ${v} at ${at}: only finite numbers have a canonical form (use null for missing values)`);
  if (v !== null && typeof v === 'object') {
    const items: [string, unknown][] = Array.isArray(v)
      ? v.map((x, i) => [`${at}[${i}]`, x])
      : ArrayBuffer.isView(v)
        ? Array.from(v as unknown as ArrayLike<number>, (x, i) => [`${at}[${i}]`, x])
        : Object.keys(v).map((k) => [`${at}.${k}`, (v as Record<string, unknown>)[k]]);
    for (const [path, x] of items) if (x !== undefined && write(x) === null) return unhashable(x, path);
  }
  return new TypeError(`cannot hash a ${typeof v} at ${at}: stage params and rows must be plain data`);
}

export function sha256(data: string | Uint8Array): string {
  // One-shot: no Hash object per call (a run hashes every unit key and row).
  return hash('sha256', data, 'hex');
}

/** sha256 of the canonical JSON of a value. */
export function hashValue(value: unknown): string {
  return sha256(canonicalJson(value));
}
