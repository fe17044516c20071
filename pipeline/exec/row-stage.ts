/**
 * A row-mapped stage's run: its artifact in parts, one per driving segment × crossed element. A
 * part the last run made stands as it is when what every unit shares, its driving segment and
 * the joined rows of its units are unchanged, and then neither its inputs nor its memo are read
 * (standing-parts.ts); every other part is planned unit by unit (join-index.ts, unit-plans.ts),
 * taking rows from the part it replaces (replaced-units.ts), then from the memo (unit-reuse.ts),
 * and running what neither has (unit-pool.ts). Units commit to the memo in batches as they
 * finish, so a killed run resumes where it stopped; the artifact is assembled from the parts
 * (row-artifact.ts).
 */
import type { Row } from '../dag/define.ts';
import type { StageContext } from '../dag/stage.ts';
import type { ResolvedStage } from '../dag/validate.ts';
import type { ArtifactPart } from '../store/artifacts.ts';
import type { KeyComponents, LedgerEntry, RowStageRecord } from '../store/ledger.ts';
import { joinGroups } from './join-chunks.ts';
import { joinIndexes } from './join-index.ts';
import { LazyMemo } from './lazy-memo.ts';
import { takeUpReplaced, type ReplacedUnits } from './replaced-units.ts';
import { assembleParts, rowRecord } from './row-artifact.ts';
import { rowShape, type RowShape } from './row-shape.ts';
import { ZoneBook } from './row-zones.ts';
import type { Input, Part, PendingSegment, Plan, RowStageEnv } from './runner-types.ts';
import { layoutParts, standingParts } from './standing-parts.ts';
import { planUnits, unitInputs, type UnitInputs } from './unit-plans.ts';
import { runUnitPool } from './unit-pool.ts';
import { triageUnits, unverifiedWarning } from './unit-reuse.ts';

export interface RowStageOutput {
  parts: ArtifactPart[];
  computed: number;
  reused: number;
  record?: () => RowStageRecord;
  units: Map<number, string[]>;
  unitRows: Map<number, number[]>;
  /** Settles when the units computed are on disk (their memo file fsynced). */
  durable: Promise<void>;
}

/** What a row stage's run is given besides the run around it (`env`). */
export interface RowStageJob {
  name: string;
  stage: ResolvedStage;
  components: KeyComponents;
  inputs: Record<string, Input>;
  ctx: StageContext;
  reasons: string[];
  forced: boolean;
  prev: LedgerEntry | undefined;
}

export async function runRowStage(env: RowStageEnv, job: RowStageJob): Promise<RowStageOutput> {
  const { name, ctx, forced, prev } = job;
  const shape = rowShape(env.store, name, job.stage, job.components, job.inputs);
  const zones = new ZoneBook(prev?.rowStage?.zones ?? {});
  const standing = standingParts(env, shape, prev, forced);
  const { parts, from, reusedUnits, pending } = layoutParts(env, shape, standing, zones);
  const earlier = takeUpReplaced(env, shape, prev, standing, pending);
  const inputs = unitInputs(shape);
  // A unit's rows stay on disk in the memo until the artifact is written; only failures made
  // here (and, in a run that persists nothing, computed rows) are held in memory.
  const memo = new LazyMemo(env.store, name);
  const total = pending.reduce((n, p) => n + p.rows.length * p.parts.length, 0);
  env.emit({ type: 'stage-start', stage: name, total, reasons: job.reasons });
  const run: GroupTally = { results: new Map(), computed: 0, reused: 0, unverified: 0, done: 0, durable: [] };
  for (const group of joinGroups(shape, pending, env.joinedBytesPerGroup)) {
    await runGroup(env, shape, { group, inputs, earlier, memo, forced, zones, parts, ctx, total }, run);
    if (ctx.signal.aborted) {
      await Promise.all(run.durable);
      throw new Error(`interrupted after ${run.done} of ${total} units; finished units are kept, rerun to resume`);
    }
  }
  if (!total) env.emit({ type: 'stage-progress', stage: name, done: 0, total });
  const warning = unverifiedWarning(name, run.unverified);
  if (warning) env.warn?.(warning);
  const artifact = assembleParts(parts, from, { results: run.results, earlier, memo });
  const record = rowRecord(shape, from, zones);
  // The memo's last fsync runs while the artifact is written; the caller awaits it before the
  // stage counts as done.
  return {
    ...artifact,
    computed: run.computed,
    reused: run.reused + reusedUnits,
    record,
    durable: Promise.all(run.durable).then(() => {}),
  };
}

/** What the groups of one run add up to: their rows held in memory, counts and memo fsyncs. */
interface GroupTally {
  results: Map<Plan, Row[]>;
  computed: number;
  reused: number;
  unverified: number;
  done: number;
  durable: Promise<void>[];
}

interface Group {
  group: PendingSegment[];
  inputs: UnitInputs;
  earlier: ReplacedUnits | null;
  memo: LazyMemo;
  forced: boolean;
  zones: ZoneBook;
  parts: Part[];
  ctx: StageContext;
  total: number;
}

/** One group of pending segments planned (its joined rows read), triaged and run; its joined rows let go after. */
async function runGroup(env: RowStageEnv, shape: RowShape, g: Group, run: GroupTally): Promise<void> {
  const joined = joinIndexes(env.store, shape, g.group, g.zones);
  const plans = planUnits(shape, g.parts, g.group, joined);
  const { results, todo, reused, unverified } = triageUnits(env, shape, plans, g.earlier, g.memo, g.forced);
  for (const [p, rows] of results) run.results.set(p, rows);
  run.reused += reused;
  run.unverified += unverified;
  run.done += plans.length - todo.length;
  env.emit({ type: 'stage-progress', stage: shape.name, done: run.done, total: g.total });
  const pool = await runUnitPool({
    env,
    shape,
    inputs: g.inputs,
    todo,
    memo: g.memo,
    results: run.results,
    ctx: g.ctx,
    total: g.total,
    done: run.done,
  });
  run.done = pool.done;
  run.computed += todo.length;
  // Awaited with the others at the end; a group's fsync failing before then is not an unhandled rejection.
  pool.durable.catch(() => {});
  run.durable.push(pool.durable);
  for (const p of plans) p.joined = null;
}
