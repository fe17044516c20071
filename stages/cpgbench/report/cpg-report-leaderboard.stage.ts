/**
 * Stage `cpg_report_leaderboard`: the CPGBench leaderboard (leaderboard.ts) as Markdown and
 * CSV under `<outDir>/tables/`. It reads the items' outcomes (cpg_outcomes) to pair the models' items, and the
 * bootstrap settings from the cpg_rates rows.
 */
import { tableStage } from '../../../pipeline/stage.ts';
import { REPORT_FILE_COLUMNS, resolveOutDir, writeReportFiles } from '../../report/report-files.ts';
import { fromGuidelineOutcomes } from '../results/guideline-outcomes.ts';
import { itemAverages, leaderboard, leaderboardTable } from './leaderboard.ts';
import { rateRows, recordedBootstrap, reportJudge } from './rate-rows.ts';
import { CPG_REPORT_DEFAULTS, tableFiles, type CpgReportParams } from './report-params.ts';

export default tableStage<CpgReportParams>({
  inputs: { cpg_outcomes: 'whole', cpg_rates: 'whole' },
  params: CPG_REPORT_DEFAULTS,
  columns: REPORT_FILE_COLUMNS,
  run(inputs, ctx) {
    const rows = rateRows(inputs.cpg_rates!);
    const judge = reportJudge(rows, ctx.params.judges);
    const { items, cells } = fromGuidelineOutcomes(inputs.cpg_outcomes!);
    const averages = itemAverages(items, cells, judge);
    // The paired differences resample as the rates did, with the settings their rows record.
    const bootstrap = recordedBootstrap(inputs.cpg_rates!);
    const table = leaderboardTable(leaderboard(rows, averages, judge, bootstrap ?? {}), bootstrap);
    return writeReportFiles(ctx.root, resolveOutDir(ctx.root, ctx.params.outDir), tableFiles([table]), ctx.persist);
  },
});
