/**
 * Stage `report_index`: `<outDir>/index.md`, linking every file the other report stages wrote
 * (inputs report_leaderboard, listed first, report_tables, report_figures, report_scorecard) and naming what produced them
 * (from model_summary: the simulated sample, or the real models by name) and the QC exclusion counts (qc_summary).
 */
import { relative, sep } from 'node:path';
import { tableStage } from '../../pipeline/stage.ts';
import { REPORT_FILE_COLUMNS, resolveOutDir, writeReportFiles } from './report-files.ts';
import { indexMarkdown } from './report-index.ts';
import { runProfile, summaryRows } from './summary-rows.ts';
import { REPORT_PARAMS, type ReportParams } from './tables.stage.ts';

export default tableStage<ReportParams>({
  inputs: {
    report_leaderboard: 'whole',
    report_tables: 'whole',
    report_figures: 'whole',
    report_scorecard: 'whole',
    model_summary: 'whole',
    qc_summary: 'whole',
  },
  params: REPORT_PARAMS,
  columns: REPORT_FILE_COLUMNS,
  run({ report_leaderboard, report_tables, report_figures, report_scorecard, model_summary, qc_summary }, ctx) {
    const outAbs = resolveOutDir(ctx.root, ctx.params.outDir);
    const outRel = relative(ctx.root, outAbs).split(sep).join('/');
    const profile = runProfile(summaryRows(model_summary)).text;
    const files = [...report_leaderboard, ...report_tables, ...report_figures, ...report_scorecard];
    const content = indexMarkdown(files, profile, outRel, qc_summary);
    return writeReportFiles(ctx.root, outAbs, [{ path: 'index.md', kind: 'index', title: 'Reports index', content }], ctx.persist);
  },
});
