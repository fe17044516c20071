/**
 * A project's own stage declarations, for tests that run part of its DAG from a temporary root:
 * the named stages of a config, with module paths made absolute and some params overridden.
 * Tests then exercise exactly what the config declares instead of a copy that can drift.
 */
import { isAbsolute, join } from 'node:path';
import type { DagConfig, StageDecl } from '../dag/define.ts';

export function configStages(
  config: DagConfig,
  names: readonly string[],
  root: string,
  params: Record<string, Record<string, unknown>> = {},
): StageDecl[] {
  return names.map((name) => {
    const decl = config.stages.find((s) => s.name === name);
    if (!decl) throw new Error(`configStages: the config declares no stage '${name}'`);
    return {
      ...decl,
      module: isAbsolute(decl.module) ? decl.module : join(root, decl.module),
      params: params[name] ? { ...decl.params, ...params[name] } : decl.params,
    };
  });
}
