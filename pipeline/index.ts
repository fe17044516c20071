/** The runner's public API for `dag.config.ts` and for programs that drive a DAG. */
export { defineDag, stage, files } from './dag/define.ts';
export type { DagConfig, StageDecl, FileSource, ForEach, Columns, Row } from './dag/define.ts';
export { configInput } from './dag/config-inputs.ts';
export { resolveDag, DagConfigError, checkGraph } from './dag/validate.ts';
export { runDag } from './exec/executor.ts';
export type { RunOptions, RunSummary, StageResult, RunEvent } from './exec/executor.ts';
export { workspaceFor } from './exec/workspace.ts';
