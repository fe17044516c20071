/**
 * Stage `report_leaderboard`: reports/tables/leaderboard.{md,csv} and
 * reports/figures/leaderboard.{svg,png} (leaderboard.ts). Params: outDir, judges (the run's judge
 * order; the default judge ranks), resamples / seed / level of the paired bootstrap (as
 * model_summary's), pngFontFiles (as report_figures').
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { tableStage, z, type Row } from '../../pipeline/stage.ts';
import { figureFiles } from './figures.stage.ts';
import { defaultJudge } from './judges.ts';
import { caseValues, leaderboard, leaderboardData, leaderboardFigure, leaderboardTable } from './leaderboard.ts';
import { REPORT_FILE_COLUMNS, resolveOutDir, writeReportFiles, type ReportFile } from './report-files.ts';
import { tableCsv, tableMarkdown } from './report-table.ts';
import { summaryRows } from './summary-rows.ts';

export interface LeaderboardParams {
  outDir: string;
  judges: string[];
  pngFontFiles: string[];
  /** The paired bootstrap's (as model_summary's). */
  resamples: number;
  seed: number;
  level: number;
}

export function leaderboardFiles(
  inputs: Record<string, Row[]>,
  params: Pick<LeaderboardParams, 'judges' | 'resamples' | 'seed' | 'level'>,
  fonts: readonly string[] = [],
): ReportFile[] {
  const summary = summaryRows(inputs.model_summary);
  const judges = params.judges;
  const judge = defaultJudge(
    summary.flatMap((r) => (r.judge === null ? [] : [r.judge])),
    judges,
  );
  const opts = { resamples: params.resamples, seed: params.seed, level: params.level };
  const entries = leaderboard(summary, caseValues(inputs, judge), judges, opts);
  const table = leaderboardTable(entries);
  return [
    { path: 'tables/leaderboard.md', kind: 'table', title: table.title, content: tableMarkdown(table) },
    { path: 'tables/leaderboard.csv', kind: 'table-csv', title: table.title, content: tableCsv(leaderboardData(entries)) },
    ...figureFiles([leaderboardFigure(entries)], fonts),
  ];
}

export default tableStage<LeaderboardParams>({
  inputs: { model_summary: 'whole', pathway_metrics: 'whole', outcome_scores: 'whole' },
  params: {
    outDir: z.string().min(1).default('reports'),
    judges: z.array(z.string()).default([]),
    pngFontFiles: z.array(z.string()).default([]),
    resamples: z.int().min(2).max(1_000_000).default(10000),
    seed: z.int().default(42),
    level: z.number().gt(0).lt(1).default(0.95),
  },
  // Per case, the two ranked scores (caseValues); model_summary is read whole.
  reads: {
    pathway_metrics: ['setting', 'model', 'cdp_id', 'judge', 'error', 'dtw_pcc'],
    outcome_scores: ['setting', 'model', 'cdp_id', 'judge', 'error', 'correct'],
  },
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
