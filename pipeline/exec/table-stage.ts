/**
 * A whole-table stage's run: every input handed over whole (or projected to the columns the stage
 * declares it reads), its function called once, its rows one part of the artifact.
 */
import { isAbsolute, join } from 'node:path';
import { FILE_SOURCE_COLUMNS, type Columns, type Row } from '../dag/define.ts';
import { absentInputs, guardInputs } from '../dag/inputs.ts';
import type { StageContext, TableStage } from '../dag/stage.ts';
import type { ThreadPool } from '../threads/pool.ts';
import { partitionCaller } from '../threads/partition-calls.ts';
import type { ResolvedDag, ResolvedStage } from '../dag/validate.ts';
import type { KeyComponents } from '../store/ledger.ts';
import { runPartitionedStage, type PartitionedEnv } from './partitioned-stage.ts';
import type { Input, RunEvent, StageOutput } from './runner-types.ts';

export interface TableStageJob {
  name: string;
  stage: ResolvedStage;
  inputs: Record<string, Input>;
  ctx: StageContext;
  reasons: string[];
  /** An input's rows with only `columns` (shared with the other table stages reading it). */
  projected(local: string, input: Input, columns: readonly string[]): Row[];
  emit(e: RunEvent): void;
}

/** The stage's inputs as it takes them: whole or projected, an optional one left out as no rows. */
function tableInputs(job: TableStageJob): Record<string, Row[]> {
  const { name, stage, inputs } = job;
  if (stage.impl.kind !== 'table') throw new Error('unreachable');
  const reads = stage.impl.reads ?? {};
  const all = Object.fromEntries(Object.entries(inputs).map(([k, f]) => [k, reads[k] ? job.projected(k, f, reads[k]) : f.rows()]));
  // A declared optional input the config leaves out is handed over as no rows, never left undefined.
  for (const k of absentInputs(stage.impl.inputs, stage.decl.inputs).whole) all[k] = [];
  return guardInputs(name, 'input', all, Object.keys(all));
}

/** Where a pure stage may run besides the main thread: the run's pool, and what a worker needs of the stage. */
export interface TableWorkers {
  threads: ThreadPool | undefined;
  module: string;
  columnsOf(local: string): Columns;
  /** The stage's job slot lent out while its call runs on the pool (JobSlots.away). */
  away?<T>(work: Promise<T>): Promise<T>;
}

export async function runTableStage(job: TableStageJob, workers?: TableWorkers): Promise<StageOutput> {
  const { name, stage } = job;
  if (stage.impl.kind !== 'table') throw new Error('unreachable');
  job.emit({ type: 'stage-start', stage: name, total: null, reasons: job.reasons });
  const inputs = tableInputs(job);
  const rows = workers ? await onePartition(job, stage.impl, inputs, workers) : await stage.impl.run(inputs, job.ctx);
  if (!Array.isArray(rows)) throw new Error(`stage '${name}' must return an array of rows, got ${typeof rows}`);
  return { parts: [{ rows, chunk: true }], computed: rows.length, reused: 0 };
}

/**
 * A pure stage's one call, as one partition of the whole (partition-calls.ts): on the pool when
 * its rows are worth it, so that a statistic over 10^5 rows does not hold the main thread, which
 * reads and commits for every other stage; inline otherwise, or without a pool.
 */
async function onePartition(job: TableStageJob, impl: TableStage, inputs: Record<string, Row[]>, workers: TableWorkers): Promise<Row[]> {
  const weight = Math.max(
    1,
    Object.values(inputs).reduce((n, r) => n + r.length, 0),
  );
  const info = { module: workers.module, impl, columnsOf: workers.columnsOf };
  const calls = partitionCaller(workers.threads, info, job.ctx, inputs, { partitions: 1, weight }, 1);
  try {
    const call = calls.call(undefined, {}, weight);
    return await (calls.threadable && workers.away ? workers.away(call) : call);
  } finally {
    calls.close();
  }
}

/** A table stage with a `partition`: only the partitions whose rows changed are computed (partitioned-stage.ts). */
export async function runPartitionedTableStage(job: TableStageJob, env: PartitionedEnv, components: KeyComponents): Promise<StageOutput> {
  const { name, stage } = job;
  if (stage.impl.kind !== 'table') throw new Error('unreachable');
  job.emit({ type: 'stage-start', stage: name, total: null, reasons: job.reasons });
  const p = await runPartitionedStage(env, stage.impl, components, tableInputs(job), job.ctx);
  // Awaited in commit; a rejection before that is not an unhandled one.
  p.durable.catch(() => {});
  const parts = [{ rows: p.rows, chunk: true }];
  return { parts, computed: p.rowsComputed, reused: p.rowsReused, durable: p.durable, partitions: p.partitions, partitionKeys: p.keys };
}

/** What a worker needs to compute the stage's partitions: its module's path, and every column each input has (the read guard's). */
export function stageOnWorkers(dag: ResolvedDag, stage: ResolvedStage): { module: string; columnsOf(local: string): Columns } {
  const module = isAbsolute(stage.decl.module) ? stage.decl.module : join(dag.root, stage.decl.module);
  const columnsOf = (local: string) => {
    const from = stage.decl.inputs?.[local];
    return (from && dag.stages.get(from)?.columns) || FILE_SOURCE_COLUMNS;
  };
  return { module, columnsOf };
}
