/**
 * A param schema's allowed values in words, for the messages that refuse a value: "an integer
 * from 1 to 5", "one of 'worst', 'exclude'", "a list of strings", "a number ≥ 0 or null". Read from
 * the schema's JSON Schema (zod's own conversion), so every schema a stage declares can be said.
 */
import { z } from 'zod';

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
}

export function describeSchema(schema: z.ZodType): string {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return 'a value of the type its stage declares';
  }
  return describe(json);
}

/** A value as a message shows it: JSON, cut at 80 characters. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

const quote = (v: unknown) => (typeof v === 'string' ? `'${v}'` : typeof v === 'number' ? String(v) : JSON.stringify(v));

function describe(s: JsonSchema): string {
  if (s.enum) return s.enum.length === 1 ? quote(s.enum[0]) : `one of ${s.enum.map(quote).join(', ')}`;
  // JSON has no Infinity: zod writes the literal (τ = Infinity, a balanced marginal) as a number const null.
  if ('const' in s) return s.const === null && s.type === 'number' ? 'Infinity' : quote(s.const);
  const alternatives = s.anyOf ?? s.oneOf ?? (Array.isArray(s.type) ? s.type.map((type) => ({ ...s, type })) : null);
  if (alternatives) return alternatives.map(describe).join(' or ');
  switch (s.type) {
    case 'integer':
      return `an integer${range(s)}`;
    case 'number':
      return `a number${range(s)}`;
    case 'string':
      return s.minLength ? 'a non-empty string' : 'a string';
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    case 'array':
      return `${s.minItems ? 'a non-empty list' : 'a list'}${s.items ? ` of ${plural(describe(s.items))}` : ''}`;
    case 'object':
      return describeObject(s);
    default:
      return 'any value';
  }
}

function describeObject(s: JsonSchema): string {
  const props = Object.entries(s.properties ?? {});
  if (props.length) {
    const required = new Set(s.required ?? []);
    return `an object {${props.map(([k, v]) => `${k}${required.has(k) ? '' : '?'}: ${describe(v)}`).join(', ')}}`;
  }
  if (typeof s.additionalProperties === 'object') return `an object whose values are each ${describe(s.additionalProperties)}`;
  return 'an object';
}

// zod's int() carries the safe-integer bounds; they are no one's range.
const bound = (x: number | undefined) => (x === undefined || Math.abs(x) >= Number.MAX_SAFE_INTEGER ? undefined : x);

function range(s: JsonSchema): string {
  const [min, max, xmin, xmax] = [bound(s.minimum), bound(s.maximum), bound(s.exclusiveMinimum), bound(s.exclusiveMaximum)];
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  const parts = [
    ...(min !== undefined ? [`≥ ${min}`] : xmin !== undefined ? [`> ${xmin}`] : []),
    ...(max !== undefined ? [`≤ ${max}`] : xmax !== undefined ? [`< ${xmax}`] : []),
  ];
  return parts.length ? ` ${parts.join(' and ')}` : '';
}

/** "a string" → "strings", "an integer ≥ 1" → "integers ≥ 1"; anything else stays whole. */
function plural(described: string): string {
  if (described.includes(' or ')) return `items each ${described}`;
  const m = /^an? (string|integer|number|object|list|non-empty string|non-empty list)\b(.*)$/.exec(described);
  return m ? `${m[1]}s${m[2]}` : `items each ${described}`;
}
