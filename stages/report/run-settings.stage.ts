/**
 * Stage `run_settings`: every setting the run's stages recorded in their rows, one row per
 * (stage, setting, judge, value) with the number of rows holding it (run-settings.ts). Inputs:
 * the stages that record settings (cdps, dialogues_multi, step_scores, outcome_scores,
 * pathway_metrics, model_summary), of which it reads only the setting columns. The report
 * stages, the notebooks and `cdp export` state settings from these rows; more than one value
 * of a setting means its rows were computed under different values (printed as mixed).
 */
import { tableStage } from '../../pipeline/stage.ts';
import { collectSettings, SETTING_COLUMNS, settingReads } from './run-settings.ts';

export default tableStage({
  inputs: Object.fromEntries(Object.keys(settingReads()).map((name) => [name, 'whole' as const])),
  params: {},
  reads: settingReads(),
  columns: SETTING_COLUMNS,
  run(inputs) {
    return collectSettings(inputs);
  },
});
