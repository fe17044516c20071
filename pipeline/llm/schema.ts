/**
 * A small JSON-Schema subset for checking model answers: type (including unions and
 * "integer"), required, properties, additionalProperties: false, items, enum, minLength,
 * minItems, maxItems, minimum, maximum. Problems come back as sentences a model can act on
 * when re-asked, each naming the path it concerns.
 */

export interface Schema {
  type?: JsonType | JsonType[];
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean;
  items?: Schema;
  enum?: readonly unknown[];
  minLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  description?: string;
}

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

function typeOf(v: unknown): JsonType | 'undefined' {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  if (t === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (t === 'string' || t === 'boolean' || t === 'object') return t;
  return 'undefined';
}

function matchesType(v: unknown, t: JsonType): boolean {
  const actual = typeOf(v);
  return actual === t || (t === 'number' && actual === 'integer');
}

/** Every way `value` breaks `schema`; empty when it conforms. `path` prefixes messages (default "answer"). */
export function validateSchema(value: unknown, schema: Schema, path = 'answer'): string[] {
  const problems: string[] = [];
  walk(value, schema, path, problems);
  return problems;
}

function walk(v: unknown, s: Schema, path: string, out: string[]): void {
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((t) => matchesType(v, t))) {
      out.push(`${path} must be ${types.join(' or ')}, but is ${typeOf(v) === 'undefined' ? 'missing' : typeOf(v)}`);
      return;
    }
  }
  if (s.enum && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v)))
    out.push(`${path} must be one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}, but is ${JSON.stringify(v)}`);
  if (typeof v === 'string' && s.minLength !== undefined && [...v].length < s.minLength)
    out.push(`${path} must have at least ${s.minLength} character${s.minLength === 1 ? '' : 's'}`);
  if (typeof v === 'number') {
    if (s.minimum !== undefined && v < s.minimum) out.push(`${path} must be at least ${s.minimum}, but is ${v}`);
    if (s.maximum !== undefined && v > s.maximum) out.push(`${path} must be at most ${s.maximum}, but is ${v}`);
  }
  if (Array.isArray(v)) {
    if (s.minItems !== undefined && v.length < s.minItems)
      out.push(`${path} must have at least ${s.minItems} item${s.minItems === 1 ? '' : 's'}, but has ${v.length}`);
    if (s.maxItems !== undefined && v.length > s.maxItems)
      out.push(`${path} must have at most ${s.maxItems} item${s.maxItems === 1 ? '' : 's'}, but has ${v.length}`);
    if (s.items) v.forEach((item, i) => walk(item, s.items!, `${path}[${i}]`, out));
  }
  if (typeOf(v) === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of s.required ?? []) if (!(k in o)) out.push(`${path}.${k} is required but missing`);
    for (const [k, sub] of Object.entries(s.properties ?? {})) if (k in o) walk(o[k], sub, `${path}.${k}`, out);
    if (s.additionalProperties === false) {
      const allowed = new Set(Object.keys(s.properties ?? {}));
      for (const k of Object.keys(o))
        if (!allowed.has(k)) out.push(`${path}.${k} is not allowed (allowed: ${[...allowed].join(', ') || 'none'})`);
    }
  }
}
