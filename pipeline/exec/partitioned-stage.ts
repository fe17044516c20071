/**
 * A partitioned table stage's run (`partition` in its module; dag/stage.ts): its inputs cut into
 * partitions (partitions.ts), each partition keyed by what every partition shares (code, params,
 * the inputs handed whole) and its own rows' content. A partition whose key the memo holds is
 * taken from there; the others are computed, a few at once (on the worker pool, for a stage declared
 * `pure`: pipeline/threads/partition-calls.ts), and committed to the memo. A partition that fails
 * fails the stage, named; the others computed are committed all the same. The
 * result is the partitions' rows put together in key order and sorted by the stage's `order`:
 * the rows one call over every row would give, so a change costs the partitions it touches.
 */
import { join } from 'node:path';
import type { Columns, Row } from '../dag/define.ts';
import type { StageContext, TableStage } from '../dag/stage.ts';
import { hashValue, sha256 } from '../hash/canonical.ts';
import type { KeyComponents } from '../store/ledger.ts';
import { RowStore, type UnitLookup } from '../store/row-store.ts';
import type { ThreadPool } from '../threads/pool.ts';
import { partitionCaller } from '../threads/partition-calls.ts';
import { partitionRows, type Partition } from './partitions.ts';

export interface PartitionedEnv {
  store: string;
  /** Compute every partition (--force). */
  forced: boolean;
  retryFailed: boolean;
  /** Failure kinds whose partitions are recomputed too (a row of the partition with such a `failure_kind`). */
  retryKinds: readonly string[];
  /** Persist nothing (cdp estimate): the memo is read, not written. */
  ephemeral: boolean;
  progress(done: number, total: number): void;
  /** The run's worker pool: a stage declared `pure` computes its partitions there (pipeline/threads/partition-calls.ts). */
  threads?: ThreadPool;
  /** The stage module's absolute path (a worker imports it). */
  module: string;
  /** Every column an input of the stage has (the read guard's, on a worker). */
  columnsOf(input: string): Columns;
  /** The stage's job slot lent out while `work` runs on the pool (JobSlots.away); held throughout when absent. */
  away?<T>(work: Promise<T>): Promise<T>;
}

export interface PartitionedResult {
  rows: Row[];
  /** Partitions computed and taken from the memo; rows likewise. */
  partitions: { computed: number; reused: number };
  rowsComputed: number;
  rowsReused: number;
  /** Settles when the partitions computed are on disk (their memo file fsynced). */
  durable: Promise<void>;
  /** Every partition's memo key, in order: what the ledger records of them. */
  keys: string[];
}

/** The key of a partition: what every partition shares, then its own content. */
export function partitionKey(common: string, part: Pick<Partition, 'content'>): string {
  return sha256(`cdp-partition-unit-v1\n${common}\n${part.content}`);
}

/** What every partition of a stage shares: its code, params and shape, and the inputs it takes whole. */
export function partitionCommon(components: KeyComponents, wholeNames: readonly string[]): string {
  return hashValue({
    code: components.code.hash,
    params: components.params.hash,
    shape: components.shape,
    whole: Object.fromEntries(wholeNames.map((n) => [n, components.inputs[n]?.hash ?? null])),
  });
}

export async function runPartitionedStage(
  env: PartitionedEnv,
  impl: TableStage,
  components: KeyComponents,
  inputs: Record<string, Row[]>,
  ctx: StageContext,
): Promise<PartitionedResult> {
  const spec = impl.partition!;
  const wholeNames = Object.keys(inputs).filter((n) => !(n in spec.by));
  const common = partitionCommon(components, wholeNames);
  const parts = partitionRows(ctx.stage, spec.by, inputs, ctx.params, impl.reads);
  const memoStore = new RowStore(join(env.store, 'units', ctx.stage));
  const memo = memoStore.open();
  const keys = parts.map((p) => partitionKey(common, p));
  const fromMemo = new Map<number, Row[]>();
  const todo: number[] = [];
  try {
    parts.forEach((_, i) => {
      const hit = reusable(env, memo, keys[i]!);
      if (hit) fromMemo.set(i, hit);
      else todo.push(i);
    });
  } finally {
    memo.close();
  }
  const computed = new Map<number, Row[]>();
  const writer = env.ephemeral || !todo.length ? null : memoStore.writer();
  env.progress(fromMemo.size, parts.length);
  let failed: Failed[];
  try {
    failed = await computePartitions({ env, impl, ctx, parts, todo, whole: pick(inputs, wholeNames) }, (i, rows) => {
      computed.set(i, rows);
      writer?.append(keys[i]!, rows);
      env.progress(fromMemo.size + computed.size, parts.length);
    });
  } catch (err) {
    await writer?.closeAsync();
    throw err;
  }
  // The partitions computed stay in the memo (a rerun takes them from there); the stage fails.
  const durable = writer?.closeAsync() ?? Promise.resolve();
  if (failed.length) {
    await durable;
    throw partitionsFailed(ctx.stage, failed, todo.length, writer !== null);
  }
  const rows = parts.flatMap((_, i) => computed.get(i) ?? fromMemo.get(i)!);
  if (spec.order) rows.sort(spec.order);
  const count = (m: Map<number, Row[]>) => [...m.values()].reduce((n, r) => n + r.length, 0);
  return {
    rows,
    partitions: { computed: computed.size, reused: fromMemo.size },
    rowsComputed: count(computed),
    rowsReused: count(fromMemo),
    durable,
    keys,
  };
}

interface Failed {
  key: string;
  error: unknown;
}

interface PartitionsJob {
  env: PartitionedEnv;
  impl: TableStage;
  ctx: StageContext;
  parts: readonly Partition[];
  /** The partitions to compute, by index. */
  todo: readonly number[];
  /** The inputs every partition takes whole. */
  whole: Record<string, Row[]>;
}

/**
 * Computes the partitions `todo`, on the worker pool when the stage may use it (partition-calls.ts),
 * handing each one's rows to `done` as it comes back; a partition that fails is returned, the others go on.
 */
async function computePartitions(job: PartitionsJob, done: (i: number, rows: Row[]) => void): Promise<Failed[]> {
  const { env, impl, ctx, parts, todo } = job;
  const weights = parts.map((p) =>
    Math.max(
      1,
      Object.values(p.rows).reduce((n, r) => n + r.length, 0),
    ),
  );
  const info = { module: env.module, impl, columnsOf: env.columnsOf };
  const expected = { partitions: todo.length, weight: todo.reduce((n, i) => n + weights[i]!, 0) };
  const calls = partitionCaller(env.threads, info, ctx, job.whole, expected, impl.partition!.concurrency ?? 4);
  const failed: Failed[] = [];
  try {
    const computing = inPool(calls.threadable ? poolOrder(todo, weights) : todo, calls.width, async (i) => {
      const part = parts[i]!;
      let rows: Row[];
      try {
        rows = checked(ctx.stage, await calls.call(part.key, part.rows, weights[i]!));
      } catch (error) {
        failed.push({ key: part.key, error });
        return;
      }
      done(i, rows);
    });
    await (calls.threadable && env.away ? env.away(computing) : computing);
  } finally {
    calls.close();
  }
  return failed;
}

const pick = (inputs: Record<string, Row[]>, names: readonly string[]) => Object.fromEntries(names.map((n) => [n, inputs[n]!]));

/**
 * The order partitions go to the pool in: the smallest first (the one timed inline, from which
 * the task decides whether the rest is worth the workers), then the largest first, so the last
 * to finish is a small one and no worker waits long for another at the end.
 */
export function poolOrder(todo: readonly number[], weights: readonly number[]): number[] {
  if (todo.length < 2) return [...todo];
  const bySize = [...todo].sort((a, b) => weights[b]! - weights[a]! || a - b);
  return [bySize[bySize.length - 1]!, ...bySize.slice(0, -1)];
}

function checked(stage: string, rows: unknown): Row[] {
  if (!Array.isArray(rows)) throw new Error(`stage '${stage}' must return an array of rows, got ${typeof rows}`);
  return rows as Row[];
}

/** One error for the failed partitions: each named, with its own message. */
function partitionsFailed(stage: string, failed: readonly Failed[], total: number, kept: boolean): Error {
  const why = (e: unknown) => (e instanceof Error ? e.message : String(e));
  // By key, not by when each failed: the message is the same from run to run.
  const list = [...failed]
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, 5)
    .map((f) => `partition ${f.key}: ${why(f.error)}`)
    .join('; ');
  const more = failed.length > 5 ? `; and ${failed.length - 5} more` : '';
  const rest =
    kept && failed.length < total
      ? 'the others computed are kept in its memo, so a rerun computes only these'
      : 'fix the cause and run again';
  const err = new Error(`stage '${stage}': ${failed.length} of ${total} partitions computed failed (${list}${more}); ${rest}`);
  const first = failed[0]!.error as { code?: unknown };
  if (typeof first?.code === 'string') (err as Error & { code?: string }).code = first.code;
  return err;
}

/** A partition's rows from the memo, unless it must be computed again (forced, damaged, retried). */
function reusable(env: PartitionedEnv, memo: UnitLookup, key: string): Row[] | null {
  if (env.forced || !memo.has(key) || !memo.intact(key)) return null;
  const rows = memo.get(key)!;
  const kinds = new Set(env.retryKinds);
  const retried = (r: Row) =>
    (env.retryFailed && r.error != null) || (kinds.size > 0 && r.failure_kind != null && kinds.has(String(r.failure_kind)));
  return rows.some(retried) ? null : rows;
}

/** Runs `work` over the items in order, at most `width` at once. */
async function inPool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
}
