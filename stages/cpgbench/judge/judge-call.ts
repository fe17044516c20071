/**
 * One CPGBench judgement (Prompts 12–14): the template filled with the ground truth and the
 * response, sent to the unit's judge, read by parseJudgement and re-asked with the problems
 * stated up to `maxAttempts` answers (the paper re-asks "until the format requirement is met";
 * a limit keeps a broken judge from looping); then a failure row with the last problems. The
 * call carries the ground truth and the response as its context, for the simulated judge.
 *
 * Real judges never score a simulated model's answer (the units yield no row): a stand-in's
 * answers are scored by the simulated judge only, so no real call is spent on them.
 */
import { askStructured, z, type Row, type StageLlm, type Unit } from '../../../pipeline/stage.ts';
import { loadTemplate, type TemplateId } from '../../prompts/templates.ts';
import { promptMessage } from '../../prompts/prompt-message.ts';
import { factsOf, type CpgCallContext, type JudgedTask, type RecommendationFacts } from '../construct/call-context.ts';
import { parseJudgement } from './judgement.ts';

export interface CpgJudgeParams {
  judges: string[];
  /** The judges that are LLMs; they skip simulated models' answers. */
  realJudges: string[];
  maxAttempts: number;
}

export const JUDGE_PARAMS = {
  judges: z.array(z.string().min(1)),
  realJudges: z.array(z.string()).default([]),
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
  template: 'VARCHAR',
} as const;

export const judgeOf = (cross: unknown): string => {
  if (typeof cross !== 'string' || !cross)
    throw new Error(`the crossed judge is ${JSON.stringify(cross)}; list judge names in the stage's "judges" param`);
  return cross;
};

/** Whether this unit is skipped: a real judge and a simulated model's answer. */
export const skipsUnit = (unit: Unit, params: CpgJudgeParams) =>
  params.realJudges.includes(judgeOf(unit.cross)) && unit.row.simulated === true;

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
  const judge = judgeOf(unit.cross);
  const t = loadTemplate(id, 'en');
  const base = {
    model: row.model,
    judge,
    task,
    recommendation_id: row.recommendation_id,
    guideline_id: row.guideline_id,
    simulated: row.simulated,
    template: t.identity,
  };
  const truth = groundTruth(unit);
  if (typeof truth === 'string') return { ...base, error: truth };
  const response = String(row.response ?? '');
  const context: CpgCallContext = { cpg: 'judge', task, recommendation: truth, response };
  const message = promptMessage(llm, t, vars(truth, response));
  const r = await askStructured(llm, { model: judge, messages: [message], role: 'judge', context }, parseJudgement, {
    maxAttempts: params.maxAttempts,
  });
  if (!r.ok)
    return {
      ...base,
      attempts: r.attempts,
      problems: r.problems,
      error: `${judge}: ${r.error}${r.problems.length ? ` (${r.problems.join('; ')})` : ''}`,
    };
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
