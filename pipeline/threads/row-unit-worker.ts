/**
 * A pure row stage's unit on a worker thread: the stage module imported by its path, its `run`
 * called with the unit and a context of the stage's params. The context has no LLM client (a
 * pure stage calls none: the client, its cache and memo live on the main thread) and collects
 * what the stage logs, which goes back with the rows and is printed by the main thread.
 */
import type { Row } from '../dag/define.ts';
import type { StageImpl } from '../dag/stage.ts';
import { guardInputs } from '../dag/inputs.ts';
import { stageModule, workerContext } from './worker-stage.ts';
import type { SourcePlace } from '../exec/source-files.ts';

/** What every unit of one stage run shares: sent once to each worker. */
export interface RowUnitShared {
  module: string;
  stage: string;
  root: string;
  files: readonly SourcePlace[];
  params: Record<string, unknown>;
  whole: Record<string, Row[]>;
  persist: boolean;
  retrying: readonly string[];
}

export interface RowUnitItem {
  row: Row;
  cross: unknown;
  joined: Record<string, Row[]>;
}

export interface RowUnitResult {
  rows: Row | Row[];
  logs: string[];
}

const notRow = (impl: StageImpl | undefined) => (impl?.kind === 'row' ? null : 'is not a row stage');

/**
 * The unit's rows. Synchronous once the stage module is loaded, so that the pool's inline timing
 * (task.ts) measures the unit's work and not a turn of the event loop.
 */
export function runRowUnit(item: RowUnitItem, shared: RowUnitShared): RowUnitResult | Promise<RowUnitResult> {
  const impl = stageModule(shared.module, notRow);
  return impl instanceof Promise ? impl.then((i) => unitOf(i, item, shared)) : unitOf(impl, item, shared);
}

function unitOf(impl: StageImpl, item: RowUnitItem, shared: RowUnitShared): RowUnitResult | Promise<RowUnitResult> {
  if (impl.kind !== 'row') throw new Error('unreachable');
  const logs: string[] = [];
  const ctx = workerContext(shared, logs);
  // The same guards as on the main thread (CDP_CHECK_READS): the inputs came as plain copies.
  const joined = guardInputs(shared.stage, 'joined input', item.joined, Object.keys(item.joined));
  const whole = guardInputs(shared.stage, 'whole input', shared.whole, Object.keys(shared.whole));
  const rows = impl.run({ row: item.row, cross: item.cross, joined, whole }, ctx);
  return rows instanceof Promise ? rows.then((r) => ({ rows: r, logs })) : { rows, logs };
}
