/**
 * Canonical JSON and content hashes. Every key in the runner is a sha256 over canonical JSON,
 * so two values that mean the same (keys in another order, `undefined` members) hash the same.
 */
import { createHash } from 'node:crypto';

/** JSON with object keys sorted and `undefined` members dropped; rejects values JSON cannot round-trip. */
export function canonicalJson(value: unknown): string {
  return write(value, '$');
}

function write(v: unknown, at: string): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(v))
        throw new TypeError(`cannot hash ${v} at ${at}: only finite numbers have a canonical form (use null for missing values)`);
      return JSON.stringify(v);
    case 'bigint':
      return v.toString();
    case 'object': {
      if (Array.isArray(v)) return '[' + v.map((x, i) => (x === undefined ? 'null' : write(x, `${at}[${i}]`))).join(',') + ']';
      if (ArrayBuffer.isView(v)) return write(Array.from(v as unknown as ArrayLike<number>), at);
      if (v instanceof Date) return JSON.stringify(v.toISOString());
      const keys = Object.keys(v as object).sort();
      const parts: string[] = [];
      for (const k of keys) {
        const x = (v as Record<string, unknown>)[k];
        if (x === undefined) continue;
        parts.push(JSON.stringify(k) + ':' + write(x, `${at}.${k}`));
      }
      return '{' + parts.join(',') + '}';
    }
    default:
      throw new TypeError(`cannot hash a ${typeof v} at ${at}: stage params and rows must be plain data`);
  }
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** sha256 of the canonical JSON of a value. */
export function hashValue(value: unknown): string {
  return sha256(canonicalJson(value));
}
