/**
 * What a finished node leaves: its StageResult (the run summary's line, zeros where it did
 * nothing) and its RunRecord (a line of <store>/runs.ndjson), and the stage's LLM counters read
 * into both.
 */
import type { ResolvedDag } from '../dag/validate.ts';
import type { KeyComponents, Ledger } from '../store/ledger.ts';
import type { RunRecord } from '../store/warehouse.ts';
import type { StageResult, StageStatus } from './runner-types.ts';

export function stageResult(name: string, r: Partial<StageResult> & { status: StageStatus }, started: Date, ended: Date): StageResult {
  return {
    stage: name,
    rowsComputed: 0,
    rowsReused: 0,
    rowsFailed: 0,
    llmCalls: 0,
    llmCached: 0,
    counters: {},
    tokensIn: 0,
    tokensOut: 0,
    seconds: (ended.getTime() - started.getTime()) / 1000,
    ...r,
  };
}

export function runRecord(
  runId: string,
  result: StageResult,
  at: { started: Date; ended: Date },
  key: string | null,
  components: KeyComponents | undefined,
): RunRecord | null {
  const status = result.status;
  // What a dry run would do is no record of a run.
  if (status === 'would-run') return null;
  return {
    run_id: runId,
    stage: result.stage,
    status,
    key,
    inputs: components ? Object.fromEntries(Object.entries(components.inputs).map(([k, v]) => [k, v.hash])) : {},
    params: components?.params.value ?? null,
    started_at: at.started.toISOString(),
    ended_at: at.ended.toISOString(),
    seconds: result.seconds,
    rows_computed: result.rowsComputed,
    rows_reused: result.rowsReused,
    rows_failed: result.rowsFailed,
    llm_calls: result.llmCalls,
    llm_cached: result.llmCached,
    counters: result.counters,
    tokens_in: result.tokensIn,
    tokens_out: result.tokensOut,
    error: result.error ?? null,
  };
}

/**
 * The stage view's counters, passed on as a generic report (every finite number it holds); the
 * summary's own columns are read from it: calls answered in-process (`offline`) are not LLM calls.
 */
export function readCounters(view: unknown): Pick<StageResult, 'llmCalls' | 'llmCached' | 'counters' | 'tokensIn' | 'tokensOut'> {
  const v = view as { counters?: unknown } | undefined;
  const raw = typeof v?.counters === 'function' ? (v.counters as () => unknown)() : v?.counters;
  const counters: Record<string, number> = {};
  if (raw && typeof raw === 'object') {
    for (const [k, n] of Object.entries(raw)) if (typeof n === 'number' && Number.isFinite(n)) counters[k] = n;
  }
  const n = (k: string) => counters[k] ?? 0;
  return {
    llmCalls: n('calls') - n('offline'),
    llmCached: n('cached'),
    counters,
    tokensIn: n('inputTokens'),
    tokensOut: n('outputTokens'),
  };
}

/** A stage that declares `requiresRows` and holds nothing but failure rows says so. */
export function markEmpty(stages: StageResult[], dag: ResolvedDag, ledger: Ledger): void {
  for (const s of stages) {
    const need = dag.stages.get(s.stage)?.decl.requiresRows;
    const e = ledger.entries[s.stage];
    if (need && e && (s.status === 'ran' || s.status === 'reused') && e.rows - e.failed === 0) s.empty = need;
  }
}
