/**
 * Stage `report_tables`: the paper's Tables 1, 2, 4 and 5–7 from this run, as Markdown and CSV
 * under `<outDir>/tables/` (param outDir, default "reports", relative to the project root).
 * Its rows are the files written with their sha256. Param `judges`: the run's judge specs, in
 * order (their kind and simulated flag say which are LLM judges); the default judge of Table 1
 * is the first real LLM judge in it.
 * Param `runParams`: the params the paper leaves open, as the computing stages got them
 * (open-choices.ts); Table 6 and the scorecard print them. Param `allJudges`: Tables 5–7 show every
 * judge (default: the LLM judges and one similarity judge).
 */
import { tableStage, z } from '../../pipeline/stage.ts';
import { METRIC_TABLES, simulatedShare, table1, table2, table4, metricCiTable } from './paper-tables.ts';
import { openChoices, type RunParams } from './open-choices.ts';
import { REPORT_FILE_COLUMNS, resolveOutDir, writeReportFiles, type ReportFile } from './report-files.ts';
import { tableCsv, tableMarkdown, type ReportTable } from './report-table.ts';
import { summaryRows } from './summary-rows.ts';
import type { ParamsDecl, Row } from '../../pipeline/stage.ts';
import { judgeSpecSchema, type JudgeSpec } from '../roster/judge-spec.ts';

export interface ReportParams {
  outDir: string;
  /** The run's judge specs (the wiring's roster values). */
  judges: JudgeSpec[];
  runParams?: RunParams;
}

export interface TablesParams extends ReportParams {
  /** Tables 5–7 show every judge, not only the LLM judges and one similarity judge. */
  allJudges: boolean;
}

const tau = z.union([z.number().gt(0), z.literal(Infinity)]);

/** Where and for which judges the report stages write, unless dag.config.ts says otherwise. */
export const REPORT_PARAMS: ParamsDecl<ReportParams> = {
  outDir: z.string().min(1).default('reports'),
  judges: z.array(judgeSpecSchema).default([]),
  runParams: z
    .object({
      pathway_metrics: z.object({ lambda: z.number().gt(0).optional(), tauA: tau.optional(), tauB: tau.optional() }).optional(),
      outcome_scores: z.object({ cutoff: z.number().min(1).max(5).optional() }).optional(),
      dialogues_multi: z.object({ capFactor: z.number().optional(), capExtra: z.number().optional() }).optional(),
    })
    .optional(),
};

export function paperTables(
  inputs: Record<string, Row[]>,
  judges: readonly JudgeSpec[] = [],
  runParams: RunParams = {},
  allJudges = false,
): ReportTable[] {
  const summary = summaryRows(inputs.model_summary);
  const choices = openChoices(runParams);
  return [
    table1(summary, judges),
    table2(inputs.correlations, simulatedShare(summary)),
    table4(inputs.cdp_length_stats),
    ...METRIC_TABLES.map((t) => metricCiTable(summary, t.metric, judges, choices, allJudges)),
  ];
}

export function tableFiles(tables: readonly ReportTable[]): ReportFile[] {
  return tables.flatMap((t) => [
    { path: `tables/${t.name}.md`, kind: 'table', title: t.title, content: tableMarkdown(t) },
    { path: `tables/${t.name}.csv`, kind: 'table-csv', title: t.title, content: tableCsv(t) },
  ]);
}

export default tableStage<TablesParams>({
  inputs: { model_summary: 'whole', correlations: 'whole', cdp_length_stats: 'whole' },
  params: { ...REPORT_PARAMS, allJudges: z.boolean().default(false) },
  columns: REPORT_FILE_COLUMNS,
  run(inputs, ctx) {
    const files = tableFiles(paperTables(inputs, ctx.params.judges, ctx.params.runParams, ctx.params.allJudges));
    return writeReportFiles(ctx.root, resolveOutDir(ctx.root, ctx.params.outDir), files, ctx.persist);
  },
});
