/**
 * A partitioned table stage's run (`partition` in its module; dag/stage.ts): its inputs cut into
 * partitions (partitions.ts), each partition keyed by what every partition shares (code, params,
 * the inputs handed whole) and its own rows' content. A partition whose key the memo holds is
 * taken from there; the others are computed, a few at once, and committed to the memo. The
 * result is the partitions' rows put together in key order and sorted by the stage's `order`:
 * the rows one call over every row would give, so a change costs the partitions it touches.
 */
import { join } from 'node:path';
import type { Row } from '../dag/define.ts';
import type { StageContext, TableStage } from '../dag/stage.ts';
import { guardInputs } from '../dag/inputs.ts';
import { hashValue, sha256 } from '../hash/canonical.ts';
import type { KeyComponents } from '../store/ledger.ts';
import { RowStore, type UnitLookup } from '../store/row-store.ts';
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
  try {
    await inPool(todo, spec.concurrency ?? 4, async (i) => {
      const rows = await runPartition(impl, parts[i]!, inputs, wholeNames, ctx);
      computed.set(i, rows);
      writer?.append(keys[i]!, rows);
      env.progress(fromMemo.size + computed.size, parts.length);
    });
  } catch (err) {
    await writer?.closeAsync();
    throw err;
  }
  const durable = writer?.closeAsync() ?? Promise.resolve();
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

/** A partition's rows from the memo, unless it must be computed again (forced, damaged, retried). */
function reusable(env: PartitionedEnv, memo: UnitLookup, key: string): Row[] | null {
  if (env.forced || !memo.has(key) || !memo.intact(key)) return null;
  const rows = memo.get(key)!;
  const kinds = new Set(env.retryKinds);
  const retried = (r: Row) =>
    (env.retryFailed && r.error != null) || (kinds.size > 0 && r.failure_kind != null && kinds.has(String(r.failure_kind)));
  return rows.some(retried) ? null : rows;
}

/** One call of the stage: the partition's rows of its partitioned inputs, the others whole. */
async function runPartition(
  impl: TableStage,
  part: Partition,
  inputs: Record<string, Row[]>,
  wholeNames: readonly string[],
  ctx: StageContext,
): Promise<Row[]> {
  const given = { ...Object.fromEntries(wholeNames.map((n) => [n, inputs[n]!])), ...part.rows };
  const rows = await impl.run(guardInputs(ctx.stage, 'input', given, Object.keys(given)), { ...ctx, partition: part.key });
  if (!Array.isArray(rows))
    throw new Error(`stage '${ctx.stage}' must return an array of rows, got ${typeof rows} (partition ${part.key})`);
  return rows;
}

/** Runs `work` over the items, at most `width` at once; the first failure fails the whole. */
async function inPool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
}
