/**
 * Checks a DAG config before anything runs and loads each stage's module. Every problem is
 * collected, so one run of `cdp` reports all of them, each naming the stages involved.
 */
import { Graph, alg } from '@dagrejs/graphlib';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { normaliseForEach, type DagConfig, type StageDecl, type ForEach, type Columns } from './define.ts';
import type { StageImpl } from './stage.ts';
import { resolveParams } from './params.ts';
import { inputProblems } from './inputs.ts';
import { applyOverrides, overrideProblems, type ParamOverride } from './overrides.ts';

export class DagConfigError extends Error {
  constructor(
    readonly problems: string[],
    what = 'dag.config.ts',
  ) {
    super(`${what} has ${problems.length} problem${problems.length > 1 ? 's' : ''}:\n` + problems.map((p) => `  - ${p}`).join('\n'));
    this.name = 'DagConfigError';
  }
}

export interface ResolvedStage {
  /** The config's declaration, its `params` merged over the module's declared defaults. */
  decl: StageDecl;
  forEach?: ForEach;
  impl: StageImpl;
  /** Output columns, with the implicit `error` column of row-mapped stages. */
  columns: Columns;
}

export interface ResolvedDag {
  root: string;
  config: DagConfig;
  graph: Graph;
  /** Sources and stages in dependency order. */
  order: string[];
  stages: Map<string, ResolvedStage>;
  sources: Set<string>;
}

/** Validates the shape of the graph: names, inputs, cycles. Pure; does not load modules. */
export function checkGraph(config: DagConfig): { graph: Graph; problems: string[] } {
  const problems: string[] = [];
  const graph = new Graph({ directed: true });
  const sourceNames = Object.keys(config.sources ?? {});
  for (const s of sourceNames) graph.setNode(s, { kind: 'source' });
  const seen = new Map<string, number>();
  for (const st of config.stages ?? []) {
    if (!st.name || !/^[a-z_][a-z0-9_]*$/.test(st.name)) {
      problems.push(`stage name '${st.name}' must be lower_snake_case (it becomes a warehouse view name)`);
    }
    seen.set(st.name, (seen.get(st.name) ?? 0) + 1);
    if (sourceNames.includes(st.name)) problems.push(`duplicate name '${st.name}': it names both a source and a stage`);
    graph.setNode(st.name, { kind: 'stage' });
  }
  for (const [name, count] of seen) if (count > 1) problems.push(`duplicate name '${name}': ${count} stages are called so`);
  const known = [...sourceNames, ...(config.stages ?? []).map((s) => s.name)];
  for (const st of config.stages ?? []) {
    const inputs = st.inputs ?? {};
    for (const [local, target] of Object.entries(inputs)) {
      if (!graph.hasNode(target)) {
        problems.push(
          `stage '${st.name}' input '${local}' refers to unknown '${target}' (known sources and stages: ${known.join(', ') || 'none'})`,
        );
      } else if (target === st.name) {
        problems.push(`stage '${st.name}' takes itself as input '${local}'`);
      } else {
        graph.setEdge(target, st.name);
      }
    }
    const forEach = normaliseForEach(st.forEach);
    if (forEach) {
      if (!(forEach.input in inputs))
        problems.push(
          `stage '${st.name}' maps over '${forEach.input}', which is not one of its inputs (${Object.keys(inputs).join(', ') || 'none'})`,
        );
      for (const j of Object.keys(forEach.join ?? {})) {
        if (!(j in inputs)) problems.push(`stage '${st.name}' joins '${j}', which is not one of its inputs`);
        if (j === forEach.input) problems.push(`stage '${st.name}' joins its driving input '${j}' with itself`);
      }
      if (forEach.cross && !Array.isArray(st.params?.[forEach.cross.param])) {
        problems.push(`stage '${st.name}' crosses param '${forEach.cross.param}', which must be an array in its params`);
      }
    }
    if (!st.module) problems.push(`stage '${st.name}' has no module (the file that exports its code)`);
  }
  if (!alg.isAcyclic(graph)) {
    for (const cycle of orderedCycles(graph)) problems.push(`cycle: ${[...cycle, cycle[0]].join(' → ')}`);
  }
  return { graph, problems };
}

/** Each cycle as the sequence of its stages along the edges (graphlib's findCycles gives sets). */
function orderedCycles(graph: Graph): string[][] {
  const out: string[][] = [];
  for (const members of alg.findCycles(graph)) {
    const inCycle = new Set(members);
    const start = [...members].sort()[0];
    const path = [start];
    // Walk successors inside the strongly connected component back to the start.
    const visited = new Set([start]);
    const walk = (node: string): boolean => {
      for (const next of (graph.successors(node) ?? []).slice().sort()) {
        if (next === start && path.length > 0) return true;
        if (!inCycle.has(next) || visited.has(next)) continue;
        visited.add(next);
        path.push(next);
        if (walk(next)) return true;
        path.pop();
      }
      return false;
    };
    walk(start);
    out.push(path);
  }
  return out;
}

export interface ResolveOptions {
  /** Param values from the command line (`cdp run --set stage.param=value`), checked and keyed like the config's. */
  overrides?: readonly ParamOverride[];
  /** The configuration's file name, as problems name it (default dag.config.ts). */
  file?: string;
}

/** Validates the config and loads every stage's module; throws DagConfigError listing all problems. */
export async function resolveDag(given: DagConfig, root: string, opts: ResolveOptions = {}): Promise<ResolvedDag> {
  const overrides = opts.overrides ?? [];
  const applied = applyOverrides(given, overrides);
  const config = applied.config;
  const { graph, problems } = checkGraph(config);
  problems.push(...applied.problems);
  const givenParams = new Map((given.stages ?? []).map((s) => [s.name, s.params]));
  const stages = new Map<string, ResolvedStage>();
  for (const decl of config.stages ?? []) {
    if (!decl.module) continue;
    const file = resolve(root, decl.module);
    if (!existsSync(file)) {
      problems.push(`stage '${decl.name}': module '${decl.module}' does not exist`);
      continue;
    }
    let impl: StageImpl | undefined;
    try {
      impl = ((await import(pathToFileURL(file).href)) as { default?: StageImpl }).default;
    } catch (err) {
      problems.push(`stage '${decl.name}': module '${decl.module}' failed to load: ${(err as Error).message}`);
      continue;
    }
    if (!impl || (impl.kind !== 'table' && impl.kind !== 'row')) {
      problems.push(`stage '${decl.name}': module '${decl.module}' must export default tableStage({...}) or rowStage({...})`);
      continue;
    }
    if (!impl.columns || !Object.keys(impl.columns).length) {
      problems.push(`stage '${decl.name}': its output has no rows schema (give ${impl.kind}Stage a non-empty 'columns')`);
      continue;
    }
    const forEach = normaliseForEach(decl.forEach);
    if (forEach && impl.kind !== 'row')
      problems.push(`stage '${decl.name}' declares forEach but '${decl.module}' exports a tableStage; export rowStage instead`);
    if (!forEach && impl.kind === 'row')
      problems.push(`stage '${decl.name}': '${decl.module}' exports a rowStage, so the config must say what it maps over (forEach)`);
    const columns = impl.kind === 'row' && !('error' in impl.columns) ? { ...impl.columns, error: 'VARCHAR' } : impl.columns;
    const reads = impl.kind === 'table' ? impl.reads : undefined;
    problems.push(
      ...inputProblems({
        stage: decl.name,
        module: decl.module,
        kind: impl.kind,
        declared: impl.inputs,
        bound: decl.inputs ?? {},
        forEach,
        reads,
        partitionBy: impl.kind === 'table' && impl.partition ? Object.keys(impl.partition.by) : undefined,
      }),
    );
    const declared = impl.params as Record<string, unknown> | undefined;
    const fromConfig = givenParams.get(decl.name);
    const bad = overrideProblems(decl.name, declared, fromConfig, overrides);
    problems.push(...bad.problems);
    // An unknown param set on the command line is reported once, as the --set's problem.
    const params = Object.fromEntries(Object.entries(decl.params ?? {}).filter(([k]) => !bad.unknown.has(k) || k in (fromConfig ?? {})));
    const resolved = resolveParams(decl.name, declared, params, { origin: setBy(decl.name, overrides), module: decl.module });
    problems.push(...resolved.problems);
    stages.set(decl.name, { decl: { ...decl, params: resolved.params }, forEach, impl, columns });
  }
  // The configuration's own problems (a models file that does not validate) come first: they are
  // usually why a computed param is out of its range (no judge configured: an empty judges list).
  const file = opts.file ?? 'dag.config.ts';
  if (problems.length) throw new DagConfigError([...(given.problems ?? []), ...problems], overrides.length ? `${file} with --set` : file);
  return { root, config, graph, order: alg.topsort(graph), stages, sources: new Set(Object.keys(config.sources)) };
}

/** Where a param's value came from: the last `--set` of it, else dag.config.ts. */
function setBy(stage: string, overrides: readonly ParamOverride[]): (param: string) => string {
  return (param) => {
    const last = overrides.filter((o) => o.stage === stage && o.param === param).at(-1);
    return last ? `--set ${last.text}` : 'dag.config.ts';
  };
}
