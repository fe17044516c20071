/**
 * Checking a model's structured answer against a zod schema, with the problems as sentences a
 * model can act on when re-asked, each naming the path it concerns ("answer.score must be at most
 * 5, but is 9"). The schema is zod's (the project's one schema library); only the wording is ours.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

function pathText(root: string, path: Path): string {
  return path.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : `${s}.${String(k)}`), root);
}

function kindOf(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

const plural = (n: number | bigint, one: string) => `${n} ${one}${Number(n) === 1 ? '' : 's'}`;

/** The value at `path` of `value`, for the "but is …" of a message. */
function at(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), value);
}

/** The keys an object schema at `path` allows (through arrays, optionals and nullables). */
function allowedKeys(schema: z.ZodType, path: Path): string[] {
  let s = schema as unknown as { _zod: { def: Record<string, unknown> } };
  const unwrap = () => {
    for (;;) {
      const def = s._zod.def;
      if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') s = def.innerType as typeof s;
      else return;
    }
  };
  for (const k of path) {
    unwrap();
    const def = s._zod.def;
    if (def.type === 'array') s = def.element as typeof s;
    else if (def.type === 'object') s = (def.shape as Record<string, typeof s>)[String(k)];
    if (!s) return [];
  }
  unwrap();
  const shape = s._zod.def.shape as Record<string, unknown> | undefined;
  return shape ? Object.keys(shape) : [];
}

function sentences(issue: Issue, value: unknown, schema: z.ZodType, root: string): string[] {
  const where = pathText(root, issue.path);
  const v = at(value, issue.path);
  if (v === undefined && issue.code !== 'unrecognized_keys' && issue.code !== 'custom') return [`${where} is required but missing`];
  switch (issue.code) {
    case 'invalid_type':
      return [`${where} must be ${issue.expected === 'int' ? 'integer' : issue.expected}, but is ${kindOf(v)}`];
    case 'too_small':
      if (issue.origin === 'string') return [`${where} must have at least ${plural(issue.minimum, 'character')}`];
      if (issue.origin === 'array')
        return [`${where} must have at least ${plural(issue.minimum, 'item')}, but has ${(v as unknown[]).length}`];
      return [`${where} must be ${issue.inclusive === false ? 'more than' : 'at least'} ${issue.minimum}, but is ${JSON.stringify(v)}`];
    case 'too_big':
      if (issue.origin === 'string') return [`${where} must have at most ${plural(issue.maximum, 'character')}`];
      if (issue.origin === 'array')
        return [`${where} must have at most ${plural(issue.maximum, 'item')}, but has ${(v as unknown[]).length}`];
      return [`${where} must be ${issue.inclusive === false ? 'less than' : 'at most'} ${issue.maximum}, but is ${JSON.stringify(v)}`];
    case 'invalid_value':
      return [`${where} must be one of ${issue.values.map((x) => JSON.stringify(x)).join(', ')}, but is ${JSON.stringify(v)}`];
    case 'unrecognized_keys': {
      const allowed = allowedKeys(schema, issue.path).join(', ') || 'none';
      return issue.keys.map((k) => `${pathText(root, [...issue.path, k])} is not allowed (allowed: ${allowed})`);
    }
    default:
      return [`${where}: ${issue.message}`];
  }
}

/** Every way `value` breaks `schema`, as sentences; empty when it conforms. `root` names the value (default "answer"). */
export function answerProblems(value: unknown, schema: z.ZodType, root = 'answer'): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.flatMap((i) => sentences(i, value, schema, root));
}
