/**
 * Stage `cpg_detection`: the detection task (§4.5), one unit per benchmark item × evaluated
 * model. The conversation with its markers removed goes into Prompt 10 (as the JSON list of
 * messages it is), which asks whether it holds guideline recommendations, their content and
 * their guidelines' titles; the free-text answer is judged by `cpg_detection_judgements`.
 */
import { rowStage } from '../../../pipeline/stage.ts';
import { loadTemplate } from '../../prompts/templates.ts';
import { promptMessage } from '../../prompts/prompt-message.ts';
import { ANSWER_COLUMNS, TASK_PARAMS, answerTask, type CpgTaskParams } from './task-call.ts';

export default rowStage<CpgTaskParams>({
  inputs: { cpg_task_inputs: 'drives', cpg_recommendations: 'joined' },
  params: TASK_PARAMS,
  columns: ANSWER_COLUMNS,
  async run(unit, ctx) {
    const t = loadTemplate('cpg-detection', String(unit.row.language));
    const message = promptMessage(ctx.llm, t, { Conversation: JSON.stringify(unit.row.detection_messages, null, 2) });
    return answerTask(unit, ctx, 'detection', [message], t.identity);
  },
});
