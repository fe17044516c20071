/**
 * The evaluation stages as DAG declarations, for dag.config.ts:
 *
 *   ...evaluationStages({ judges: evaluationJudges(roster), maxPromptTokensByJudge: judgePromptBudgets(roster, judges) })
 *
 * Inputs they expect upstream: predictions_single, dialogues_multi (task stages), cdps,
 * narratives, trees (construction). Optional human labels: pass the names of files sources
 * (`files('data/human/threshold/*.csv')`) as humanLabels / humanPreferences / humanPairPcc.
 * `moduleRoot` prefixes the module paths (tests run the DAG from a temporary project root).
 */
import { join } from 'node:path';
import type { StageDecl } from '../../pipeline/dag/define.ts';

export interface EvaluationStageOptions {
  judges: string[];
  /** Judges for the correlation table (default: the three simulated ones). */
  correlationJudges?: string[];
  maxPromptTokensByJudge?: Record<string, number>;
  runs?: number;
  cutoff?: number;
  resamples?: number;
  humanLabels?: string;
  humanPreferences?: string;
  humanPairPcc?: string;
  concurrency?: number;
}

export function evaluationStages(o: EvaluationStageOptions, moduleRoot = ''): StageDecl[] {
  const m = (f: string) => join(moduleRoot, 'stages/evaluate', f);
  const perPathway = { input: 'predicted_pathways', cross: { param: 'judges', as: 'judge' } };
  const truth = { predicted_pathways: 'predicted_pathways', cdps: 'cdps', trees: 'trees' };
  const concurrency = o.concurrency ?? 8;
  return [
    { name: 'predicted_pathways', module: m('predicted-pathways.stage.ts'), inputs: { predictions_single: 'predictions_single', dialogues_multi: 'dialogues_multi', cdps: 'cdps', narratives: 'narratives' } },
    {
      name: 'step_scores', module: m('step-scores.stage.ts'), inputs: { predicted_pathways: 'predicted_pathways' }, forEach: perPathway, concurrency,
      params: { judges: o.judges, runs: o.runs ?? 5, maxReasks: 2, ...(o.maxPromptTokensByJudge ? { maxPromptTokensByJudge: o.maxPromptTokensByJudge } : {}) },
    },
    { name: 'outcome_scores', module: m('outcome-scores.stage.ts'), inputs: { predicted_pathways: 'predicted_pathways' }, forEach: perPathway, concurrency, params: { judges: o.judges, cutoff: o.cutoff ?? 4, maxReasks: 2 } },
    { name: 'pathway_metrics', module: m('pathway-metrics.stage.ts'), inputs: { step_scores: 'step_scores' }, forEach: 'step_scores' },
    { name: 'model_summary', module: m('model-summary.stage.ts'), inputs: { pathway_metrics: 'pathway_metrics', outcome_scores: 'outcome_scores', predicted_pathways: 'predicted_pathways' }, params: { resamples: o.resamples ?? 10000, seed: 42, level: 0.95 } },
    { name: 'correlations', module: m('correlations.stage.ts'), inputs: { pathway_metrics: 'pathway_metrics' }, ...(o.correlationJudges ? { params: { judges: o.correlationJudges } } : {}) },
    { name: 'threshold_analysis', module: m('threshold-analysis.stage.ts'), inputs: { step_scores: 'step_scores', ...truth, ...(o.humanLabels ? { human_labels: o.humanLabels } : {}) }, params: { gridStep: 0.05, tolerance: 0.02 } },
    {
      name: 'preference_agreement', module: m('preference-agreement.stage.ts'), params: { raterNoise: 0.1, seed: 42 },
      inputs: { pathway_metrics: 'pathway_metrics', ...truth, ...(o.humanPreferences ? { human_preferences: o.humanPreferences } : {}), ...(o.humanPairPcc ? { human_pair_pcc: o.humanPairPcc } : {}) },
    },
    { name: 'deviation_profile', module: m('deviation-profile.stage.ts'), inputs: truth },
  ];
}
