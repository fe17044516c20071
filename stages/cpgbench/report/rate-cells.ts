/**
 * How a CPGBench rate is printed: the rate with its case-bootstrap CI, its guideline-cluster CI
 * (marked † with the number of guidelines when from fewer than 10: stages/report/cluster-ci.ts),
 * and its counts (n items in the rate, then the failures by kind: "n=37 · answer 2 · server 1",
 * stages/report/failure-counts.ts), all read from the row; an incomplete rate says so.
 */
import { pctWithCi } from '../../report/format.ts';
import { countsText } from '../../report/failure-counts.ts';
import { clusterCiCell } from '../../report/cluster-ci.ts';
import type { RateRow } from '../results/rates.ts';

export function rateCell(r: RateRow | undefined): string {
  if (!r || !Number.isFinite(r.rate)) return '—';
  const incomplete = r.incomplete ? ' (incomplete)' : '';
  return `${pctWithCi(r.rate, r.ci_low, r.ci_high)}; by guideline ${clusterCiCell(r.cluster_ci_low, r.cluster_ci_high, r.guidelines)}; ${countsText(r)}${incomplete}`;
}
