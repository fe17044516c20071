/**
 * Table 2: the correlations stage's rows as printed (2 decimals), in the stage's order, with a
 * caption said from the rows: which raters each group of Kendall's W holds (the judges when a
 * metric is fixed, the metrics when a judge is fixed) and how many. Pure.
 */
import type { Row } from '../../pipeline/stage.ts';
import { CORRELATION_METRICS } from '../evaluate/correlations.stage.ts';
import { fixed2 } from './format.ts';
import { simulatedNote, type SimulatedShare } from './paper-tables.ts';
import type { ReportTable } from './report-table.ts';

/** The raters of each (setting, fixed) group, read from the pairs "a vs b". */
function groups(correlations: readonly Row[]): Map<string, { fixed: string; raters: Set<string> }> {
  const out = new Map<string, { fixed: string; raters: Set<string> }>();
  for (const r of correlations) {
    const key = JSON.stringify([r.setting, r.fixed]);
    const g = out.get(key) ?? { fixed: String(r.fixed), raters: new Set<string>() };
    for (const name of String(r.pair).split(' vs ')) g.raters.add(name);
    out.set(key, g);
  }
  return out;
}

const sizes = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b);
const countText = (ns: number[], what: string) => `${ns.join(' or ')} ${what}`;

/** "Kendall's W once per group of raters, on its first row: the 2 judges when a metric is fixed, the 3 metrics when a judge is fixed". */
export function kendallWText(correlations: readonly Row[]): string {
  const gs = [...groups(correlations).values()];
  if (!gs.length) return "Kendall's W: no group of raters in this run.";
  const isMetric = (f: string) => CORRELATION_METRICS.includes(f);
  const judges = sizes(gs.filter((g) => isMetric(g.fixed)).map((g) => g.raters.size));
  const metrics = sizes(gs.filter((g) => !isMetric(g.fixed)).map((g) => g.raters.size));
  const parts = [
    ...(judges.length ? [`the ${countText(judges, 'judges')} when a metric is fixed`] : []),
    ...(metrics.length ? [`the ${countText(metrics, 'metrics')} when a judge is fixed`] : []),
  ];
  const noJudgePairs = judges.length ? '' : ' No judge pairs: the run has one judge, so only the metrics are compared.';
  return `Kendall's W once per group of raters, on its first row: ${parts.join(', ')} (LNDS-PCS negated so that all agree in direction).${noJudgePairs}`;
}

export function table2(correlations: readonly Row[], share: SimulatedShare): ReportTable {
  return {
    name: 'table2_correlations',
    title: `Table 2: correlations between judges and between metrics${simulatedNote(share)}`,
    caption: `Instance-level Pearson r, Spearman ρ and Kendall τ-b per pair; ${kendallWText(correlations)} Setting "all" pools both settings.`,
    columns: ['Setting', 'Fixed', 'Pair', 'Pearson r', 'Spearman ρ', 'Kendall τ', "Kendall's W", 'n'],
    rows: correlations.map((r) => [
      String(r.setting),
      String(r.fixed),
      String(r.pair),
      fixed2(r.pearson_r as number | null),
      fixed2(r.spearman_rho as number | null),
      fixed2(r.kendall_tau as number | null),
      r.kendall_w == null ? '' : fixed2(r.kendall_w as number),
      String(r.n),
    ]),
    ...(correlations.length
      ? {}
      : { absent: 'the correlations stage has no rows: fewer instances were scored by every judge than it needs (param minInstances)' }),
  };
}
