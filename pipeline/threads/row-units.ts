/**
 * How a row stage's units are called: inline, as always, or — for a stage whose module declares
 * `pure: true` — on the run's worker pool, in batches, once the stage has enough work to be worth
 * it (task.ts). Either way the rows come back to the caller, which checks and commits them on the
 * main thread exactly as before, so where a unit ran never shows in what it made.
 */
import { fileURLToPath } from 'node:url';
import { isAbsolute, join } from 'node:path';
import type { Row } from '../dag/define.ts';
import type { ResolvedStage } from '../dag/validate.ts';
import type { StageContext, Unit } from '../dag/stage.ts';
import type { ThreadPool } from './pool.ts';
import type { TaskRunner } from './task.ts';
import { placesOf } from '../exec/source-files.ts';
import type { RowUnitItem, RowUnitResult, RowUnitShared } from './row-unit-worker.ts';

const WORKER_FN = { module: fileURLToPath(new URL('./row-unit-worker.ts', import.meta.url)), fn: 'runRowUnit' };

export interface UnitCaller {
  /** One unit's rows, as the stage's `run` returns them. */
  call(unit: Unit): Promise<Row | Row[]>;
  /** Units worth having in flight: enough to keep every worker busy when the stage may use them. */
  width(declared: number): number;
  /** Units computed on workers and inline (for the tests and the benchmark). */
  counts(): { inline: number; threaded: number };
  close(): void;
}

/** Whether the stage's units may run on worker threads: declared pure, and its params copy across threads. */
export function threadable(stage: ResolvedStage): boolean {
  if (stage.impl.kind !== 'row' || stage.impl.pure !== true) return false;
  try {
    structuredClone(stage.decl.params ?? {});
    return true;
  } catch {
    return false;
  }
}

export function unitCaller(
  pool: ThreadPool | undefined,
  stage: ResolvedStage,
  root: string,
  ctx: StageContext,
  whole: Record<string, Row[]>,
  expected: number,
): UnitCaller {
  const impl = stage.impl;
  if (impl.kind !== 'row') throw new Error('internal: unitCaller is for row stages');
  const inline = { inline: 0, threaded: 0 };
  if (!pool?.threaded || !threadable(stage)) {
    return {
      call: async (unit) => (inline.inline++, impl.run(unit, ctx)),
      width: (declared) => declared,
      counts: () => inline,
      close: () => {},
    };
  }
  const shared: RowUnitShared = {
    module: isAbsolute(stage.decl.module) ? stage.decl.module : join(root, stage.decl.module),
    stage: ctx.stage,
    root,
    files: placesOf(ctx.file),
    params: (stage.decl.params ?? {}) as Record<string, unknown>,
    // Plain copies: the inputs may come wrapped in read guards, which do not cross threads.
    whole: { ...whole },
    persist: ctx.persist,
    retrying: ctx.retrying ?? [],
  };
  const task: TaskRunner<RowUnitItem, RowUnitResult> = pool.task({ ...WORKER_FN, shared, expected });
  return {
    async call(unit) {
      const got = await task.run({ row: unit.row, cross: unit.cross, joined: { ...unit.joined } });
      for (const m of got.logs) ctx.log(m);
      return got.rows;
    },
    width: (declared) => Math.max(declared, pool.width),
    counts: () => task.counts,
    close: () => task.close(),
  };
}
