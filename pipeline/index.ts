/** The runner's public API for `dag.config.ts` and for programs that drive a DAG. */
export { stage, files } from './dag/define.ts';
export { defineDag } from './dag/definition.ts';
export type { DagConfig, StageDecl, FileSource, ForEach, Columns, Row } from './dag/define.ts';
export type { DagDefinition } from './dag/definition.ts';
export { defaults } from './dag/options.ts';
export type { Options, ResolvedOptions, ConfigDefaults, EnvView, OneModel } from './dag/options.ts';
export { optionsFor } from './cli/options-for.ts';
export { projectPath } from './cli/invocation.mjs';
export { configInput } from './dag/config-inputs.ts';
export { resolveDag, DagConfigError, checkGraph } from './dag/validate.ts';
export { runDag } from './exec/executor.ts';
export type { RunOptions, RunSummary, StageResult, RunEvent } from './exec/executor.ts';
export { workspaceFor } from './exec/workspace.ts';
