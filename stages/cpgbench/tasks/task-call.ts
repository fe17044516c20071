/**
 * What both CPGBench tasks share: the unit's model (crossed), whether it is simulated, the
 * recommendation's facts (joined from cpg_recommendations) that the call carries as its context
 * for offline stand-ins, and the answer row. One independent sample per recommendation
 * (`sample` = recommendation_id) and the evaluated role, as MEGA-CDP's task stages send theirs,
 * so the client's per-case seed and cache key apply the same way.
 *
 * The answer's reasoning blocks are removed before judging (`response`): the judge grades what
 * the model answered, not what it thought; the raw text is kept (`answer`). An answer with
 * nothing left is a failure row (the model gave no answer).
 */
import type { ChatMessage, ChatRequest, Row, StageContext, Unit } from '../../../pipeline/stage.ts';
import { stripReasoning } from '../../../pipeline/stage.ts';
import { modelOf } from '../../tasks/task-unit.ts';
import { distinctNames, evaluatedModelSchema, type EvaluatedModel } from '../../roster/model-ref.ts';
import { factsOf, type CpgCallContext } from '../construct/call-context.ts';

export interface CpgTaskParams {
  /** The evaluated models (the wiring's roster values), crossed as `model`. */
  models: EvaluatedModel[];
}

export const TASK_PARAMS = { models: distinctNames(evaluatedModelSchema) };

export const ANSWER_COLUMNS = {
  model: 'VARCHAR',
  recommendation_id: 'VARCHAR',
  guideline_id: 'VARCHAR',
  language: 'VARCHAR',
  answer: 'VARCHAR',
  response: 'VARCHAR',
  finish_reason: 'VARCHAR',
  simulated: 'BOOLEAN',
  template: 'VARCHAR',
  failure_kind: 'VARCHAR',
  resampled: 'INTEGER',
} as const;

/**
 * One task call and its row. A failed call is a failure row ('server': no answer exists; `cdp run
 * --retry-failed` asks again). An answer with nothing left once reasoning is removed is a result
 * ('answer': the model's own, judged not correct without asking a judge); `--retry-answers`
 * refuses the stored one and takes a fresh sample.
 */
export async function answerTask(
  unit: Unit,
  ctx: StageContext<CpgTaskParams>,
  task: 'detection' | 'adherence',
  messages: ChatMessage[],
  template: string | null,
): Promise<Row> {
  const { row } = unit;
  const spec = modelOf(unit.cross);
  const model = spec.name;
  const base = {
    model,
    recommendation_id: row.recommendation_id,
    guideline_id: row.guideline_id,
    language: row.language,
    simulated: spec.simulated,
    template,
  };
  const rec = unit.joined.cpg_recommendations?.[0];
  if (!rec) return { ...base, error: `no cpg_recommendations row for ${String(row.recommendation_id)}; join it on recommendation_id` };
  const context: CpgCallContext = { cpg: task, recommendation: factsOf(rec) };
  const request: ChatRequest = { model, messages, role: 'evaluated', sample: String(row.recommendation_id), context };
  let r = await ctx.llm.chat(request);
  if (!r.ok) return { ...base, failure_kind: 'server', error: `${model}: ${r.error}` };
  if (stripReasoning(r.text).trim() === '' && r.cached && r.call && ctx.retrying?.includes('answer')) {
    await ctx.llm.reject(r, 'empty answer re-asked (--retry-answers)');
    r = await ctx.llm.chat(request);
    if (!r.ok) return { ...base, failure_kind: 'server', error: `${model}: ${r.error}` };
  }
  const response = stripReasoning(r.text);
  const empty = response.trim() === '';
  return {
    ...base,
    answer: r.text,
    response,
    finish_reason: r.finishReason ?? null,
    failure_kind: empty ? 'answer' : null,
    resampled: r.call?.attempt ?? 0,
  };
}
