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
import type { ChatMessage, Row, StageLlm, Unit } from '../../../pipeline/stage.ts';
import { stripReasoning } from '../../../pipeline/stage.ts';
import { isSimulated, modelOf } from '../../tasks/task-unit.ts';
import { factsOf, type CpgCallContext } from '../construct/call-context.ts';

export interface CpgTaskParams {
  models: string[];
  simulated?: string[];
}

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
} as const;

export async function answerTask(
  unit: Unit,
  llm: StageLlm,
  params: CpgTaskParams,
  task: 'detection' | 'adherence',
  messages: ChatMessage[],
  template: string | null,
): Promise<Row> {
  const { row } = unit;
  const model = modelOf(unit.cross);
  const base = {
    model,
    recommendation_id: row.recommendation_id,
    guideline_id: row.guideline_id,
    language: row.language,
    simulated: isSimulated(model, params.simulated),
    template,
  };
  const rec = unit.joined.cpg_recommendations?.[0];
  if (!rec) return { ...base, error: `no cpg_recommendations row for ${String(row.recommendation_id)}; join it on recommendation_id` };
  const context: CpgCallContext = { cpg: task, recommendation: factsOf(rec) };
  const r = await llm.chat({ model, messages, role: 'evaluated', sample: String(row.recommendation_id), context });
  if (!r.ok) return { ...base, error: `${model}: ${r.error}` };
  const response = stripReasoning(r.text);
  const out = { ...base, answer: r.text, response, finish_reason: r.finishReason ?? null };
  if (response.trim() === '')
    return { ...out, error: `${model}: the answer is empty${r.text.trim() ? ' once reasoning blocks are removed' : ''}` };
  return out;
}
