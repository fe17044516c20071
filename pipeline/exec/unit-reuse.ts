/**
 * Which planned units run. A unit whose driving row failed upstream gets its failure row at once;
 * one a replaced part holds is taken from there; one the memo holds intact is reused, unless
 * its rows are failures this run retries (--retry-failed, or a retried failure kind); the others
 * are to compute.
 */
import type { Row } from '../dag/define.ts';
import { UPSTREAM_KIND } from '../store/segment-tally.ts';
import type { LazyMemo } from './lazy-memo.ts';
import type { ReplacedUnits } from './replaced-units.ts';
import type { RowShape } from './row-shape.ts';
import type { Plan, RowStageEnv } from './runner-types.ts';
import { failureRow, hasJoined } from './unit-rows.ts';

/** A unit to compute: planned with its joined rows. */
export type Todo = Plan & { joined: Record<string, Row[]> };

export interface Triage {
  /** Rows made here and held in memory (failures found while planning), by unit. */
  results: Map<Plan, Row[]>;
  todo: Todo[];
  reused: number;
  /** Memo lines whose checksum does not match (edited in place) or that have none: recomputed. */
  unverified: number;
}

export function triageUnits(
  env: RowStageEnv,
  shape: RowShape,
  plans: readonly Plan[],
  earlier: ReplacedUnits | null,
  memo: LazyMemo,
  forced: boolean,
): Triage {
  const out: Triage = { results: new Map(), todo: [], reused: 0, unverified: 0 };
  const retrying = env.retryFailed || !!env.retryKinds?.length;
  const isRetried = retriedRow(env);
  for (const p of plans) {
    if (p.upstreamError) {
      out.results.set(p, [failureRow(shape.stage, p, p.upstreamError, UPSTREAM_KIND)]);
      continue;
    }
    if (earlier?.rows.has(p.key)) {
      out.reused++;
      continue;
    }
    const inMemo = !forced && memo.units.has(p.key);
    const intact = inMemo && memo.units.intact(p.key);
    if (inMemo && !intact) out.unverified++;
    const hit = !intact ? undefined : retrying ? memo.units.get(p.key) : [];
    if (hit && !hit.some(isRetried)) out.reused++;
    else if (hasJoined(p)) out.todo.push(p);
    else throw new Error(`internal: unit ${p.key} of '${shape.name}' was keyed from a replaced part that does not hold it`);
  }
  return out;
}

/** A unit is asked again when a row it made is a failure row (--retry-failed) or of a retried kind. */
function retriedRow(env: RowStageEnv): (r: Row) => boolean {
  const kinds = new Set(env.retryKinds ?? []);
  return (r) => (env.retryFailed && r.error != null) || (kinds.size > 0 && r.failure_kind != null && kinds.has(String(r.failure_kind)));
}

/** The warning for memo units computed again because their checksum failed; null when none did. */
export function unverifiedWarning(name: string, unverified: number): string | null {
  if (!unverified) return null;
  const one = unverified === 1;
  return `stage '${name}': ${unverified} memo unit${one ? '' : 's'} failed ${one ? 'its' : 'their'} checksum (a memo file edited behind cdp's back, or one written before memo lines had checksums): computed again; \`cdp verify\` checks the whole store`;
}
