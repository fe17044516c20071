/**
 * How a partitioned table stage's partitions are called: inline, as always, or — for a stage whose
 * module declares `pure: true` — on the run's worker pool, once the partitions' work is worth it
 * (task.ts, each partition weighed by its rows). The inputs every partition shares go once to each
 * worker as the task's shared value, each partition's rows as an item, both column by column
 * (row-columns.ts); of an input the stage declares `reads` of, only those columns cross. Either
 * way the rows come back to the caller, which commits them on the main thread, so where a
 * partition ran never shows in what it made.
 */
import { fileURLToPath } from 'node:url';
import type { Columns, Row } from '../dag/define.ts';
import type { StageContext, TableStage } from '../dag/stage.ts';
import { guardInputs } from '../dag/inputs.ts';
import { IN_FLIGHT } from './protocol.ts';
import type { ThreadPool } from './pool.ts';
import type { TaskRunner } from './task.ts';
import { knownStage } from './worker-stage.ts';
import { placesOf } from '../exec/source-files.ts';
import { inputsToColumns } from './row-columns.ts';
import { commonOf, type PartitionItem, type PartitionResult, type PartitionShared } from './partition-worker.ts';

/**
 * Rows of partitions beyond which they go to the workers without one timed inline first. The
 * statistics' partitions cost about 40 µs a row (profiled at the paper's size), so this is about
 * 4 s of work: near the pool's cold bar (task.ts), far beyond its warm one.
 */
export const THREADED_ROWS = 100_000;

const WORKER_FN = { module: fileURLToPath(new URL('./partition-worker.ts', import.meta.url)), fn: 'runPartition' };

/** What the runner knows of the stage beyond its module: where it is, its inputs' declared columns. */
export interface PartitionStageInfo {
  /** The stage module's absolute path (a worker imports it). */
  module: string;
  impl: TableStage;
  /** Every column an input has (what the read guard refuses beyond the stage's `reads`). */
  columnsOf(input: string): Columns;
}

export interface PartitionCaller {
  /**
   * One partition's rows, as the stage's `run` returns them; `weight` is its rows (the work it
   * stands for). No key: a whole-table stage's one call, on the inputs given as `whole`.
   */
  call(key: string | undefined, rows: Record<string, Row[]>, weight: number): Promise<Row[]>;
  /** Partitions worth having in flight. */
  width: number;
  /** Whether partitions may go to the workers (the order they are taken in then matters). */
  threadable: boolean;
  counts(): { inline: number; threaded: number };
  close(): void;
}

/** Whether the stage's partitions may run on worker threads: declared pure, and its params copy across threads. */
export function threadableTable(impl: TableStage, params: unknown): boolean {
  if (impl.pure !== true) return false;
  try {
    structuredClone(params ?? {});
    return true;
  } catch {
    return false;
  }
}

/**
 * Rows with only `columns` (in the row's own order) and no read guard: what crosses to a worker.
 * Rows that have no other column already, unguarded, cross as they are. Copying first pays:
 * reading the columns straight out of a shared projection's wide rows was slower (3 statistics
 * forced at the paper's size: 42 s against 39 s), its keyed reads over rows of many shapes.
 */
function plainRows(rows: readonly Row[], columns: readonly string[] | undefined): Row[] {
  if (!columns) return rows as Row[];
  const wanted = new Set(columns);
  const only = (r: Row) => {
    for (const k in r) if (!wanted.has(k)) return false;
    return true;
  };
  if (process.env.CDP_CHECK_READS !== '1' && rows.every(only)) return rows as Row[];
  return rows.map((r) => {
    const out: Row = {};
    for (const k in r) if (wanted.has(k)) out[k] = r[k];
    return out;
  });
}

export function partitionCaller(
  pool: ThreadPool | undefined,
  info: PartitionStageInfo,
  ctx: StageContext,
  whole: Record<string, Row[]>,
  expected: { partitions: number; weight: number },
  width: number,
): PartitionCaller {
  const { impl } = info;
  const counts = { inline: 0, threaded: 0 };
  if (!pool?.threaded || !threadableTable(impl, ctx.params)) {
    let common: { common?: unknown } | undefined;
    return {
      async call(key, rows) {
        counts.inline++;
        common ??= commonOf(impl, ctx.stage, whole, ctx.params);
        const given = { ...whole, ...rows };
        const at = key === undefined ? {} : { partition: key };
        return impl.run(guardInputs(ctx.stage, 'input', given, Object.keys(given)), { ...ctx, ...at, ...common });
      },
      width,
      threadable: false,
      counts: () => counts,
      close: () => {},
    };
  }
  const reads = impl.reads ?? {};
  const shared: PartitionShared = {
    module: info.module,
    stage: ctx.stage,
    root: ctx.root,
    files: placesOf(ctx.file),
    params: ctx.params,
    whole: inputsToColumns(Object.fromEntries(Object.entries(whole).map(([n, r]) => [n, plainRows(r, reads[n])]))),
    reads: Object.fromEntries(Object.entries(reads).map(([n, columns]) => [n, { columns, known: info.columnsOf(n) }])),
    persist: ctx.persist,
    retrying: ctx.retrying ?? [],
  };
  knownStage(info.module, impl);
  // A partition is large: one timed inline tells its cost per row, and each goes out alone (the
  // workers then share them out evenly, the largest first). Partitions of many rows skip the
  // probe: it would hold the main thread, which reads and commits for the other stages, for
  // seconds while the workers wait.
  const straight = expected.weight >= THREADED_ROWS ? { coldMs: 0, warmMs: 0 } : {};
  const task: TaskRunner<PartitionItem, PartitionResult> = pool.task(
    { ...WORKER_FN, shared, expected: expected.partitions, weight: expected.weight },
    { probe: 1, batchMs: 0, ...straight },
  );
  return {
    async call(key, rows, weight) {
      const crossing = inputsToColumns(Object.fromEntries(Object.entries(rows).map(([n, r]) => [n, plainRows(r, reads[n])])));
      const item: PartitionItem = key === undefined ? { rows: crossing } : { key, rows: crossing };
      const got = await task.run(item, weight);
      for (const m of got.logs) ctx.log(m);
      return got.rows;
    },
    // Enough to keep every worker busy; each partition's copy is made only when its turn comes.
    width: Math.max(width, pool.size * IN_FLIGHT),
    threadable: true,
    counts: () => task.counts,
    close: () => task.close(),
  };
}
