/**
 * Stage `cpg_report_tables`: CPGBench's Tables 1 and 3, the rates by region, specialty and
 * language, the χ² test across specialties, judge–human κ and the construction counts, as
 * Markdown and CSV under `<outDir>/tables/` (paper-tables.ts).
 */
import { tableStage } from '../../../pipeline/stage.ts';
import { REPORT_FILE_COLUMNS, resolveOutDir, writeReportFiles } from '../../report/report-files.ts';
import { agreementTable, constructionTable, groupTable, specialtyTestTable, table1, table3 } from './paper-tables.ts';
import { rateRows, reportJudge } from './rate-rows.ts';
import { CPG_REPORT_DEFAULTS, tableFiles, type CpgReportParams } from './report-params.ts';

export default tableStage<CpgReportParams>({
  inputs: { cpg_rates: 'whole', cpg_specialty_tests: 'whole', cpg_agreement: 'whole', cpg_construction_summary: 'whole' },
  params: CPG_REPORT_DEFAULTS,
  columns: REPORT_FILE_COLUMNS,
  run({ cpg_rates, cpg_specialty_tests, cpg_agreement, cpg_construction_summary }, ctx) {
    const rows = rateRows(cpg_rates);
    const judge = reportJudge(rows, ctx.params.judges);
    const tables = [
      table1(rows, cpg_rates, judge),
      table3(rows, cpg_rates, judge),
      groupTable(rows, cpg_rates, judge, 'region'),
      groupTable(rows, cpg_rates, judge, 'specialty'),
      groupTable(rows, cpg_rates, judge, 'language'),
      specialtyTestTable(cpg_specialty_tests, judge),
      agreementTable(cpg_agreement),
      constructionTable(cpg_construction_summary),
    ];
    return writeReportFiles(ctx.root, resolveOutDir(ctx.root, ctx.params.outDir), tableFiles(tables), ctx.persist);
  },
});
