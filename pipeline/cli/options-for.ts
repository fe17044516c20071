/** Options for a program or a test, as the CLI would make them with no flags, `given` laid over them. */
import { dirname } from 'node:path';
import { configName, locations } from './invocation.mjs';
import { defaults, recordingEnv, type Options, type ResolvedOptions } from '../dag/options.ts';

export function optionsFor(
  config: string,
  given: Partial<Omit<ResolvedOptions, 'config' | 'name' | 'root'>> & { env?: Readonly<Record<string, string | undefined>> } = {},
): Options {
  const { env, ...rest } = given;
  const root = dirname(config);
  const name = configName(config);
  return { config, name, root, ...locations(root, name), ...defaults, ...rest, env: recordingEnv(env ?? {}) };
}
