/**
 * Stage `cpg_report_figures`: CPGBench's Figures 3, 4 and 5 (figures.ts) as SVG and PNG under
 * `<outDir>/figures/`. Param pngFontFiles: the font files the PNG's text is drawn with.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { tableStage, z } from '../../../pipeline/stage.ts';
import { REPORT_FILE_COLUMNS, resolveOutDir, writeReportFiles } from '../../report/report-files.ts';
import { figure3, figure4, figure5 } from './figures.ts';
import { rateRows, reportJudge } from './rate-rows.ts';
import { CPG_REPORT_DEFAULTS, figureFiles, type CpgReportParams } from './report-params.ts';

export default tableStage<CpgReportParams & { pngFontFiles: string[] }>({
  inputs: { cpg_rates: 'whole' },
  params: { ...CPG_REPORT_DEFAULTS, pngFontFiles: z.array(z.string()).default([]) },
  columns: REPORT_FILE_COLUMNS,
  run({ cpg_rates }, ctx) {
    const fonts = ctx.params.pngFontFiles.map((f) => resolve(ctx.root, f));
    const missing = fonts.filter((f) => !existsSync(f));
    if (missing.length)
      throw new Error(`cpg_report_figures: pngFontFiles names missing font file(s) ${missing.join(', ')}; fix the path or drop the param`);
    const rows = rateRows(cpg_rates);
    const judge = reportJudge(rows, ctx.params.judges);
    const specs = [figure3(rows, judge), figure4(rows, judge), figure5(rows, judge)];
    return writeReportFiles(ctx.root, resolveOutDir(ctx.root, ctx.params.outDir), figureFiles(specs, fonts), ctx.persist);
  },
});
