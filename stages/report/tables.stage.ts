/**
 * Stage `report_tables`: the paper's Tables 1, 2, 4 and 5–7 from this run, as Markdown and CSV
 * under `<outDir>/tables/` (param outDir, default "reports", relative to the project root).
 * Its rows are the files written with their sha256 (a table with nothing to show: no file, and
 * the row's `absent` says why). Param `judges`: the run's judge specs, in order (their kind and
 * simulated flag say which are LLM judges); the default judge of Table 1 is the first real LLM
 * judge in it. Input `run_settings`: the settings the captions state (λ, τ, cut-off, turn cap,
 * γ, β, judge runs, bootstrap), as the computing stages recorded them. Param `allJudges`: Tables
 * 5–7 show every judge (default: the LLM judges and one similarity judge).
 */
import { tableStage, z } from '../../pipeline/stage.ts';
import { METRIC_TABLES, simulatedShare, table1, table4, metricCiTable } from './paper-tables.ts';
import { REPORT_FILE_COLUMNS, resolveOutDir, writeReportFiles, type ReportFile } from './report-files.ts';
import { tableCsv, tableMarkdown, type ReportTable } from './report-table.ts';
import { RunSettings } from './run-settings.ts';
import { summaryRows } from './summary-rows.ts';
import { table2 } from './table2.ts';
import type { ParamsDecl, Row } from '../../pipeline/stage.ts';
import { judgeSpecSchema, type JudgeSpec } from '../roster/judge-spec.ts';

export interface ReportParams {
  outDir: string;
  /** The run's judge specs (the wiring's roster values). */
  judges: JudgeSpec[];
}

export interface TablesParams extends ReportParams {
  /** Tables 5–7 show every judge, not only the LLM judges and one similarity judge. */
  allJudges: boolean;
}

/** Where and for which judges the report stages write, unless dag.config.ts says otherwise. */
export const REPORT_PARAMS: ParamsDecl<ReportParams> = {
  outDir: z.string().min(1).default('reports'),
  judges: z.array(judgeSpecSchema).default([]),
};

export function paperTables(inputs: Record<string, Row[]>, judges: readonly JudgeSpec[] = [], allJudges = false): ReportTable[] {
  const summary = summaryRows(inputs.model_summary);
  const settings = new RunSettings(inputs.run_settings);
  return [
    table1(summary, judges, settings),
    table2(inputs.correlations, simulatedShare(summary)),
    table4(inputs.cdp_length_stats),
    ...METRIC_TABLES.map((t) => metricCiTable(summary, t.metric, judges, settings, allJudges)),
  ];
}

export function tableFiles(tables: readonly ReportTable[]): ReportFile[] {
  return tables.flatMap((t) => [
    { path: `tables/${t.name}.md`, kind: 'table', title: t.title, content: t.absent ? null : tableMarkdown(t), absent: t.absent },
    { path: `tables/${t.name}.csv`, kind: 'table-csv', title: t.title, content: t.absent ? null : tableCsv(t), absent: t.absent },
  ]);
}

export default tableStage<TablesParams>({
  inputs: { model_summary: 'whole', correlations: 'whole', cdp_length_stats: 'whole', run_settings: 'whole' },
  params: { ...REPORT_PARAMS, allJudges: z.boolean().default(false) },
  columns: REPORT_FILE_COLUMNS,
  run(inputs, ctx) {
    const files = tableFiles(paperTables(inputs, ctx.params.judges, ctx.params.allJudges));
    return writeReportFiles(ctx.root, resolveOutDir(ctx.root, ctx.params.outDir), files, ctx.persist);
  },
});
