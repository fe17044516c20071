/**
 * A project's own stage declarations, for tests that run part of its DAG from a temporary root:
 * the named stages of a config, with module paths made absolute and some params overridden.
 * Tests then exercise exactly what the config declares instead of a copy that can drift.
 */
import { isAbsolute, join } from 'node:path';
import type { DagConfig, StageDecl } from '../dag/define.ts';
import { asDefinition, type DagDefinition } from '../dag/definition.ts';
import type { ResolvedOptions } from '../dag/options.ts';
import { optionsFor } from '../cli/options-for.ts';

/** A configuration built with the options the CLI would give it with no flags (`given` over them). */
export function builtConfig(
  config: DagConfig | DagDefinition,
  root: string,
  given: Parameters<typeof optionsFor>[1] & Partial<Pick<ResolvedOptions, 'corpus'>> = {},
  file = 'dag.config.ts',
): DagConfig {
  const def = asDefinition(config)!;
  return def.build(optionsFor(join(root, file), { corpus: def.defaults.corpus ? join(root, def.defaults.corpus) : null, ...given }));
}

export function configStages(
  config: DagConfig | DagDefinition,
  names: readonly string[],
  root: string,
  params: Record<string, Record<string, unknown>> = {},
): StageDecl[] {
  const built = builtConfig(config, root);
  return names.map((name) => {
    const decl = built.stages.find((s) => s.name === name);
    if (!decl) throw new Error(`configStages: the config declares no stage '${name}'`);
    return {
      ...decl,
      module: isAbsolute(decl.module) ? decl.module : join(root, decl.module),
      params: params[name] ? { ...decl.params, ...params[name] } : decl.params,
    };
  });
}
