/**
 * The `cdp` program assembled: the options every command takes (invocation.mjs's table, parsed
 * once by commander), the runner's commands (commands/) and the project's, each given one way to
 * load its project from those options.
 */
import { Command } from 'commander';
import type { CliFlags } from '../dag/options.ts';
import { OPTION_FLAGS } from './invocation.mjs';
import { loadOptions, loadProject, type CommandOptions, type Project } from './load.ts';
import type { RegisterCommand } from './config-exports.ts';

export function buildProgram(commands: readonly RegisterCommand[]): Command {
  const program = new Command();
  program.name('cdp').description('Run and inspect a DAG of content-addressed stages');
  for (const o of OPTION_FLAGS) {
    const description = o.env ? `${o.description} (else ${o.env})` : o.description;
    if (o.repeatable) program.option(o.flags, description, (v: string, prev: string[]) => [...prev, v], [] as string[]);
    else program.option(o.flags, description);
  }
  const noted = <T extends { notices: string[] }>(p: T): T => {
    for (const n of p.notices) process.stderr.write(`note: ${n}\n`);
    return p;
  };
  let loaded: Promise<Project> | null = null;
  const project = (): Promise<Project> => (loaded ??= loadProject(program.opts<CliFlags>()).then(noted));
  let optionsLoaded: Promise<CommandOptions> | null = null;
  const options = (): Promise<CommandOptions> => (optionsLoaded ??= loadOptions(program.opts<CliFlags>()).then(noted));
  for (const register of commands) register(program, project, options);
  return program;
}
