/**
 * A stage's params: declared once in the stage module (`rowStage({ params: { runs: 5 }, … })`),
 * overridden by `dag.config.ts`. The declaration is the list of params the stage knows and their
 * defaults; `required<T>()` marks one the config must give. The merged values are what the stage
 * sees and what enters its key, so editing a default reruns the stage like editing the config.
 */

// Symbol.for: a stage module loaded from a temporary project imports this file by another path
// in tests, and the marker must still be recognised.
const REQUIRED = Symbol.for('cdp.requiredParam');

interface RequiredMarker {
  readonly [REQUIRED]: true;
}

/**
 * A param without a default: `params: { models: required<string[]>(), runs: 5 }`. Typed as T so
 * the declaration infers the stage's params type; the value itself is a marker, never seen by
 * `run` (validation refuses a config that does not give it).
 */
export function required<T>(): T {
  return Object.freeze({ [REQUIRED]: true }) as unknown as T;
}

export function isRequiredParam(v: unknown): boolean {
  return typeof v === 'object' && v !== null && (v as Partial<RequiredMarker>)[REQUIRED] === true;
}

/**
 * What a stage module declares: every param it reads, with its default, `required()`, or, for an
 * optional param whose absence means something ("no list given: use the naming rule"), `undefined`.
 */
export type ParamsDecl<P> = { [K in keyof Required<P>]: P[K] };

/** The declared defaults only (required params and those declared `undefined` left out). */
export function declaredDefaults(declared: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(declared).filter(([, v]) => v !== undefined && !isRequiredParam(v)));
}

/**
 * The params a stage runs with: its defaults overridden by the config's values. A config value
 * `undefined` counts as not given (a computed param that is absent falls back to the default).
 * Without a declaration the config's params pass unchecked (the runner's own test stages); every
 * stage of the benchmark declares its params (tested).
 */
export function resolveParams(
  stage: string,
  declared: Record<string, unknown> | undefined,
  given: Record<string, unknown> | undefined,
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
  for (const [name, v] of Object.entries(declared)) {
    if (isRequiredParam(v) && !(name in defined)) {
      problems.push(`stage '${stage}': param '${name}' has no default; give it in dag.config.ts (params: { ${name}: … })`);
    }
  }
  return { params: { ...declaredDefaults(declared), ...defined }, problems };
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
