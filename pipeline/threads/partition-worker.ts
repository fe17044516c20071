/**
 * A pure partitioned table stage's partition on a worker thread (or inline, through the same
 * function): the stage module imported by its path, its `run` called with the partition's rows
 * and the inputs every partition shares, in a context of the stage's params and `partition`. The
 * context has no LLM client (a pure stage calls none) and collects what the stage logs, which
 * goes back with the rows and is printed by the main thread.
 */
import type { Columns, Row } from '../dag/define.ts';
import type { StageImpl, TableStage } from '../dag/stage.ts';
import { guardInputs } from '../dag/inputs.ts';
import { guardedRows } from '../exec/projected-rows.ts';
import { stageModule, workerContext } from './worker-stage.ts';
import type { SourcePlace } from '../exec/source-files.ts';
import { inputsFromColumns, type CrossingRows } from './row-columns.ts';

/** What every partition of one stage run shares: sent once to each worker. */
export interface PartitionShared {
  module: string;
  stage: string;
  root: string;
  files: readonly SourcePlace[];
  params: Record<string, unknown>;
  /** The inputs every partition takes whole (plain rows: of a declared `reads`, those columns only), as they cross. */
  whole: Record<string, CrossingRows>;
  /** Per input the stage declares `reads` of: those columns and every column the input has (the read guard's). */
  reads: Record<string, { columns: readonly string[]; known: Columns }>;
  persist: boolean;
  retrying: readonly string[];
}

export interface PartitionItem {
  /** The partition's key (`ctx.partition`); none for a whole-table stage's one call. */
  key?: string;
  /** Its rows of each partitioned input, as they cross. */
  rows: Record<string, CrossingRows>;
}

export interface PartitionResult {
  rows: Row[];
  logs: string[];
}

const notTable = (impl: StageImpl | undefined) => (impl?.kind === 'table' ? null : 'is not a table stage');

/**
 * The partition's rows, or a whole-table stage's (an item without a key: all its inputs are the
 * shared value). A promise only while the module loads, or when the stage's `run` is async.
 */
export function runPartition(item: PartitionItem, shared: PartitionShared): PartitionResult | Promise<PartitionResult> {
  const impl = stageModule(shared.module, notTable);
  return impl instanceof Promise
    ? impl.then((i) => partitionOf(i as TableStage, item, shared))
    : partitionOf(impl as TableStage, item, shared);
}

/** What the stage derives once from the inputs every partition takes whole (`Partitioning.common`), as context members. */
export function commonOf(impl: TableStage, stage: string, whole: Record<string, Row[]>, params: unknown): { common?: unknown } {
  const derive = impl.partition?.common;
  if (!derive) return {};
  return { common: derive(guardInputs(stage, 'input', { ...whole }, Object.keys(whole)), params as never) };
}

/** Per stage run (its shared value): the whole inputs as rows, and what the stage derived once from them. */
const derived = new WeakMap<PartitionShared, { whole: Record<string, Row[]>; common: { common?: unknown } }>();

function partitionOf(impl: TableStage, item: PartitionItem, shared: PartitionShared): PartitionResult | Promise<PartitionResult> {
  const logs: string[] = [];
  let once = derived.get(shared);
  if (!once) {
    const whole = inputsFromColumns(shared.whole);
    derived.set(shared, (once = { whole, common: commonOf(impl, shared.stage, guarded(shared, whole), shared.params) }));
  }
  const ctx = { ...workerContext(shared, logs, item.key), ...once.common };
  const given = guarded(shared, { ...once.whole, ...inputsFromColumns(item.rows) });
  const rows = impl.run(guardInputs(shared.stage, 'input', given, Object.keys(given)), ctx);
  return rows instanceof Promise ? rows.then((r) => ({ rows: r, logs })) : { rows, logs };
}

/** The same guards as on the main thread (CDP_CHECK_READS): the rows came as plain copies. */
function guarded(shared: PartitionShared, inputs: Record<string, Row[]>): Record<string, Row[]> {
  const given: Record<string, Row[]> = { ...inputs };
  for (const [name, r] of Object.entries(shared.reads)) {
    if (given[name]) given[name] = guardedRows(shared.stage, name, r.known, r.columns, given[name]);
  }
  return given;
}
