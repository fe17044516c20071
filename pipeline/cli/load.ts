/** Finds and loads a project's dag.config.ts, resolved and validated, with its workspace. */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DagConfig } from '../dag/define.ts';
import { resolveDag, type ResolvedDag } from '../dag/validate.ts';
import { parseOverrides } from '../dag/overrides.ts';
import { workspaceFor, type Workspace } from '../exec/workspace.ts';

export interface Project {
  dag: ResolvedDag;
  ws: Workspace;
  configFile: string;
  /** The `--set stage.param=value` overrides the DAG was resolved with, as given. */
  sets: string[];
}

/** The nearest dag.config.ts at or above `from`, unless a path is given. */
export function findConfig(from: string, explicit?: string): string {
  if (explicit) {
    const p = resolve(from, explicit);
    if (!existsSync(p)) throw new Error(`config file ${p} does not exist`);
    return p;
  }
  let dir = resolve(from);
  for (;;) {
    const p = resolve(dir, 'dag.config.ts');
    if (existsSync(p)) return p;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no dag.config.ts in ${from} or any parent directory; run cdp inside a project or pass --config`);
    dir = up;
  }
}

/**
 * The config file the command line names (`--config FILE`) or the nearest one, found before
 * commander parses anything (the config contributes commands and options); null outside a project.
 */
export function configFromArgv(argv: readonly string[] = process.argv, cwd = process.cwd()): string | null {
  const i = argv.indexOf('--config');
  try {
    return findConfig(cwd, i > 0 ? argv[i + 1] : undefined);
  } catch {
    return null;
  }
}

/** `set`: param overrides (`stage.param=value`, see dag/overrides.ts), validated with the config. */
export async function loadProject(opts: { cwd?: string; config?: string; set?: readonly string[] } = {}): Promise<Project> {
  const overrides = parseOverrides(opts.set);
  const file = findConfig(opts.cwd ?? process.cwd(), opts.config);
  const mod = (await import(pathToFileURL(file).href)) as { default?: DagConfig };
  if (!mod.default) throw new Error(`${file} must export default defineDag({...})`);
  const root = dirname(file);
  const dag = await resolveDag(mod.default, root, { overrides });
  return { dag, ws: workspaceFor(root, mod.default), configFile: file, sets: overrides.map((o) => o.text) };
}
