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
import { judgeFacts } from './judges.ts';
import { evaluatedModelSchema, type EvaluatedModel } from '../roster/model-ref.ts';
import type { JudgeFacts, JudgeSpec } from '../roster/judge-spec.ts';

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
   * The run's evaluated models (the wiring's roster values). Only models and judges that declare
   * (models file, "paper") the paper model they stand for are compared with published numbers: a
   * private model that happens to share a paper model's name is not. Absent: names are matched as
   * they are.
   */
  models?: EvaluatedModel[];
}

type Papered = { name: string; paper: string | null };

/** Summary rows under the paper's names; real models and judges without one are left out. */
export function asPaperRows(
  rows: readonly SummaryRow[],
  models: readonly Papered[] | undefined,
  judges: readonly (JudgeFacts & Papered)[] = [],
): SummaryRow[] {
  if (!models) return [...rows];
  const paperNames: Record<string, string> = {};
  for (const m of [...models, ...judges]) if (m.paper) paperNames[m.name] = m.paper;
  const judge = (j: string | null) => (j === null || judgeFacts(j, judges).simulated ? j : (paperNames[j] ?? null));
  return rows.flatMap((r) => {
    if (r.simulated) return [r];
    const model = paperNames[r.model];
    const j = judge(r.judge);
    return model === undefined || (r.judge !== null && j === null) ? [] : [{ ...r, model, judge: j }];
  });
}

export default tableStage<ScorecardParams>({
  inputs: { published: 'whole', model_summary: 'whole' },
  params: { ...REPORT_PARAMS, models: z.array(evaluatedModelSchema).optional() },
  columns: REPORT_FILE_COLUMNS,
  run({ published, model_summary }, ctx) {
    const texts: Record<string, string> = {};
    for (const f of published) texts[basename(String(f.path))] = readFileSync(resolve(ctx.root, String(f.path)), 'utf8');
    const files = scorecardFiles(
      texts,
      asPaperRows(summaryRows(model_summary), ctx.params.models, ctx.params.judges as JudgeSpec[]),
      ctx.params.runParams,
    );
    return writeReportFiles(ctx.root, resolveOutDir(ctx.root, ctx.params.outDir), files, ctx.persist);
  },
});
