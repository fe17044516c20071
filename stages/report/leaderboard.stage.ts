/**
 * Stage `report_leaderboard`: reports/tables/leaderboard.{md,csv} and
 * reports/figures/leaderboard.{svg,png,vl.json} (leaderboard.ts). Params: outDir, judges (the run's judge
 * order; the default judge ranks), `cluster` (false: CIs and differences resample cases; true:
 * guidelines, the cluster bootstrap — `cdp run --set report_leaderboard.cluster=true`),
 * pngFontFiles (as report_figures'). The paired differences are over the cases and values of the
 * means beside them: the stage recomputes them from pathway_metrics, outcome_scores and
 * predicted_pathways under the failure policy model_summary's rows record (policy-values.ts), with
 * the resamples, seed and level model_summary recorded (input run_settings), so the differences
 * and the means beside them rest on one bootstrap, and the captions say which.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { tableStage, z, type Row } from '../../pipeline/stage.ts';
import { figureFiles } from './figure-files.ts';
import { defaultJudge } from './judges.ts';
import { judgeSpecSchema, type JudgeSpec } from '../roster/judge-spec.ts';
import { caseValues, leaderboard, leaderboardData, leaderboardFigure, leaderboardTable } from './leaderboard.ts';
import { REPORT_FILE_COLUMNS, resolveOutDir, writeReportFiles, type ReportFile } from './report-files.ts';
import { tableCsv, tableMarkdown } from './report-table.ts';
import { recordedBootstrap, RunSettings } from './run-settings.ts';
import { summaryRows } from './summary-rows.ts';
import { ENTRY_READS } from '../evaluate/case-entries.ts';

export interface LeaderboardParams {
  outDir: string;
  /** The run's judge specs: their order, kind and simulated flag. */
  judges: JudgeSpec[];
  pngFontFiles: string[];
  /** Resample guidelines instead of cases for the CIs and the paired differences. */
  cluster: boolean;
}

export function leaderboardFiles(
  inputs: Record<string, Row[]>,
  params: Pick<LeaderboardParams, 'judges'> & { cluster?: boolean },
  fonts: readonly string[] = [],
): ReportFile[] {
  const summary = summaryRows(inputs.model_summary);
  const judges = params.judges;
  const judge = defaultJudge(
    summary.flatMap((r) => (r.judge === null ? [] : [r.judge])),
    judges,
  );
  const cluster = params.cluster ?? false;
  const settings = new RunSettings(inputs.run_settings);
  const opts = { ...recordedBootstrap(settings), cluster };
  const entries = leaderboard(summary, caseValues(inputs, summary, judge), judges, opts);
  const table = leaderboardTable(entries, { cluster, settings });
  const absent = table.absent;
  return [
    { path: 'tables/leaderboard.md', kind: 'table', title: table.title, content: absent ? null : tableMarkdown(table), absent },
    {
      path: 'tables/leaderboard.csv',
      kind: 'table-csv',
      title: table.title,
      content: absent ? null : tableCsv(leaderboardData(entries, { cluster })),
      absent,
    },
    ...figureFiles([leaderboardFigure(entries, settings)], fonts),
  ];
}

export default tableStage<LeaderboardParams>({
  inputs: { model_summary: 'whole', pathway_metrics: 'whole', outcome_scores: 'whole', predicted_pathways: 'whole', run_settings: 'whole' },
  params: {
    outDir: z.string().min(1).default('reports'),
    judges: z.array(judgeSpecSchema).default([]),
    pngFontFiles: z.array(z.string()).default([]),
    cluster: z.boolean().default(false),
  },
  // Per case, what model_summary's means are made of (caseValues); model_summary is read whole.
  reads: ENTRY_READS,
  columns: REPORT_FILE_COLUMNS,
  run(inputs, ctx) {
    const fonts = ctx.params.pngFontFiles.map((f) => resolve(ctx.root, f));
    const missing = fonts.filter((f) => !existsSync(f));
    if (missing.length)
      throw new Error(
        `report_leaderboard: param pngFontFiles names font file(s) that do not exist: ${missing.join(', ')}; fix the path or drop the param`,
      );
    return writeReportFiles(ctx.root, resolveOutDir(ctx.root, ctx.params.outDir), leaderboardFiles(inputs, ctx.params, fonts), ctx.persist);
  },
});
