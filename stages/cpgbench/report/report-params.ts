/**
 * What every CPGBench report stage takes, and how its tables and figures become files (the
 * shared renderings: report-table.ts for Markdown and CSV, render-figure.ts for SVG and PNG).
 */
import { z, type ParamsDecl } from '../../../pipeline/stage.ts';
import { distinctNames, modelRefSchema, type ModelRef } from '../../roster/model-ref.ts';
import type { ReportFile } from '../../report/report-files.ts';
import { tableCsv, tableMarkdown, type ReportTable } from '../../report/report-table.ts';
import type { FigureSpec } from '../../report/figure-spec.ts';
import { renderPng, renderSvg } from '../../report/render-figure.ts';

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

export const figureFiles = (specs: readonly FigureSpec[], fontFiles: readonly string[]): ReportFile[] =>
  specs.flatMap((s) => {
    const svg = renderSvg(s);
    return [
      { path: `figures/${s.name}.svg`, kind: 'figure', title: s.title, content: svg },
      { path: `figures/${s.name}.png`, kind: 'figure-png', title: s.title, content: renderPng(svg, fontFiles) },
    ];
  });
