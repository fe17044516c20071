/**
 * Stage `report_index`: `<outDir>/index.md`, linking every file the other report stages wrote
 * (inputs report_leaderboard, listed first, report_tables, report_figures, report_scorecard), and
 * saying who produced them (run_facts), the QC exclusion and case counts (qc_summary, run_facts)
 * and the settings the run used (run_settings), each from the rows that recorded it.
 */
import { relative, sep } from 'node:path';
import { tableStage } from '../../pipeline/stage.ts';
import { REPORT_FILE_COLUMNS, resolveOutDir, writeReportFiles } from './report-files.ts';
import { indexMarkdown } from './report-index.ts';
import { RunFacts } from './run-facts.ts';
import { RunSettings } from './run-settings.ts';
import { REPORT_PARAMS, type ReportParams } from './tables.stage.ts';

export default tableStage<ReportParams>({
  inputs: {
    report_leaderboard: 'whole',
    report_tables: 'whole',
    report_figures: 'whole',
    report_scorecard: 'whole',
    qc_summary: 'whole',
    run_facts: 'whole',
    run_settings: 'whole',
  },
  params: REPORT_PARAMS,
  columns: REPORT_FILE_COLUMNS,
  run({ report_leaderboard, report_tables, report_figures, report_scorecard, qc_summary, run_facts, run_settings }, ctx) {
    const outAbs = resolveOutDir(ctx.root, ctx.params.outDir);
    const outRel = relative(ctx.root, outAbs).split(sep).join('/');
    const files = [...report_leaderboard, ...report_tables, ...report_figures, ...report_scorecard];
    const run = { facts: new RunFacts(run_facts), settings: new RunSettings(run_settings), qcSummary: qc_summary };
    const content = indexMarkdown(files, outRel, run);
    return writeReportFiles(ctx.root, outAbs, [{ path: 'index.md', kind: 'index', title: 'Reports index', content }], ctx.persist);
  },
});
