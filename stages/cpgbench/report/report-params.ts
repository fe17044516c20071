/**
 * What every CPGBench report stage takes, and how its tables and figures become files (the
 * shared renderings: report-table.ts for Markdown and CSV, figure-files.ts for SVG, PNG and the
 * Vega-Lite spec).
 */
import { z, type ParamsDecl } from '../../../pipeline/stage.ts';
import { distinctNames, modelRefSchema, type ModelRef } from '../../roster/model-ref.ts';
import type { ReportFile } from '../../report/report-files.ts';
import { tableCsv, tableMarkdown, type ReportTable } from '../../report/report-table.ts';

export interface CpgReportParams {
  outDir: string;
  /** The run's judges (roster values), real first: the first real one present is the report's judge. */
  judges: ModelRef[];
}

export const CPG_REPORT_DEFAULTS: ParamsDecl<CpgReportParams> = {
  outDir: z.string().min(1).default('reports/cpgbench'),
  judges: distinctNames(modelRefSchema).default([]),
};

export const tableFiles = (tables: readonly ReportTable[]): ReportFile[] =>
  tables.flatMap((t) => [
    { path: `tables/${t.name}.md`, kind: 'table', title: t.title, content: tableMarkdown(t) },
    { path: `tables/${t.name}.csv`, kind: 'table-csv', title: t.title, content: tableCsv(t) },
  ]);

/** The shared figure files: SVG, PNG and the Vega-Lite spec of each figure. */
export { figureFiles } from '../../report/figure-files.ts';
