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
import type { StageContext } from '../dag/stage.ts';
import type { ResolvedStage } from '../dag/validate.ts';
import type { ArtifactPart } from '../store/artifacts.ts';
import type { KeyComponents, LedgerEntry, RowStageRecord } from '../store/ledger.ts';
import { joinIndexes } from './join-index.ts';
import { LazyMemo } from './lazy-memo.ts';
import { takeUpReplaced } from './replaced-units.ts';
import { assembleParts, rowRecord } from './row-artifact.ts';
import { rowShape } from './row-shape.ts';
import { ZoneBook } from './row-zones.ts';
import type { Input, RowStageEnv } from './runner-types.ts';
import { layoutParts, standingParts } from './standing-parts.ts';
import { planUnits, unitInputs } from './unit-plans.ts';
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
  const joined = joinIndexes(env.store, shape, pending, standing !== null, zones);
  const inputs = unitInputs(shape);
  const plans = planUnits(shape, parts, pending, joined);
  // A unit's rows stay on disk in the memo until the artifact is written; only failures made
  // here (and, in a run that persists nothing, computed rows) are held in memory.
  const memo = new LazyMemo(env.store, name);
  const { results, todo, reused, unverified } = triageUnits(env, shape, plans, earlier, memo, forced);
  const warning = unverifiedWarning(name, unverified);
  if (warning) env.warn?.(warning);

  const total = plans.length;
  env.emit({ type: 'stage-start', stage: name, total, reasons: job.reasons });
  env.emit({ type: 'stage-progress', stage: name, done: total - todo.length, total });
  const pool = await runUnitPool({ env, shape, inputs, todo, memo, results, ctx, total, done: total - todo.length });
  // The memo's last fsync runs while the artifact is written; the caller awaits it before the
  // stage counts as done.
  if (ctx.signal.aborted) {
    await pool.durable;
    throw new Error(`interrupted after ${pool.done} of ${total} units; finished units are kept, rerun to resume`);
  }
  const artifact = assembleParts(parts, from, { results, earlier, memo });
  const record = rowRecord(shape, from, zones);
  return { ...artifact, computed: todo.length, reused: reused + reusedUnits, record, durable: pool.durable };
}
