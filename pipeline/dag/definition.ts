/**
 * A configuration module's default export: its DAG as a function of the command's options. Kept
 * apart from define.ts, which every stage's code identity includes, so that the options' types
 * can change without rerunning every stage.
 */
import type { DagConfig } from './define.ts';
import type { ConfigDefaults, Options } from './options.ts';

/** A configuration: its DAG as a function of the options, and the defaults it declares. */
export interface DagDefinition {
  kind: 'dag-definition';
  build(options: Options): DagConfig;
  defaults: ConfigDefaults;
}

/**
 * `export default defineDag((options) => ({ sources, stages }), { corpus: 'data/sample' })`: the
 * DAG built from one options object (pipeline/dag/options.ts), never from the environment. A
 * plain DagConfig is a DAG that no option changes.
 */
export function defineDag(build: DagConfig | ((options: Options) => DagConfig), defaults: ConfigDefaults = {}): DagDefinition {
  return { kind: 'dag-definition', build: typeof build === 'function' ? build : () => build, defaults };
}

/** A config module's default export as a definition (a plain object is accepted as a fixed DAG). */
export function asDefinition(x: unknown): DagDefinition | null {
  if (x && typeof x === 'object' && (x as DagDefinition).kind === 'dag-definition') return x as DagDefinition;
  if (typeof x === 'function') return defineDag(x as (o: Options) => DagConfig);
  if (x && typeof x === 'object' && 'stages' in x) return defineDag(x as DagConfig);
  return null;
}
