/**
 * A command's project: the configuration module imported, its options resolved from the command
 * line (invocation.mjs) and its own defaults, its DAG built from them and validated, and the
 * workspace of its store.
 */
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { asDefinition } from '../dag/definition.ts';
import { recordingEnv, type CliFlags, type Options } from '../dag/options.ts';
import { resolveDag, type ResolvedDag } from '../dag/validate.ts';
import { parseOverrides } from '../dag/overrides.ts';
import { workspaceFor, type Workspace } from '../exec/workspace.ts';
import { resolveInvocation, type EnvReads } from './invocation.mjs';
import { projectExtensions, type ConfigModule, type Extensions } from './config-exports.ts';

export interface Project {
  dag: ResolvedDag;
  ws: Workspace;
  configFile: string;
  /** The `--set stage.param=value` overrides the DAG was resolved with, as given. */
  sets: string[];
  /** The options the DAG was built from. */
  options: Options;
  /** The environment variables the configuration read through `options.env` (for the no-op fingerprint). */
  envReads(): EnvReads;
  /** What the configuration module adds besides its DAG: its LLM client, views and commands. */
  extensions: Extensions;
  /** Said before the command runs: a remembered corpus or models file replaced by the one given. */
  notices: string[];
  /** The command line as given, to resolve the options again once the store has recorded them. */
  invocation: { flags: CliFlags; cwd: string };
}

/** A command line that cannot be run: each problem says what to change. */
export class InvocationError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.length === 1 ? problems[0]! : `${problems.length} problems:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'InvocationError';
  }
}

export async function importConfig(file: string): Promise<ConfigModule> {
  return (await import(pathToFileURL(file).href)) as ConfigModule;
}

/**
 * What a command knows before its DAG is built: the configuration module, the options resolved
 * from the command line, the store and the configuration's own defaults, and the workspace. A
 * command that only reads the options (`cdp models`) uses this, so that a configuration whose
 * DAG cannot be built (a role nobody plays leaves a stage without its judges) still shows them.
 */
export interface CommandOptions {
  options: Options;
  ws: Workspace;
  mod: ConfigModule;
  notices: string[];
  envReads(): EnvReads;
}

export async function loadOptions(
  flags: CliFlags,
  o: { cwd?: string; env?: Readonly<Record<string, string | undefined>> } = {},
): Promise<CommandOptions> {
  const cwd = o.cwd ?? process.cwd();
  const env = o.env ?? process.env;
  const inv = resolveInvocation(flags, env, cwd);
  if (inv.problems.length) throw new InvocationError(inv.problems);
  const mod = await importConfig(inv.options.config);
  const def = asDefinition(mod.default);
  if (!def) throw new Error(`${inv.options.config} must export default defineDag((options) => ({ sources, stages }))`);
  const { root } = inv.options;
  const view = recordingEnv(env);
  const corpus = inv.options.corpus ?? (def.defaults.corpus ? resolve(root, def.defaults.corpus) : null);
  const options: Options = { ...inv.options, corpus, env: view };
  const ws = workspaceFor(root, { store: options.store, warehouse: options.warehouse, llmCache: options.callCache ?? undefined });
  return { options, ws, mod, notices: inv.notices, envReads: view.reads };
}

export async function loadProject(
  flags: CliFlags,
  o: { cwd?: string; env?: Readonly<Record<string, string | undefined>> } = {},
): Promise<Project> {
  const c = await loadOptions(flags, o);
  const overrides = parseOverrides(flags.set);
  const def = asDefinition(c.mod.default)!;
  const dag = await resolveDag(def.build(c.options), c.options.root, { overrides, file: basename(c.options.config) });
  return {
    dag,
    ws: c.ws,
    configFile: c.options.config,
    sets: overrides.map((x) => x.text),
    options: c.options,
    envReads: c.envReads,
    extensions: projectExtensions(c.mod),
    notices: c.notices,
    invocation: { flags, cwd: o.cwd ?? process.cwd() },
  };
}
