/**
 * Stage `cpg_detection_judgements`: two judgements of each detection answer by each judge —
 * whether the ground-truth recommendation's content is detected (Prompt 12, task
 * content_detection) and whether its guideline's title is given (Prompt 13, title_grounding).
 * Only the ground truth is assessed; other recommendations the answer lists are not (§4.5). A
 * failed detection call upstream becomes a failure row here (the runner's, without a task), which
 * the rates count as a failure of both tasks.
 */
import { rowStage } from '../../../pipeline/stage.ts';
import { JUDGEMENT_COLUMNS, JUDGE_PARAMS, judgeOne, skipsUnit, type CpgJudgeParams } from './judge-call.ts';

export default rowStage<CpgJudgeParams>({
  inputs: { cpg_detection: 'drives', cpg_recommendations: 'joined' },
  params: JUDGE_PARAMS,
  columns: JUDGEMENT_COLUMNS,
  async run(unit, ctx) {
    if (skipsUnit(unit)) return [];
    return [
      await judgeOne(unit, ctx.llm, ctx.params, 'content_detection', 'cpg-judge-content-detection', (t, response) => ({
        Recommendation: t.recommendation,
        Response: response,
      })),
      await judgeOne(unit, ctx.llm, ctx.params, 'title_grounding', 'cpg-judge-title-grounding', (t, response) => ({
        Title: t.title,
        Response: response,
      })),
    ];
  },
});
