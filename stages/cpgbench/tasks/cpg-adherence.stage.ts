/**
 * Stage `cpg_adherence`: the adherence task (§4.5), one unit per benchmark item × evaluated
 * model. The conversation cut before the clinician's first marked turn is sent as it is — its
 * messages and nothing else: no system message, no instruction ("we directly feed these
 * multi-turn background conversations as prompts to the tested LLMs without providing any
 * additional instructions"). The model's next turn is the answer, judged by
 * `cpg_adherence_judgements`.
 */
import { rowStage, type ChatMessage } from '../../../pipeline/stage.ts';
import { ANSWER_COLUMNS, TASK_PARAMS, answerTask, type CpgTaskParams } from './task-call.ts';

export default rowStage<CpgTaskParams>({
  inputs: { cpg_task_inputs: 'drives', cpg_recommendations: 'joined' },
  params: TASK_PARAMS,
  columns: ANSWER_COLUMNS,
  async run(unit, ctx) {
    const messages = (unit.row.adherence_messages as { role: 'user' | 'assistant'; content: string }[]).map((m): ChatMessage => ({
      role: m.role,
      content: m.content,
    }));
    return answerTask(unit, ctx, 'adherence', messages, null);
  },
});
