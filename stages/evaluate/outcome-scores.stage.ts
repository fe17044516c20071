/**
 * Stage `outcome_scores`: outcome accuracy (paper §4.1, Prompt 9) of one predicted pathway by
 * one judge — same units as step_scores (predicted_pathways × param `judges`, the run's judge
 * specs; an 'embedding' judge scores no outcomes and gives no row). `score` is the
 * judge's 1–5; `correct` is score ≥ `cutoff` (default 4: "largely consistent" or better; the
 * paper does not state its cut-off, see judge-outcome.ts). An empty candidate conclusion scores
 * 1 without a call. Unusable pathways become failure rows. Every row records the `cutoff` it
 * was scored with and the `template` sent (null when no call was made).
 */
import { rowStage, z } from '../../pipeline/stage.ts';
import { DEFAULT_OUTCOME_CUTOFF, judgeOutcome } from '../judge/judge-outcome.ts';
import { CALL_COLUMNS, callColumns } from '../judge/call-refs.ts';
import { distinctNames } from '../roster/model-ref.ts';
import { judgeSpecSchema, type JudgeSpec } from '../roster/judge-spec.ts';
import { FAILURE_KIND_COLUMN, UNIT_COLUMNS, judgeOf, skipsPathway, unitBase, unusable } from './pathway-unit.ts';

export interface OutcomeScoresParams {
  /** The run's judges (the wiring's roster values), crossed as `judge`. */
  judges: JudgeSpec[];
  cutoff: number;
  maxReasks: number;
}

export default rowStage<OutcomeScoresParams>({
  inputs: { predicted_pathways: 'drives' },
  params: {
    judges: distinctNames(judgeSpecSchema),
    // Prompt 9 scores 1–5, and the cut-off is stored in an INTEGER column.
    cutoff: z.int().min(1).max(5).default(DEFAULT_OUTCOME_CUTOFF),
    maxReasks: z.int().min(0).max(10).default(2),
  },
  columns: {
    ...UNIT_COLUMNS,
    ...FAILURE_KIND_COLUMN,
    score: 'INTEGER',
    correct: 'BOOLEAN',
    cutoff: 'INTEGER',
    calls: 'INTEGER',
    problems: 'VARCHAR[]',
    template: 'VARCHAR',
    // The judge's stored calls (llm_calls key and attempt), re-asks included; empty for offline judges.
    ...CALL_COLUMNS,
  },
  async run({ row, cross }, ctx) {
    const spec = judgeOf(cross);
    // Prompt 9 needs a chat judge: an embedding judge scores step similarity only.
    if (spec.kind === 'embedding' || skipsPathway(spec, row)) return [];
    const judge = spec.name;
    const cutoff = ctx.params.cutoff;
    const base = { ...unitBase(row, spec), cutoff };
    const refused = unusable(row);
    if (refused) return { ...base, failure_kind: 'upstream', error: refused };
    if (typeof row.reference_conclusion !== 'string' || row.reference_conclusion.trim() === '') {
      return { ...base, failure_kind: 'upstream', error: `case ${String(row.cdp_id)} has no reference conclusion; check the cdps input` };
    }
    const r = await judgeOutcome({
      client: ctx.llm,
      judge,
      reference: row.reference_conclusion,
      candidate: typeof row.candidate_outcome === 'string' ? row.candidate_outcome : '',
      cutoff,
      maxReasks: ctx.params.maxReasks,
      language: typeof row.language === 'string' ? row.language : 'en',
    });
    const recorded = { calls: r.calls, problems: r.problems, template: r.template ?? null, ...callColumns(r.callRefs) };
    if (!r.ok) return { ...base, ...recorded, failure_kind: 'judge', error: r.reason };
    return { ...base, score: r.score, correct: r.correct, ...recorded };
  },
});
