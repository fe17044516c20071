/**
 * Stage `report_scorecard`: the reproduction scorecard, `<outDir>/scorecard.md` and `.csv`.
 * Input `published`: a files source of the paper's CSVs (data/published/*.csv), found by file
 * name; input `model_summary`. A run whose evaluated models are all simulated is labelled so
 * at the top and compares nothing. Param `runParams` (open-choices.ts): the OT λ, τ, outcome
 * cut-off and turn cap the run used, stated in the header.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { tableStage, z } from '../../pipeline/stage.ts';
import { publishedCells } from './published.ts';
import { REPORT_FILE_COLUMNS, resolveOutDir, writeReportFiles, type ReportFile } from './report-files.ts';
import { tableCsv, tableMarkdown } from './report-table.ts';
import { openChoices, type RunParams } from './open-choices.ts';
import { scorecard, scorecardHeader, scorecardTable } from './scorecard.ts';
import { runProfile, summaryRows, type SummaryRow } from './summary-rows.ts';
import { REPORT_PARAMS, type ReportParams } from './tables.stage.ts';
import { isSimulatedJudge } from './judges.ts';

export function scorecardFiles(
  publishedTexts: Record<string, string>,
  summary: readonly SummaryRow[],
  runParams: RunParams = {},
): ReportFile[] {
  const profile = runProfile(summary);
  const rows = scorecard(publishedCells(publishedTexts), summary, { simulated: profile.simulatedOnly });
  const table = scorecardTable(rows);
  const title = profile.simulatedOnly ? 'Reproduction scorecard — simulated agents, no claim' : 'Reproduction scorecard';
  const caption = scorecardHeader(rows, { simulated: profile.simulatedOnly, profile: profile.text, choices: openChoices(runParams) });
  return [
    { path: 'scorecard.md', kind: 'scorecard', title, content: tableMarkdown({ ...table, title, caption }) },
    { path: 'scorecard.csv', kind: 'scorecard-csv', title, content: tableCsv(table) },
  ];
}

export interface ScorecardParams extends ReportParams {
  /**
   * Run name → the paper's name, for the models and judges that declare (models file, "paper")
   * the paper model they stand for. Only these are compared with published numbers: a private
   * model that happens to share a paper model's name is not. Absent: names are matched as they are.
   */
  paperNames?: Record<string, string>;
}

/** Summary rows under the paper's names; real models and judges without one are left out. */
export function asPaperRows(rows: readonly SummaryRow[], paperNames: Record<string, string> | undefined): SummaryRow[] {
  if (!paperNames) return [...rows];
  const judge = (j: string | null) => (j === null || isSimulatedJudge(j) ? j : (paperNames[j] ?? null));
  return rows.flatMap((r) => {
    if (r.simulated) return [r];
    const model = paperNames[r.model];
    const j = judge(r.judge);
    return model === undefined || (r.judge !== null && j === null) ? [] : [{ ...r, model, judge: j }];
  });
}

export default tableStage<ScorecardParams>({
  inputs: { published: 'whole', model_summary: 'whole' },
  params: { ...REPORT_PARAMS, paperNames: z.record(z.string(), z.string()).optional() },
  columns: REPORT_FILE_COLUMNS,
  run({ published, model_summary }, ctx) {
    const texts: Record<string, string> = {};
    for (const f of published) texts[basename(String(f.path))] = readFileSync(resolve(ctx.root, String(f.path)), 'utf8');
    const files = scorecardFiles(texts, asPaperRows(summaryRows(model_summary), ctx.params.paperNames), ctx.params.runParams);
    return writeReportFiles(ctx.root, resolveOutDir(ctx.root, ctx.params.outDir), files, ctx.persist);
  },
});
