/**
 * The units of a row stage that run, run: in lanes (unit-lanes.ts), each lane's units taken in
 * plan order by as many workers as the lane is wide, so units waiting on one lane's server never
 * hold up another lane's. A finished unit's rows go to the memo at once, committed in batches
 * (every `commitEvery` units and at least every second), so a killed run resumes where it stopped.
 * `computeUnit` is the one place a unit's function is called.
 */
import type { Row } from '../dag/define.ts';
import type { StageContext, Unit } from '../dag/stage.ts';
import { unitCaller } from '../threads/row-units.ts';
import { errorMessage } from '../store/disk-full.ts';
import type { RowStoreWriter } from '../store/row-store.ts';
import type { LazyMemo } from './lazy-memo.ts';
import type { RowShape } from './row-shape.ts';
import type { Plan, RowStageEnv } from './runner-types.ts';
import { laneWidths, unitLanes } from './unit-lanes.ts';
import type { UnitInputs } from './unit-plans.ts';
import type { Todo } from './unit-reuse.ts';
import { checkRows, failureRow } from './unit-rows.ts';

/** One unit's rows: what its function returns, checked against the columns, or a failure row saying why there are none. */
export async function computeUnit(
  shape: RowShape,
  inputs: UnitInputs,
  p: Todo,
  ctx: StageContext,
  store: string,
  // On the main thread, or on a worker for a pure stage (pipeline/threads/row-units.ts).
  call: (unit: Unit) => Row | Row[] | Promise<Row | Row[]> = (unit) => shape.impl.run(unit, ctx),
): Promise<Row[]> {
  const { name, stage } = shape;
  try {
    const got = await call({ row: p.row, cross: p.cross, joined: inputs.joinedOf(p.joined), whole: inputs.whole });
    const rows = Array.isArray(got) ? got : [got];
    checkRows(name, stage, rows);
    return rows;
  } catch (err) {
    return [failureRow(stage, p, errorMessage(err, { dir: store, what: `a unit of '${name}' was writing` }) || String(err))];
  }
}

export interface UnitPoolJob {
  env: RowStageEnv;
  shape: RowShape;
  inputs: UnitInputs;
  todo: readonly Todo[];
  memo: LazyMemo;
  /** Where the rows of units go when nothing is persisted (an ephemeral run). */
  results: Map<Plan, Row[]>;
  ctx: StageContext;
  /** Units in the stage, and those already done before any runs (for progress events). */
  total: number;
  done: number;
}

/**
 * Runs the job's units; resolves when every worker has stopped (all done, or the run aborted),
 * with the units done and a promise that settles once their memo file is fsynced (awaited by the
 * caller before the stage counts as done, so the fsync overlaps the artifact's writing).
 */
export async function runUnitPool(job: UnitPoolJob): Promise<{ done: number; durable: Promise<void> }> {
  const { env, shape, todo, ctx } = job;
  const commits = new MemoCommits(env.ephemeral || !todo.length ? null : job.memo.writer(), shape.stage.decl.commitEvery);
  let done = job.done;
  const finish = (p: Todo, rows: Row[]) => {
    if (commits.writer) job.memo.units.add(p.key, commits.writer.append(p.key, rows));
    else job.results.set(p, rows);
    done++;
    commits.tick();
    env.emit({ type: 'stage-progress', stage: shape.name, done, total: job.total });
  };
  const lanes = unitLanes(todo, shape.stage.decl);
  const widths = laneWidths(lanes, shape.stage.decl);
  const calls = unitCaller(env.threads, shape.stage, ctx.root, ctx, job.inputs.whole, todo.length);
  const worker = async (queue: readonly Todo[], next: { at: number }): Promise<void> => {
    while (next.at < queue.length && !ctx.signal.aborted) {
      const p = queue[next.at++];
      finish(p, await computeUnit(shape, job.inputs, p, ctx, env.store, calls.call));
    }
  };
  try {
    const running: Promise<void>[] = [];
    for (const [lane, queue] of lanes) {
      const next = { at: 0 };
      for (let w = 0; w < calls.width(widths.get(lane)!); w++) running.push(worker(queue, next));
    }
    await Promise.all(running);
  } catch (err) {
    await commits.writer?.closeAsync();
    throw err;
  } finally {
    calls.close();
  }
  return { done, durable: commits.writer?.closeAsync() ?? Promise.resolve() };
}

/** The memo's commits: every `every` units and at least once a second. */
class MemoCommits {
  private readonly every: number;
  private since = 0;
  private last = Date.now();

  constructor(
    readonly writer: RowStoreWriter | null,
    every: number | undefined,
  ) {
    this.every = Math.max(1, every ?? 50);
  }

  tick(): void {
    this.since++;
    if (this.since >= this.every || Date.now() - this.last > 1000) {
      this.writer?.commit();
      this.since = 0;
      this.last = Date.now();
    }
  }
}
