// What a `cdp` command line means before any TypeScript is loaded: the options every command
// takes, where the configuration and its store are, and what the store remembers. Plain
// JavaScript because the no-op fast path (fast-noop.mjs) needs exactly this, in exactly the same
// way as the full CLI (program.ts, which registers these options on commander and resolves them
// here too). Types: invocation.d.mts. The environment is read here and nowhere else in the
// runner's start-up: CDP_STORE, CDP_WAREHOUSE, CDP_MODELS and CDP_LLM_CACHE as fallbacks of their flags, and
// CDP_LLM_* for one model in every role.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { createHash } from 'node:crypto';

/** The options every command takes (registered on commander by program.ts). */
export const OPTION_FLAGS = [
  {
    flags: '--config <file>',
    key: 'config',
    description:
      'the configuration (default: the nearest dag.config.ts); <name>.config.ts has its own store, warehouse and reports under data/<name>/ and reports/<name>/',
  },
  {
    flags: '--store <dir>',
    key: 'store',
    env: 'CDP_STORE',
    description: 'the store (default: data/store, or data/<name>/store for <name>.config.ts); its warehouse and reports go inside it',
  },
  {
    flags: '--warehouse <file>',
    key: 'warehouse',
    env: 'CDP_WAREHOUSE',
    description: 'the DuckDB warehouse (default: beside or inside the store)',
  },
  {
    flags: '--corpus <dir>',
    key: 'corpus',
    description: "the input corpus the configuration builds from (default: the configuration's own; remembered by the store)",
  },
  {
    flags: '--models <file>',
    key: 'models',
    env: 'CDP_MODELS',
    description: 'the models file (default: models.json at the project root; remembered by the store)',
  },
  { flags: '--limit <n>', key: 'limit', description: 'at most N cases, spread over the corpus (a smoke run)' },
  {
    flags: '--reports <dir>',
    key: 'reports',
    description: 'where the report stages write (default: reports/, reports/<name>/ or <store>/reports)',
  },
  { flags: '--simulated', key: 'simulated', description: 'also run the simulated stand-ins beside real models (labelled simulated)' },
  {
    flags: '--set <stage.param=value>',
    key: 'set',
    repeatable: true,
    description:
      "a stage param's value for this command, over the configuration's (repeatable; JSON when it parses, else a string), e.g. --set outcome_scores.cutoff=3",
  },
  {
    flags: '--call-cache <dir>',
    key: 'callCache',
    env: 'CDP_LLM_CACHE',
    description: 'the durable LLM call cache every store of the project shares (default: data/llm-cache)',
  },
];

/** Variables that used to stand for flags: set, they are refused rather than silently ignored. */
const RETIRED = { CDP_CORPUS: '--corpus DIR', CDP_LIMIT: '--limit N', CDP_REPORTS: '--reports DIR', CDP_SIMULATED: '--simulated' };

const longName = (o) => o.flags.split(' ')[0];
const takesValue = (o) => o.flags.includes('<');
const BY_NAME = new Map(OPTION_FLAGS.map((o) => [longName(o), o]));

/**
 * The options of an argument list, and the rest (command, its own options, arguments) in order;
 * null on anything this reader does not understand as commander would (then the full CLI decides).
 */
export function parseArgv(argv) {
  const flags = { set: [] };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return null;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const o = BY_NAME.get(eq > 0 ? a.slice(0, eq) : a);
    if (!o) {
      rest.push(a);
      continue;
    }
    let value = true;
    if (!takesValue(o)) {
      if (eq > 0) return null;
    } else if (eq > 0) value = a.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('-')) value = argv[++i];
    else return null;
    if (o.repeatable) flags[o.key].push(value);
    else flags[o.key] = value;
  }
  return { flags, rest };
}

/** The configuration named (relative to cwd), else the nearest dag.config.ts at or above cwd. */
export function findConfig(cwd, explicit) {
  if (explicit) {
    const p = resolve(cwd, explicit);
    if (!existsSync(p)) throw new Error(`config file ${p} does not exist`);
    return p;
  }
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const p = join(dir, 'dag.config.ts');
    if (existsSync(p)) return p;
    if (dirname(dir) === dir)
      throw new Error(`no dag.config.ts in ${cwd} or any parent directory; run cdp inside a project or pass --config`);
  }
}

/** `dag.config.ts` → "dag", `cpgbench.config.ts` → "cpgbench", `other.ts` → "other". */
export function configName(file) {
  return basename(file).replace(/(\.config)?\.[cm]?[jt]s$/, '');
}

/**
 * Where a configuration keeps its data by default: dag.config.ts in data/store,
 * data/warehouse.duckdb and reports/; <name>.config.ts in data/<name>/store,
 * data/<name>/warehouse.duckdb and reports/<name>/. A store given explicitly holds its own
 * warehouse and reports.
 */
export function locations(root, name, given = {}) {
  const home = name === 'dag' ? join(root, 'data') : join(root, 'data', name);
  const store = given.store ?? join(home, 'store');
  return {
    store,
    warehouse: given.warehouse ?? (given.store ? join(store, 'warehouse.duckdb') : join(home, 'warehouse.duckdb')),
    reports: given.reports ?? (given.store ? join(store, 'reports') : name === 'dag' ? join(root, 'reports') : join(root, 'reports', name)),
  };
}

export const STORE_RECORD = 'store.json';

/** What a store remembers (store-record.ts writes it): null for a new store or an unreadable record. */
export function readStoreRecord(store) {
  try {
    const r = JSON.parse(readFileSync(join(store, STORE_RECORD), 'utf8'));
    return r && typeof r === 'object' && r.version === 1 ? r : null;
  } catch {
    return null;
  }
}

/** A path as a project keeps it: relative to the root when inside it (so a copied project stays its own). */
export function projectPath(root, path) {
  const rel = relative(root, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

const given = (v) => (typeof v === 'string' && v.trim() ? v : undefined);

/** A remembered path against the one given: the one that applies and, when they differ, the change named. */
function rememberedOr(what, root, flag, recorded, notices) {
  const remembered = recorded ? resolve(root, recorded) : null;
  if (flag && remembered && flag !== remembered)
    notices.push(
      `${what} changed: ${projectPath(root, remembered)} → ${projectPath(root, flag)} (the store remembered the first; a run records the second)`,
    );
  return flag ?? remembered;
}

function oneModel(env) {
  const baseURL = given(env.CDP_LLM_BASE_URL);
  if (!baseURL) return null;
  const v = (k) => given(env[k])?.trim() ?? null;
  return {
    baseURL: baseURL.trim(),
    model: v('CDP_LLM_MODEL'),
    contextWindow: v('CDP_LLM_CONTEXT_WINDOW'),
    concurrency: v('CDP_LLM_CONCURRENCY'),
  };
}

/**
 * The options of a command: parsed flags over their environment fallbacks, over what the store
 * remembers, over the defaults. Paths are absolute (flags relative to cwd). `corpus` is null when
 * neither given nor remembered: the configuration's own default applies (load.ts). Problems stop
 * the command; notices are printed (a remembered corpus or models file replaced by another).
 */
export function resolveInvocation(flags, env, cwd) {
  const problems = [];
  const notices = [];
  const config = findConfig(cwd, flags.config);
  const root = dirname(config);
  const name = configName(config);
  const at = (v) => (given(v) ? resolve(cwd, v) : undefined);
  const where = locations(root, name, {
    store: at(flags.store ?? env.CDP_STORE),
    warehouse: at(flags.warehouse ?? env.CDP_WAREHOUSE),
    reports: at(flags.reports),
  });
  const record = readStoreRecord(where.store);
  const own = projectPath(root, config);
  if (record && record.config && record.config !== own)
    problems.push(
      `the store ${where.store} belongs to ${record.config}, not ${own}: each configuration has its own (default ${locations(root, name).store}); pass --store DIR for another`,
    );
  for (const [k, flag] of Object.entries(RETIRED))
    if (given(env[k])) problems.push(`${k} is set, but options are flags now: pass ${flag} instead, and unset ${k}`);
  let limit = null;
  if (flags.limit !== undefined) {
    if (/^\s*[1-9]\d*\s*$/.test(String(flags.limit))) limit = Number(flags.limit);
    else problems.push(`--limit must be a positive whole number of cases, got "${flags.limit}"`);
  }
  const options = {
    config,
    name,
    root,
    ...where,
    corpus: rememberedOr('corpus', root, at(flags.corpus) ?? null, record?.corpus, notices),
    models: rememberedOr('models file', root, at(flags.models ?? env.CDP_MODELS) ?? null, record?.models, notices),
    limit,
    simulated: flags.simulated === true,
    sets: [...(flags.set ?? [])],
    callCache: at(flags.callCache ?? env.CDP_LLM_CACHE) ?? join(root, 'data', 'llm-cache'),
    llm: oneModel(env),
  };
  return { options, notices, problems };
}

const sha = (s) => createHash('sha256').update(s).digest('hex');

/** The hash of a command's options, as the no-op fingerprint keeps them (no key is among them). */
export function optionsHash(options) {
  return sha(JSON.stringify(options));
}

/** Where the no-op fingerprint of a store lives: in the store, so that each store has its own and takes it along. */
export function fingerprintPath(options) {
  return join(options.store, 'noop-fingerprint.json');
}

/** The environment variables a configuration read through its options: values by hash, keys by presence only. */
export function envReadsHash(reads, env) {
  return sha(JSON.stringify([reads.values.map((k) => [k, env[k] ?? null]), reads.present.map((k) => [k, !!env[k]])]));
}
