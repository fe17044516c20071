/**
 * What a stage module declares of its inputs, as it declares its params: each input's name and
 * how the stage takes it —
 * - 'drives': a row stage's units are this input's rows (exactly one per row stage);
 * - 'joined': each unit gets this input's rows that share the join column with its row;
 * - 'whole': every row (a table stage's inputs, or beside a row stage's units);
 * - 'optional joined' / 'optional whole': the config may leave it out; the stage then gets no rows.
 * `resolveDag` checks dag.config.ts's bindings against the declaration before anything runs: a
 * binding the module does not declare (a misspelt name would otherwise be an input nobody reads,
 * and the declared one silently empty), a required input not bound, a `forEach` that maps over or
 * joins an input the module takes otherwise.
 */
import type { ForEach, Row } from './define.ts';
import { closestName } from './params.ts';

export type InputDecl = 'drives' | 'joined' | 'whole' | 'optional joined' | 'optional whole';
export type InputsDecl = Record<string, InputDecl>;

const DECLS: readonly string[] = ['drives', 'joined', 'whole', 'optional joined', 'optional whole'];

export const isOptionalInput = (d: InputDecl): boolean => d.startsWith('optional ');
const roleOf = (d: InputDecl): 'drives' | 'joined' | 'whole' => (d === 'drives' ? d : d.endsWith('joined') ? 'joined' : 'whole');
const namesWith = (declared: InputsDecl, role: string) => Object.keys(declared).filter((n) => roleOf(declared[n]!) === role);

export interface InputCheck {
  stage: string;
  module: string;
  kind: 'table' | 'row';
  /** The module's declaration; none declared means the stage takes no inputs. */
  declared: InputsDecl | undefined;
  /** dag.config.ts's inputs: local name → source or stage. */
  bound: Record<string, string>;
  forEach?: ForEach;
  reads?: Record<string, readonly string[]>;
  /** The inputs a partitioned table stage cuts into partitions (`partition.by`). */
  partitionBy?: readonly string[];
}

/** Every problem of a stage's inputs: its module's declaration, then the config's bindings and mapping. */
export function inputProblems(c: InputCheck): string[] {
  const own = declarationProblems(c);
  if (own.length) return own;
  const declared = c.declared ?? {};
  const names = Object.keys(declared);
  const problems: string[] = [];
  const list = names.length ? `its inputs: ${names.join(', ')}` : `it declares none (add inputs: { … } to the module)`;
  for (const name of Object.keys(c.bound)) {
    if (name in declared) continue;
    const hint = closestName(name, names);
    problems.push(`stage '${c.stage}': input '${name}' is not an input of ${c.module}${hint ? ` (did you mean '${hint}'?)` : ''}; ${list}`);
  }
  for (const [name, d] of Object.entries(declared)) {
    if (isOptionalInput(d) || name in c.bound) continue;
    problems.push(
      `stage '${c.stage}': required input '${name}' is not given; bind it in dag.config.ts (inputs: { ${name}: '<source or stage>' })`,
    );
  }
  if (c.kind === 'row' && c.forEach) problems.push(...mappingProblems(c, declared));
  return problems;
}

/** What is wrong with the module's own declaration, whatever the config says. */
function declarationProblems(c: InputCheck): string[] {
  const declared = c.declared ?? {};
  const problems: string[] = [];
  for (const [name, d] of Object.entries(declared)) {
    if (!DECLS.includes(d)) {
      problems.push(
        `${c.module}: input '${name}' is declared ${JSON.stringify(d)}; declare it one of ${DECLS.map((x) => `'${x}'`).join(', ')}`,
      );
    } else if (c.kind === 'table' && roleOf(d) !== 'whole') {
      problems.push(`${c.module}: a tableStage takes its inputs whole, but input '${name}' is declared '${d}'; declare it 'whole'`);
    }
  }
  const driving = namesWith(declared, 'drives');
  if (c.kind === 'row' && driving.length !== 1 && !problems.length) {
    problems.push(`${c.module}: a rowStage declares exactly one driving input ('drives'); it declares ${driving.join(', ') || 'none'}`);
  }
  for (const name of Object.keys(c.reads ?? {})) {
    if (!(name in declared)) problems.push(`${c.module}: its reads name input '${name}', which its inputs do not declare`);
  }
  for (const name of c.partitionBy ?? []) {
    if (!(name in declared)) problems.push(`${c.module}: its partition.by names input '${name}', which its inputs do not declare`);
  }
  return problems.map((p) => `stage '${c.stage}': ${p}`);
}

/** A row stage's forEach against the declaration: it maps over the driving input and joins exactly the joined ones. */
function mappingProblems(c: InputCheck, declared: InputsDecl): string[] {
  const forEach = c.forEach!;
  const problems: string[] = [];
  const joinedNames = namesWith(declared, 'joined');
  const d = declared[forEach.input];
  if (d !== undefined && d !== 'drives') {
    problems.push(
      `stage '${c.stage}' maps over '${forEach.input}', which ${c.module} declares '${d}', not as its driving input (it drives: ${namesWith(declared, 'drives').join(', ')}); map over that one`,
    );
  }
  for (const j of Object.keys(forEach.join ?? {})) {
    const dj = declared[j];
    if (dj === undefined || roleOf(dj) === 'joined') continue;
    problems.push(
      `stage '${c.stage}' joins '${j}', which ${c.module} declares '${dj}' (joined inputs: ${joinedNames.join(', ') || 'none'}); leave it out of forEach.join`,
    );
  }
  for (const name of joinedNames) {
    if (!(name in c.bound) || name in (forEach.join ?? {}) || name === forEach.input) continue;
    problems.push(
      `stage '${c.stage}': ${c.module} takes input '${name}' joined to each unit, but forEach.join does not join it; add join: { ${name}: '<column>' }`,
    );
  }
  return problems;
}

/** The declared optional inputs the config does not bind, which the runner hands the stage as no rows. */
export function absentInputs(
  declared: InputsDecl | undefined,
  bound: Record<string, string> | undefined,
): { whole: string[]; joined: string[] } {
  const absent = Object.entries(declared ?? {}).filter(([name, d]) => isOptionalInput(d) && !(name in (bound ?? {})));
  return {
    whole: absent.filter(([, d]) => roleOf(d) === 'whole').map(([n]) => n),
    joined: absent.filter(([, d]) => roleOf(d) === 'joined').map(([n]) => n),
  };
}

/**
 * A table stage's inputs as the runner hands them, for a test that calls `run` directly: throws on
 * an input the module does not declare and on a required one not given; an optional one not given is [].
 */
export function stageInputs(stage: string, declared: InputsDecl | undefined, given: Record<string, Row[]>): Record<string, Row[]> {
  const d = declared ?? {};
  const undeclared = Object.keys(given).filter((n) => !(n in d));
  const missing = Object.keys(d).filter((n) => !isOptionalInput(d[n]!) && !(n in given));
  if (undeclared.length || missing.length) {
    const parts = [
      ...(undeclared.length ? [`undeclared input(s) ${undeclared.join(', ')}`] : []),
      ...(missing.length ? [`required input(s) ${missing.join(', ')} not given`] : []),
    ];
    throw new Error(`stage '${stage}': ${parts.join('; ')} (declared: ${Object.keys(d).join(', ') || 'none'})`);
  }
  return { ...Object.fromEntries(absentInputs(d, {}).whole.map((n) => [n, [] as Row[]])), ...given };
}

// Properties the language or a library may look up on any object; not inputs a stage reads.
const NOT_INPUTS = new Set(['toJSON', 'then', 'constructor', 'valueOf', 'toString', 'hasOwnProperty']);

/**
 * Under CDP_CHECK_READS=1 (the test suite), the stage's inputs object throws when the stage reads an
 * input its module does not declare in that place (an undeclared name would be undefined, and
 * a `?? []` would hide it). Otherwise the object itself.
 */
export function guardInputs<T extends Record<string, unknown>>(stage: string, what: string, inputs: T, names: readonly string[]): T {
  if (process.env.CDP_CHECK_READS !== '1') return inputs;
  const allowed = new Set(names);
  return new Proxy(inputs, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && !allowed.has(prop) && !NOT_INPUTS.has(prop)) {
        throw new Error(
          `stage '${stage}' read ${what} '${prop}', which its module does not declare so (declared: ${names.join(', ') || 'none'}); declare it in the module's inputs`,
        );
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}
