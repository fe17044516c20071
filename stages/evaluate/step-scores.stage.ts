/**
 * Stage `step_scores`: the step-level consistency matrix C (m reference steps × n candidate
 * steps, in [0, 1]) of one predicted pathway by one judge (paper §3.3; Prompt 5 single-turn,
 * Prompt 8 multi-turn). One unit per (judge, predicted pathway): forEach predicted_pathways,
 * crossing the param `judges` as `judge`, so adding a judge computes only its rows.
 *
 * `runs` independent judge runs (default 5, the paper's) are averaged; a malformed answer is
 * re-asked at most `maxReasks` times in its run; at least `minRunsOk` runs (default a majority)
 * must succeed (judgeStepScores). Long pathways are split into reference blocks when a prompt
 * would exceed `maxPromptTokens` — set it per judge in `maxPromptTokensByJudge` (the judge's
 * context window minus its answer budget; the runner does not expose the roster here) or for
 * all judges in `maxPromptTokens`; without either, one block per run.
 *
 * judge_kind is inferred from the judge's name (judge-params.ts: similarity measures by name,
 * everything else an LLM); `judgeKinds` overrides it per judge. An empty candidate gives an
 * m×0 C without a call. Unusable pathways (see predicted_pathways) become failure rows.
 */
import { rowStage, z } from '../../pipeline/stage.ts';
import { judgeStepScores } from '../judge/judge-step-scores.ts';
import { judgeByEmbeddings } from '../judge/embedding-judge.ts';
import { inferJudgeKind, type JudgeKind } from '../metrics/judge-params.ts';
import { CALL_COLUMNS, callColumns } from '../judge/call-refs.ts';
import { UNIT_COLUMNS, judgeName, settingOf, stringArray, unitBase, unusable } from './pathway-unit.ts';

export interface StepScoresParams {
  judges: string[];
  /** Real (LLM) judges: they do not score simulated agents, which the simulated judges score. */
  realJudges: string[];
  runs: number;
  maxReasks: number;
  minRunsOk?: number;
  blockRows?: number;
  maxPromptTokens?: number;
  maxPromptTokensByJudge?: Record<string, number>;
  judgeKinds?: Record<string, JudgeKind>;
  /** Judges answered by an embeddings endpoint (cosine of step embeddings) instead of Prompt 5/8. */
  embeddingJudges: string[];
}

/** Row-major m×n → m rows of n (an empty candidate: m empty rows). */
export function matrixRows(C: Float64Array, m: number, n: number): number[][] {
  return Array.from({ length: m }, (_, i) => Array.from(C.subarray(i * n, i * n + n)));
}

export function judgeKindOf(judge: string, overrides: Record<string, JudgeKind> = {}): JudgeKind {
  return overrides[judge] ?? inferJudgeKind(judge);
}

export default rowStage<StepScoresParams>({
  // minRunsOk: a majority of runs; blockRows, maxPromptTokens: judgeStepScores' own (no split).
  inputs: { predicted_pathways: 'drives' },
  params: {
    judges: z.array(z.string()),
    realJudges: z.array(z.string()).default([]),
    // Bounded: every run is a judge call per pathway, and C is held per run.
    runs: z.int().min(1).max(100).default(5),
    maxReasks: z.int().min(0).max(10).default(2),
    minRunsOk: z.int().min(1).optional(),
    blockRows: z.int().min(1).optional(),
    maxPromptTokens: z.int().min(1).optional(),
    maxPromptTokensByJudge: z.record(z.string(), z.int().min(1)).optional(),
    judgeKinds: z.record(z.string(), z.enum(['llm', 'similarity'])).optional(),
    embeddingJudges: z.array(z.string()).default([]),
  },
  columns: {
    ...UNIT_COLUMNS,
    judge_kind: 'VARCHAR',
    C: 'DOUBLE[][]',
    m: 'INTEGER',
    n: 'INTEGER',
    runs_ok: 'INTEGER',
    runs_failed: 'INTEGER',
    blocks: 'INTEGER',
    calls: 'INTEGER',
    problems: 'VARCHAR[]',
    // The judge runs' stored calls (llm_calls key and attempt, run index), re-asks included; empty for offline judges.
    ...CALL_COLUMNS,
  },
  async run({ row, cross }, ctx) {
    const judge = judgeName(cross);
    // A real judge's calls are never spent on a simulated agent's pathway (no row: not a failure).
    if (ctx.params.realJudges.includes(judge) && row.simulated === true) return [];
    const p = ctx.params;
    const base = { ...unitBase(row, judge), judge_kind: judgeKindOf(judge, p.judgeKinds) };
    const refused = unusable(row);
    if (refused) return { ...base, error: refused };
    if (p.embeddingJudges.includes(judge)) {
      const e = await judgeByEmbeddings(ctx.llm, judge, stringArray(row.reference), stringArray(row.candidate));
      const counts = {
        m: e.m,
        n: e.n,
        runs_ok: e.ok ? 1 : 0,
        runs_failed: e.ok ? 0 : 1,
        blocks: 1,
        calls: e.calls,
        problems: [],
        ...callColumns([]),
      };
      return e.ok
        ? { ...base, judge_kind: 'similarity', ...counts, C: matrixRows(e.C, e.m, e.n) }
        : { ...base, judge_kind: 'similarity', ...counts, error: e.reason };
    }
    const maxPromptTokens = p.maxPromptTokensByJudge?.[judge] ?? p.maxPromptTokens;
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
      runs_ok: r.runsOk,
      runs_failed: r.runsFailed,
      blocks: r.blocks,
      calls: r.calls,
      problems: r.problems,
      ...callColumns(r.callRefs),
    };
    if (!r.ok) return { ...base, ...counts, error: r.reason };
    return { ...base, ...counts, C: matrixRows(r.C, r.m, r.n) };
  },
});
