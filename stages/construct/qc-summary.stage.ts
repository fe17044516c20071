/**
 * Stage `qc_summary`: problem rates over all CDPs, beside the paper's (< 0.5% of CDPs, < 1% of
 * vignettes), and, from input `cdps`, how many test cases QC flags, how many failed construction
 * (no usable vignette or narrative, from inputs `vignettes` and `narratives`; construction-failures.ts)
 * and how many the task settings leave out: the construction failures always, the flagged cases
 * when `excludeFlagged` (the same value as test_cases's param, default true).
 */
import { tableStage, z, type Row } from '../../pipeline/stage.ts';
import { summariseQc, PAPER_MAX_CDP_PROBLEM_RATE, PAPER_MAX_VIGNETTE_PROBLEM_RATE } from './qc-summary.ts';
import { exclusionCounts, qcFlags } from './qc-exclusion.ts';
import { CONSTRUCTION_READS, constructionFailures } from './construction-failures.ts';
import type { QcReport } from './qc-checks.ts';

export default tableStage<{ excludeFlagged: boolean }>({
  inputs: { qc: 'whole', qc_inspection: 'whole', cdps: 'whole', vignettes: 'whole', narratives: 'whole' },
  params: { excludeFlagged: z.boolean().default(true) },
  // Of the cases only which are test cases: not their steps, vignettes or narratives.
  reads: { cdps: ['cdp_id', 'split', 'length'], ...CONSTRUCTION_READS },
  columns: { measure: 'VARCHAR', value: 'DOUBLE', paper_bound: 'DOUBLE', within_paper: 'BOOLEAN' },
  run({ qc, qc_inspection, cdps, vignettes, narratives }, ctx) {
    const reports: QcReport[] = qc
      .filter((r) => r.error == null)
      .map((r) => ({
        cdp_id: r.cdp_id as string,
        problems: r.problems as QcReport['problems'],
        cdpOk: !!r.cdp_ok,
        vignetteOk: !!r.vignette_ok,
        narrativeOk: !!r.narrative_ok,
      }));
    const s = summariseQc(reports);
    return [
      { measure: 'instances checked', value: s.instances },
      { measure: 'instances not checked (upstream failure)', value: qc.length - reports.length },
      { measure: 'CDP problem rate', value: s.cdpProblemRate, paper_bound: PAPER_MAX_CDP_PROBLEM_RATE, within_paper: s.withinPaper.cdp },
      {
        measure: 'vignette problem rate',
        value: s.vignetteProblemRate,
        paper_bound: PAPER_MAX_VIGNETTE_PROBLEM_RATE,
        within_paper: s.withinPaper.vignette,
      },
      { measure: 'narrative problem rate', value: s.narrativeProblemRate },
      ...Object.entries(s.byKind).map(([kind, n]) => ({ measure: `instances with ${kind}`, value: n })),
      ...inspectionRows(qc_inspection),
      ...exclusionRows(cdps, qc, qc_inspection, ctx.params.excludeFlagged, { vignettes, narratives }),
    ];
  },
});

/** The LLM inspection's verdicts, when an inspector was configured (absent offline). */
function inspectionRows(rows: Record<string, unknown>[]): { measure: string; value: number }[] {
  const judged = rows.filter((r) => r.error == null);
  if (!rows.length) return [];
  return [
    { measure: 'instances inspected by an LLM', value: judged.length },
    { measure: 'instances the LLM inspection could not judge', value: rows.length - judged.length },
    {
      measure: 'LLM-inspected instances flagged inconsistent (rate)',
      value: judged.length ? judged.filter((r) => r.consistent === false).length / judged.length : 0,
    },
  ];
}

/** Test cases QC flags, those whose construction failed, and those the task settings leave out (test_cases, same rule). */
function exclusionRows(cdps: Row[], qc: Row[], inspection: Row[], exclude: boolean, built: { vignettes: Row[]; narratives: Row[] }) {
  const testRows = cdps.filter((r) => r.error == null && r.split === 'test');
  const test = testRows.map((r) => String(r.cdp_id));
  const flags = qcFlags(qc, inspection);
  const c = exclusionCounts(test, flags);
  const broken = constructionFailures(testRows, built.vignettes, built.narratives);
  const left = test.filter((id) => broken.has(id) || (exclude && flags.has(id))).length;
  return [
    { measure: 'test cases', value: test.length },
    { measure: 'test cases whose construction failed (no usable vignette or narrative)', value: broken.size },
    { measure: 'test cases flagged by the QC checks', value: c.byChecks },
    { measure: 'test cases flagged by the LLM inspection', value: c.byInspection },
    { measure: 'test cases excluded from the task settings', value: left },
  ];
}
