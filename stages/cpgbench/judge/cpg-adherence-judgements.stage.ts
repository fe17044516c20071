/**
 * Stage `cpg_adherence_judgements`: whether each adherence answer (the model's next turn of the
 * truncated conversation) adheres to the ground-truth recommendation, by each judge (Prompt 14):
 * 1 if it does, 0 otherwise (§4.5).
 */
import { rowStage } from '../../../pipeline/stage.ts';
import { JUDGEMENT_COLUMNS, JUDGE_PARAMS, judgeOne, skipsUnit, type CpgJudgeParams } from './judge-call.ts';

export default rowStage<CpgJudgeParams>({
  inputs: { cpg_adherence: 'drives', cpg_recommendations: 'joined' },
  params: JUDGE_PARAMS,
  columns: JUDGEMENT_COLUMNS,
  async run(unit, ctx) {
    if (skipsUnit(unit)) return [];
    return judgeOne(unit, ctx.llm, ctx.params, 'adherence', 'cpg-judge-adherence', (t, response) => ({
      Recommendation: t.recommendation,
      Action: t.action,
      Response: response,
    }));
  },
});
