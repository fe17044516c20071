/**
 * Stage `report_figures`: Figures 1(c), 4, 5 and the deviation profile as SVG, PNG and a
 * Vega-Lite spec with the rows inline (`.vl.json`; figure-files.ts) under `<outDir>/figures/`
 * (a figure with nothing to show, e.g. Figure 4 without ground truth: no file, and the row's
 * `absent` says why). Input `run_settings`: the CI the captions state. Params: outDir (default
 * "reports"), judges (the run's judge order), pngFontFiles (font files for the PNG text,
 * relative to the project root; default none: the PNG then has no text, see render-figure.ts).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { tableStage, z, type Row } from '../../pipeline/stage.ts';
import type { FigureSpec } from './figure-spec.ts';
import type { JudgeFacts } from '../roster/judge-spec.ts';
import { deviationFigure, figure1c, figure4, figure5 } from './figures.ts';
import { figureFiles } from './figure-files.ts';
import { REPORT_FILE_COLUMNS, resolveOutDir, writeReportFiles } from './report-files.ts';
import { RunSettings } from './run-settings.ts';
import { summaryRows } from './summary-rows.ts';
import { REPORT_PARAMS, type ReportParams } from './tables.stage.ts';

export interface FigureParams extends ReportParams {
  pngFontFiles: string[];
}

export function paperFigures(inputs: Record<string, Row[]>, judges: readonly JudgeFacts[] = []): FigureSpec[] {
  return [
    figure1c(summaryRows(inputs.model_summary), judges, new RunSettings(inputs.run_settings)),
    figure4(inputs.threshold_analysis, judges),
    figure5(inputs.cdps, inputs.cdp_length_stats),
    deviationFigure(inputs.deviation_profile),
  ];
}

export default tableStage<FigureParams>({
  inputs: {
    model_summary: 'whole',
    threshold_analysis: 'whole',
    cdps: 'whole',
    cdp_length_stats: 'whole',
    deviation_profile: 'whole',
    run_settings: 'whole',
  },
  params: { ...REPORT_PARAMS, pngFontFiles: z.array(z.string()).default([]) },
  // Figure 5 counts the cases by split and length; nothing else of them.
  reads: { cdps: ['length', 'split'] },
  columns: REPORT_FILE_COLUMNS,
  run(inputs, ctx) {
    const fonts = ctx.params.pngFontFiles.map((f) => resolve(ctx.root, f));
    const missing = fonts.filter((f) => !existsSync(f));
    if (missing.length)
      throw new Error(
        `report_figures: param pngFontFiles names font file(s) that do not exist: ${missing.join(', ')}; fix the path or drop the param (the PNG then has no text)`,
      );
    return writeReportFiles(
      ctx.root,
      resolveOutDir(ctx.root, ctx.params.outDir),
      figureFiles(paperFigures(inputs, ctx.params.judges), fonts),
      ctx.persist,
    );
  },
});
