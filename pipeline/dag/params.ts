/**
 * A stage's params: declared once in the stage module, each as a schema that holds its type, its
 * range and its default (`params: { runs: z.int().min(1).max(100).default(5) }`), overridden by
 * `dag.config.ts` and `--set`. A schema without `.default()` is a param the config must give;
 * `.optional()` is one whose absence means something ("no list given: use the naming rule").
 * The merged values are what the stage sees and what enters its key, exactly as given: the
 * schema checks a value, it never rewrites it, so typing a param changes no key.
 */
import { z } from 'zod';
import { describeSchema, describeValue } from './param-describe.ts';

/** What a stage module declares: for every param it reads, a schema whose output is the param's type. */
export type ParamsDecl<P> = { [K in keyof Required<P>]: z.ZodType<P[K]> };

export function isParamSchema(v: unknown): v is z.ZodType {
  return v instanceof z.ZodType;
}

/**
 * A schema's default, `undefined` for an optional param, or REQUIRED when it has neither. Read
 * by parsing "not given", so `.default()`, `.optional()` and their combinations mean what zod says.
 */
const REQUIRED = Symbol('required');
function declaredDefault(schema: z.ZodType): unknown {
  const r = schema.safeParse(undefined);
  return r.success ? r.data : REQUIRED;
}

/** The declared defaults only (required params and optional ones without a default left out). */
export function declaredDefaults(declared: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(declared)) {
    if (!isParamSchema(schema)) continue;
    const d = declaredDefault(schema);
    if (d !== undefined && d !== REQUIRED) out[name] = d;
  }
  return out;
}

export interface ResolveParamsOptions {
  /** Where a given value came from, for messages: "from dag.config.ts", "from --set a.b=1". Default: dag.config.ts. */
  origin?(name: string): string;
  /** The stage's module, named when a declared default is out of its own range. */
  module?: string;
}

/**
 * The params a stage runs with: its defaults overridden by the config's values, each checked
 * against its schema. A config value `undefined` counts as not given (a computed param that is
 * absent falls back to the default). Without a declaration the config's params pass unchecked
 * (the runner's own test stages); every stage of the benchmark declares its params (tested).
 */
export function resolveParams(
  stage: string,
  declared: Record<string, unknown> | undefined,
  given: Record<string, unknown> | undefined,
  opts: ResolveParamsOptions = {},
): { params: Record<string, unknown>; problems: string[] } {
  const defined = Object.fromEntries(Object.entries(given ?? {}).filter(([, v]) => v !== undefined));
  if (declared === undefined) return { params: defined, problems: [] };
  const known = Object.keys(declared);
  const problems: string[] = [];
  for (const name of Object.keys(defined)) {
    if (name in declared) continue;
    const hint = closestName(name, known);
    problems.push(
      `stage '${stage}': unknown param '${name}'${hint ? ` (did you mean '${hint}'?)` : ''}; ` +
        `known: ${known.join(', ') || 'none (the stage takes no params)'}`,
    );
  }
  const params = { ...declaredDefaults(declared), ...defined };
  for (const [name, schema] of Object.entries(declared)) {
    const origin =
      name in defined ? `from ${opts.origin?.(name) ?? 'dag.config.ts'}` : `its default in ${opts.module ?? 'the stage module'}`;
    problems.push(...paramProblems(stage, name, schema, name in params, params[name], origin));
  }
  return { params, problems };
}

/** What is wrong with one param's declaration or value: nothing, a missing required value, or a value out of range. */
function paramProblems(stage: string, name: string, schema: unknown, present: boolean, value: unknown, origin: string): string[] {
  const at = `stage '${stage}': param '${name}'`;
  if (!isParamSchema(schema)) {
    return [
      `${at} is declared without a type (${describeValue(schema)}); declare it as a schema in the stage module, ` +
        `e.g. ${name}: z.int().min(1).default(5) (DESIGN.md, "Adding a param")`,
    ];
  }
  if (!present) {
    if (declaredDefault(schema) !== REQUIRED) return [];
    return [`${at} (${describeSchema(schema)}) has no default; give it in dag.config.ts (params: { ${name}: … })`];
  }
  const r = schema.safeParse(value);
  if (r.success) return [];
  // Where the value is a structure, say which part is wrong (zod's path and message) beside what is
  // allowed; a refinement (judges must be distinct) says its own rule.
  const said = r.error.issues.filter((i) => i.path.length > 0 || i.code === 'custom').slice(0, 3);
  const where = said
    .map((i) => (i.path.length ? `; at ${[name, ...i.path.map(String)].join('.')}: ${i.message}` : `; ${i.message}`))
    .join('');
  return [`${at} must be ${describeSchema(schema)}, got ${describeValue(value)} (${origin})${where}`];
}

/** The known name a typo most likely meant: edit distance ≤ max(1, a third of its length), or a case-only difference. */
export function closestName(word: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = k.toLowerCase() === word.toLowerCase() ? 0 : editDistance(word, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best !== null && bestDistance <= Math.max(1, Math.floor(word.length / 3)) ? best : null;
}

/** Insertions, deletions, substitutions and swaps of neighbours ("scael" → "scale" is one). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i]!;
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
