/**
 * Stage `step_scores`: the step-level consistency matrix C (m reference steps × n candidate
 * steps, in [0, 1]) of one predicted pathway by one judge (paper §3.3; Prompt 5 single-turn,
 * Prompt 8 multi-turn). One unit per (judge, predicted pathway): forEach predicted_pathways,
 * crossing the param `judges` as `judge`, so adding a judge computes only its rows.
 *
 * `runs` independent judge runs (default 5, the paper's) are averaged; a malformed answer is
 * re-asked at most `maxReasks` times in its run; at least `minRunsOk` runs (default a majority)
 * must succeed (judgeStepScores). Long pathways are split into reference blocks when a prompt
 * would exceed the judge's prompt budget (its spec's `promptBudget`: its context window minus
 * the answer reserve) or, for a judge without one, `maxPromptTokens`; without either, one block per run.
 *
 * The crossed elements are the run's judge specs (stages/roster/judge-spec.ts), so a judge's
 * model id, sampling params, kind, budget and calibration key its own units only. judge_kind is
 * the spec's; an 'embedding' judge scores by cosine of step embeddings instead of Prompt 5/8.
 * Each row carries the judge's calibration (gamma, beta, gamma_calibrated), which pathway_metrics
 * reads its scores with, and the settings it was judged with: `runs` (judge runs asked for; 1 for
 * an embedding judge) and `template` (the prompt template sent; null when no call was made). An
 * empty candidate gives an m×0 C without a call. Unusable pathways (see predicted_pathways)
 * become failure rows.
 */
import { rowStage, z } from '../../pipeline/stage.ts';
import { judgeStepScores } from '../judge/judge-step-scores.ts';
import { judgeByEmbeddings } from '../judge/embedding-judge.ts';
import { CALL_COLUMNS, callColumns } from '../judge/call-refs.ts';
import { distinctNames } from '../roster/model-ref.ts';
import { judgeSpecSchema, type JudgeSpec } from '../roster/judge-spec.ts';
import { FAILURE_KIND_COLUMN, UNIT_COLUMNS, judgeOf, settingOf, skipsPathway, stringArray, unitBase, unusable } from './pathway-unit.ts';

export interface StepScoresParams {
  /** The run's judges (the wiring's roster values), crossed as `judge`. */
  judges: JudgeSpec[];
  runs: number;
  maxReasks: number;
  minRunsOk?: number;
  blockRows?: number;
  /** The prompt budget of judges whose spec has none. */
  maxPromptTokens?: number;
}

/** Row-major m×n → m rows of n (an empty candidate: m empty rows). */
export function matrixRows(C: Float64Array, m: number, n: number): number[][] {
  return Array.from({ length: m }, (_, i) => Array.from(C.subarray(i * n, i * n + n)));
}

export default rowStage<StepScoresParams>({
  // minRunsOk: a majority of runs; blockRows, maxPromptTokens: judgeStepScores' own (no split).
  inputs: { predicted_pathways: 'drives' },
  params: {
    judges: distinctNames(judgeSpecSchema),
    // Bounded: every run is a judge call per pathway, and C is held per run.
    runs: z.int().min(1).max(100).default(5),
    maxReasks: z.int().min(0).max(10).default(2),
    minRunsOk: z.int().min(1).optional(),
    blockRows: z.int().min(1).optional(),
    maxPromptTokens: z.int().min(1).optional(),
  },
  columns: {
    ...UNIT_COLUMNS,
    ...FAILURE_KIND_COLUMN,
    judge_kind: 'VARCHAR',
    C: 'DOUBLE[][]',
    m: 'INTEGER',
    n: 'INTEGER',
    runs: 'INTEGER',
    runs_ok: 'INTEGER',
    runs_failed: 'INTEGER',
    blocks: 'INTEGER',
    calls: 'INTEGER',
    problems: 'VARCHAR[]',
    template: 'VARCHAR',
    gamma: 'DOUBLE',
    beta: 'DOUBLE',
    gamma_calibrated: 'BOOLEAN',
    // The judge runs' stored calls (llm_calls key and attempt, run index), re-asks included; empty for offline judges.
    ...CALL_COLUMNS,
  },
  async run({ row, cross }, ctx) {
    const spec = judgeOf(cross);
    if (skipsPathway(spec, row)) return [];
    const judge = spec.name;
    const p = ctx.params;
    const { gamma, beta, calibrated } = spec.calibration;
    const base = { ...unitBase(row, spec), judge_kind: spec.kind, gamma, beta, gamma_calibrated: calibrated };
    const refused = unusable(row);
    if (refused) return { ...base, failure_kind: 'upstream', error: refused };
    if (spec.kind === 'embedding') {
      const e = await judgeByEmbeddings(ctx.llm, judge, stringArray(row.reference), stringArray(row.candidate));
      const counts = {
        m: e.m,
        n: e.n,
        runs: 1,
        runs_ok: e.ok ? 1 : 0,
        runs_failed: e.ok ? 0 : 1,
        blocks: 1,
        calls: e.calls,
        problems: [],
        ...callColumns([]),
      };
      return e.ok ? { ...base, ...counts, C: matrixRows(e.C, e.m, e.n) } : { ...base, ...counts, failure_kind: 'judge', error: e.reason };
    }
    const maxPromptTokens = spec.promptBudget ?? p.maxPromptTokens;
    const r = await judgeStepScores({
      client: ctx.llm,
      judge,
      setting: settingOf(row),
      reference: stringArray(row.reference),
      candidate: stringArray(row.candidate),
      runs: p.runs,
      maxReasks: p.maxReasks,
      ...(p.minRunsOk !== undefined ? { minRunsOk: p.minRunsOk } : {}),
      ...(p.blockRows !== undefined ? { blockRows: p.blockRows } : {}),
      ...(maxPromptTokens !== undefined ? { maxPromptTokens } : {}),
      language: typeof row.language === 'string' ? row.language : 'en',
    });
    const counts = {
      m: r.m,
      n: r.n,
      runs: p.runs,
      runs_ok: r.runsOk,
      runs_failed: r.runsFailed,
      blocks: r.blocks,
      calls: r.calls,
      problems: r.problems,
      template: r.template ?? null,
      ...callColumns(r.callRefs),
    };
    if (!r.ok) return { ...base, ...counts, failure_kind: 'judge', error: r.reason };
    return { ...base, ...counts, C: matrixRows(r.C, r.m, r.n) };
  },
});
