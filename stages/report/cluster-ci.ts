/**
 * How a cluster-bootstrap CI (over guidelines) is printed, and when it is marked unreliable.
 *
 * With k clusters a cluster bootstrap has only C(2k − 1, k) distinct resamples (3 guidelines:
 * 10; 5: 126), and a percentile interval from few clusters covers far less often than its
 * nominal 95%. A CI from fewer than MIN_RELIABLE_CLUSTERS guidelines is therefore printed with
 * the mark † and its number of guidelines, in the cell itself so the CSVs (which have no
 * caption) carry it too; 10 is a floor below which the interval says little, not a guarantee
 * above it. One guideline gives no CI at all ("—", see model_summary).
 */
import { pctCi } from './format.ts';

export const MIN_RELIABLE_CLUSTERS = 10;
export const UNRELIABLE_MARK = '†';

/** Whether a defined cluster CI rests on too few guidelines. */
export function fewClusters(clusters: number | null | undefined): boolean {
  return clusters != null && clusters < MIN_RELIABLE_CLUSTERS;
}

/** "(43.00–46.00)", "(43.00–46.00) † 3 guidelines", or "—" when the CI is undefined. */
type Maybe = number | null | undefined;

export function clusterCiCell(low: Maybe, high: Maybe, clusters: Maybe): string {
  const ci = pctCi(low, high);
  if (ci === '—' || !fewClusters(clusters)) return ci;
  return `${ci} ${UNRELIABLE_MARK} ${clusters} guideline${clusters === 1 ? '' : 's'}`;
}

/** `level`: the CI level the cells were computed at, as printed ("95%", from the model_summary rows). */
export const clusterFootnote = (level: string) =>
  `${UNRELIABLE_MARK}: cluster CI from fewer than ${MIN_RELIABLE_CLUSTERS} guidelines (the number follows the mark), unreliable: ` +
  `so few clusters give few distinct resamples and an interval that covers less often than ${level || 'its nominal level'}.`;
