/**
 * Command-line options that the configuration reads as environment variables, declared by the
 * project in package.json (`"cdp": { "options": { "--models <file>": { "env": "CDP_MODELS", … } } }`).
 * The configuration is imported before commander parses anything (it also contributes
 * subcommands), so these are applied to process.env from argv first; commander then only
 * accepts them. The runner stays ignorant of what they mean.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';

export interface ConfigOption {
  /** Commander's flag syntax: "--models <file>" takes a value, "--simulated" is a switch. */
  flags: string;
  env: string;
  description: string;
  /** Values that are paths are resolved against the current directory before the config sees them. */
  path?: boolean;
}

export function readConfigOptions(projectRoot: string | null): ConfigOption[] {
  if (!projectRoot) return [];
  let pkg: { cdp?: { options?: Record<string, { env?: unknown; description?: unknown; path?: unknown }> } };
  try {
    pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
  } catch {
    return [];
  }
  return Object.entries(pkg.cdp?.options ?? {}).map(([flags, o]) => {
    if (typeof o?.env !== 'string' || !/^[A-Z_][A-Z0-9_]*$/.test(o.env)) {
      throw new Error(`package.json: cdp.options["${flags}"] needs "env": the environment variable the configuration reads`);
    }
    return { flags, env: o.env, description: typeof o.description === 'string' ? o.description : '', path: o.path === true };
  });
}

const longName = (flags: string) => flags.split(/[ ,]+/).find((f) => f.startsWith('--'))!;
const takesValue = (flags: string) => /[<[]/.test(flags);

/** Sets each option found in argv (`--x v`, `--x=v`, or a bare switch) as its environment variable. */
export function applyConfigOptions(options: readonly ConfigOption[], argv: readonly string[], env: NodeJS.ProcessEnv = process.env): void {
  for (const o of options) {
    const name = longName(o.flags);
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      if (a === '--') break;
      let value: string | undefined;
      if (a === name) value = takesValue(o.flags) ? argv[i + 1] : '1';
      else if (a.startsWith(`${name}=`)) value = a.slice(name.length + 1);
      if (value === undefined) continue;
      if (takesValue(o.flags) && (value === '' || value.startsWith('--'))) throw new Error(`${name} needs a value (${o.flags})`);
      env[o.env] = o.path ? resolve(value) : value;
    }
  }
}

/** Lets commander accept the options on every command (their effect already happened). */
export function registerConfigOptions(program: Command, options: readonly ConfigOption[]): void {
  for (const o of options) program.option(o.flags, `${o.description} (sets ${o.env})`);
}
