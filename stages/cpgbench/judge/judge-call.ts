/**
 * One CPGBench judgement (Prompts 12–14): the template filled with the ground truth and the
 * response, sent to the unit's judge, read by parseJudgement and re-asked with the problems
 * stated up to `maxAttempts` answers (the paper re-asks "until the format requirement is met";
 * a limit keeps a broken judge from looping); then a failure row with the last problems. The
 * call carries the ground truth and the response as its context, for the simulated judge.
 *
 * Real judges never score a simulated model's answer (the units yield no row): a stand-in's
 * answers are scored by the simulated judge only, so no real call is spent on them. Both flags
 * are the specs' (the judge's, and the answer row's `simulated`), never the names.
 *
 * An answer that is an answer failure (failure_kind 'answer': nothing was answered) is scored 0
 * without asking the judge, and keeps its kind. A judgement that never reads after the re-asks is
 * a failure row of kind 'judge' (the case is then unscored, not the model's failure); a judge call
 * that fails, of kind 'server'.
 */
import { askStructured, z, type Row, type StageLlm, type Unit } from '../../../pipeline/stage.ts';
import { distinctNames, modelRefOf, modelRefSchema, type ModelRef } from '../../roster/model-ref.ts';
import { loadTemplate, type TemplateId } from '../../prompts/templates.ts';
import { promptMessage } from '../../prompts/prompt-message.ts';
import { factsOf, type CpgCallContext, type JudgedTask, type RecommendationFacts } from '../construct/call-context.ts';
import { parseJudgement } from './judgement.ts';

export interface CpgJudgeParams {
  /** The run's judges (the wiring's roster values), crossed as `judge`. */
  judges: ModelRef[];
  maxAttempts: number;
}

export const JUDGE_PARAMS = {
  judges: distinctNames(modelRefSchema),
  maxAttempts: z.int().min(1).max(10).default(3),
};

export const JUDGEMENT_COLUMNS = {
  model: 'VARCHAR',
  judge: 'VARCHAR',
  task: 'VARCHAR',
  recommendation_id: 'VARCHAR',
  guideline_id: 'VARCHAR',
  score: 'INTEGER',
  rationale: 'VARCHAR',
  supporting_text: 'VARCHAR',
  confidence: 'DOUBLE',
  confidence_text: 'VARCHAR',
  answer_format: 'VARCHAR',
  attempts: 'INTEGER',
  problems: 'VARCHAR[]',
  simulated: 'BOOLEAN',
  judge_simulated: 'BOOLEAN',
  template: 'VARCHAR',
  failure_kind: 'VARCHAR',
} as const;

export const judgeOf = (cross: unknown): ModelRef => modelRefOf(cross, "the crossed judge (param 'judges')");

/** Whether this unit is skipped: a real judge and a simulated model's answer. */
export const skipsUnit = (unit: Unit) => !judgeOf(unit.cross).simulated && unit.row.simulated === true;

/** The ground truth of the unit's recommendation (joined from cpg_recommendations), or why there is none. */
export function groundTruth(unit: Unit): RecommendationFacts | string {
  const rec = unit.joined.cpg_recommendations?.[0];
  return rec ? factsOf(rec) : `no cpg_recommendations row for ${String(unit.row.recommendation_id)}; join it on recommendation_id`;
}

export async function judgeOne(
  unit: Unit,
  llm: StageLlm,
  params: CpgJudgeParams,
  task: JudgedTask,
  id: TemplateId,
  vars: (truth: RecommendationFacts, response: string) => Record<string, string>,
): Promise<Row> {
  const { row } = unit;
  const spec = judgeOf(unit.cross);
  const judge = spec.name;
  const t = loadTemplate(id, 'en');
  const base = {
    model: row.model,
    judge,
    task,
    recommendation_id: row.recommendation_id,
    guideline_id: row.guideline_id,
    simulated: row.simulated,
    judge_simulated: spec.simulated,
    template: t.identity,
  };
  const truth = groundTruth(unit);
  if (typeof truth === 'string') return { ...base, failure_kind: 'upstream', error: truth };
  if (row.failure_kind === 'answer') {
    const rationale = 'the model gave no answer (an answer failure): scored 0 without a judge';
    return { ...base, template: null, score: 0, rationale, supporting_text: '', failure_kind: 'answer', attempts: 0, problems: [] };
  }
  const response = String(row.response ?? '');
  const context: CpgCallContext = { cpg: 'judge', task, recommendation: truth, response };
  const message = promptMessage(llm, t, vars(truth, response));
  const r = await askStructured(llm, { model: judge, messages: [message], role: 'judge', context }, parseJudgement, {
    maxAttempts: params.maxAttempts,
  });
  if (!r.ok) {
    const failure_kind = r.problems.length ? 'judge' : 'server';
    const error = `${judge}: ${r.error}${r.problems.length ? ` (${r.problems.join('; ')})` : ''}`;
    return { ...base, attempts: r.attempts, problems: r.problems, failure_kind, error };
  }
  const j = r.value;
  return {
    ...base,
    score: j.score,
    rationale: j.rationale,
    supporting_text: j.supportingText,
    confidence: j.confidence,
    confidence_text: j.confidenceText,
    answer_format: r.format ?? null,
    attempts: r.attempts,
    problems: [],
  };
}
