/**
 * Stage `cpg_report_scorecard`: the CPGBench reproduction scorecard (scorecard.ts) under
 * `<outDir>/`: values beside the paper's and the orderings compared, for the models that declare
 * the paper model they stand for (param paperNames, from the models file). Input `published`:
 * the files source of data/published/cpgbench-*.csv.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { tableStage, z } from '../../../pipeline/stage.ts';
import { REPORT_FILE_COLUMNS, resolveOutDir, writeReportFiles, type ReportFile } from '../../report/report-files.ts';
import { tableCsv, tableMarkdown } from '../../report/report-table.ts';
import { publishedRates } from './published.ts';
import { rateRows, reportJudge, simulatedShare } from './rate-rows.ts';
import { CPG_REPORT_DEFAULTS, type CpgReportParams } from './report-params.ts';
import { scoreValues, scorecardTables } from './scorecard.ts';

export default tableStage<CpgReportParams & { paperNames: Record<string, string> }>({
  inputs: { published: 'whole', cpg_rates: 'whole' },
  params: { ...CPG_REPORT_DEFAULTS, paperNames: z.record(z.string(), z.string()).default({}) },
  columns: REPORT_FILE_COLUMNS,
  run({ published, cpg_rates }, ctx) {
    const texts: Record<string, string> = {};
    for (const f of published) texts[basename(String(f.path))] = readFileSync(ctx.file(String(f.path)), 'utf8');
    const rows = rateRows(cpg_rates);
    const judge = reportJudge(rows, ctx.params.judges);
    const tables = scorecardTables(
      scoreValues(publishedRates(texts), rows, judge, ctx.params.paperNames),
      simulatedShare(rows) === 'all',
      judge,
    );
    const files: ReportFile[] = tables.flatMap((t) => [
      { path: `${t.name}.md`, kind: 'scorecard', title: t.title, content: tableMarkdown(t) },
      { path: `${t.name}.csv`, kind: 'scorecard-csv', title: t.title, content: tableCsv(t) },
    ]);
    return writeReportFiles(ctx.root, resolveOutDir(ctx.root, ctx.params.outDir), files, ctx.persist);
  },
});
