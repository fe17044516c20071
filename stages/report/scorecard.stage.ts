/**
 * Stage `report_scorecard`: the reproduction scorecard, `<outDir>/scorecard.md` and `.csv`.
 * Input `published`: a files source of the paper's CSVs (data/published/*.csv), found by file
 * name; input `model_summary`. A run whose evaluated models are all simulated (input
 * run_facts) is labelled so at the top and compares nothing. Input `run_settings`: the settings
 * the header states (λ, τ, cut-off, turn cap, γ, β, judge runs, policy, bootstrap), as the
 * computing stages recorded them.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { tableStage, z } from '../../pipeline/stage.ts';
import { publishedCells } from './published.ts';
import { REPORT_FILE_COLUMNS, resolveOutDir, writeReportFiles, type ReportFile } from './report-files.ts';
import { tableCsv, tableMarkdown } from './report-table.ts';
import { producedBy } from './produced-by.ts';
import { RunFacts } from './run-facts.ts';
import { RunSettings } from './run-settings.ts';
import { scorecard, scorecardHeader, scorecardTable } from './scorecard.ts';
import { summaryRows, type SummaryRow } from './summary-rows.ts';
import { REPORT_PARAMS, type ReportParams } from './tables.stage.ts';
import { judgeFacts } from './judges.ts';
import { evaluatedModelSchema, type EvaluatedModel } from '../roster/model-ref.ts';
import type { JudgeFacts, JudgeSpec } from '../roster/judge-spec.ts';

export interface ScorecardRun {
  settings: RunSettings;
  facts: RunFacts;
  paperNames: Record<string, string> | undefined;
}

export function scorecardFiles(publishedTexts: Record<string, string>, summary: readonly SummaryRow[], run: ScorecardRun): ReportFile[] {
  const simulated = run.facts.simulatedOnly;
  const published = publishedCells(publishedTexts);
  const rows = scorecard(published, summary, { simulated });
  const table = scorecardTable(rows);
  const title = simulated ? 'Reproduction scorecard — simulated agents, no claim' : 'Reproduction scorecard';
  const caption = scorecardHeader(rows, {
    simulated,
    profile: producedBy(run.facts),
    settings: run.settings,
    paperNames: run.paperNames,
    published,
  });
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
  inputs: { published: 'whole', model_summary: 'whole', run_settings: 'whole', run_facts: 'whole' },
  params: { ...REPORT_PARAMS, models: z.array(evaluatedModelSchema).optional() },
  columns: REPORT_FILE_COLUMNS,
  run({ published, model_summary, run_settings, run_facts }, ctx) {
    const texts: Record<string, string> = {};
    for (const f of published) texts[basename(String(f.path))] = readFileSync(ctx.file(String(f.path)), 'utf8');
    const models = ctx.params.models;
    const judges = ctx.params.judges as JudgeSpec[];
    const summary = summaryRows(model_summary);
    // The names this run's rows hold that stand for a paper model (the models file's `paper`).
    const present = new Set(summary.flatMap((r) => [r.model, ...(r.judge === null ? [] : [r.judge])]));
    const paperNames =
      models && Object.fromEntries([...models, ...judges].flatMap((m) => (m.paper && present.has(m.name) ? [[m.name, m.paper]] : [])));
    const run = { settings: new RunSettings(run_settings), facts: new RunFacts(run_facts), paperNames };
    const files = scorecardFiles(texts, asPaperRows(summary, models, judges), run);
    return writeReportFiles(ctx.root, resolveOutDir(ctx.root, ctx.params.outDir), files, ctx.persist);
  },
});
