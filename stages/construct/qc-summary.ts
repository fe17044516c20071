/**
 * Problem rates over a set of QC reports, in the terms the paper reports them (§3.1: fewer than
 * 0.5% of CDPs and fewer than 1% of vignettes problematic). A CDP counts as problematic when it
 * has any cdp-scope problem; a vignette when it has any vignette-scope problem; narratives are
 * counted separately.
 */
import type { QcKind, QcReport } from './qc-checks.ts';

export const PAPER_MAX_CDP_PROBLEM_RATE = 0.005;
export const PAPER_MAX_VIGNETTE_PROBLEM_RATE = 0.01;

export interface QcSummary {
  instances: number;
  cdpsWithProblems: number;
  cdpProblemRate: number;
  vignettesWithProblems: number;
  vignetteProblemRate: number;
  narrativesWithProblems: number;
  narrativeProblemRate: number;
  /** Number of instances with at least one problem of each kind. */
  byKind: Partial<Record<QcKind, number>>;
  /** Whether the rates are within what the paper reports. */
  withinPaper: { cdp: boolean; vignette: boolean };
}

export function summariseQc(reports: readonly QcReport[]): QcSummary {
  const n = reports.length;
  const rate = (k: number) => (n === 0 ? 0 : k / n);
  const cdpsWithProblems = reports.filter((r) => !r.cdpOk).length;
  const vignettesWithProblems = reports.filter((r) => !r.vignetteOk).length;
  const narrativesWithProblems = reports.filter((r) => !r.narrativeOk).length;
  const byKind: Partial<Record<QcKind, number>> = {};
  for (const r of reports) {
    for (const kind of new Set(r.problems.map((p) => p.kind))) byKind[kind] = (byKind[kind] ?? 0) + 1;
  }
  return {
    instances: n,
    cdpsWithProblems,
    cdpProblemRate: rate(cdpsWithProblems),
    vignettesWithProblems,
    vignetteProblemRate: rate(vignettesWithProblems),
    narrativesWithProblems,
    narrativeProblemRate: rate(narrativesWithProblems),
    byKind,
    withinPaper: {
      cdp: rate(cdpsWithProblems) < PAPER_MAX_CDP_PROBLEM_RATE,
      vignette: rate(vignettesWithProblems) < PAPER_MAX_VIGNETTE_PROBLEM_RATE,
    },
  };
}
