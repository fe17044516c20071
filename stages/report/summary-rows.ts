/** The model_summary rows as the report layer reads them, and lookups over them. */
import type { Row } from '../../pipeline/stage.ts';
import { PAPER_EVALUATED } from '../models/paper-names.ts';

export interface SummaryRow {
  setting: string;
  judge: string | null;
  metric: string;
  model: string;
  simulated: boolean;
  mean: number;
  ci_low: number | null;
  ci_high: number | null;
  n: number;
  /** The cell's test cases (n + excluded); n when model_summary had no such column. */
  cases: number;
  /** The cell's failures of every kind (answer + server + patient + missing; 0 when absent). */
  failures: number;
  /** Per kind (failure-policy.ts): 0 when model_summary had no such column. */
  answer_failures: number;
  server_failures: number;
  patient_failures: number;
  missing_cases: number;
  /** Cases the judge could not score. */
  unscored: number;
  /** Cases left out of the mean for any reason (0 when absent). */
  excluded: number;
  /** Server or patient failures (or unscored cases) left the mean: a retry may still change it. */
  incomplete: boolean;
  /** The failure policy the mean was computed under, when model_summary records it. */
  policy: string | null;
  cluster_ci_low: number | null;
  cluster_ci_high: number | null;
  clusters: number | null;
}

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : typeof x === 'bigint' ? Number(x) : null);

export function summaryRows(rows: readonly Row[]): SummaryRow[] {
  return rows.map((r) => ({
    setting: String(r.setting),
    judge: r.judge == null ? null : String(r.judge),
    metric: String(r.metric),
    model: String(r.model),
    simulated: r.simulated === true,
    mean: num(r.mean) ?? NaN,
    ci_low: num(r.ci_low),
    ci_high: num(r.ci_high),
    n: num(r.n) ?? 0,
    cases: num(r.cases) ?? (num(r.n) ?? 0) + (num(r.excluded) ?? 0),
    failures: num(r.failures) ?? 0,
    answer_failures: num(r.answer_failures) ?? 0,
    server_failures: num(r.server_failures) ?? 0,
    patient_failures: num(r.patient_failures) ?? 0,
    missing_cases: num(r.missing_cases) ?? 0,
    unscored: num(r.unscored) ?? 0,
    excluded: num(r.excluded) ?? 0,
    incomplete: r.incomplete === true,
    policy: r.policy == null ? null : String(r.policy),
    cluster_ci_low: num(r.cluster_ci_low),
    cluster_ci_high: num(r.cluster_ci_high),
    clusters: num(r.clusters),
  }));
}

export const cellKey = (setting: string, judge: string | null, metric: string, model: string) =>
  JSON.stringify([setting, judge, metric, model]);

export function indexSummary(rows: readonly SummaryRow[]): Map<string, SummaryRow> {
  return new Map(rows.map((r) => [cellKey(r.setting, r.judge, r.metric, r.model), r]));
}

/** Models in the paper's Table 1 order, then other real models by name, then simulated ones by name. */
export function orderModels(rows: readonly Pick<SummaryRow, 'model' | 'simulated'>[]): string[] {
  const simulated = new Map<string, boolean>();
  for (const r of rows) simulated.set(r.model, (simulated.get(r.model) ?? false) || r.simulated);
  const paper = PAPER_EVALUATED as readonly string[];
  const rank = (m: string) => [simulated.get(m) ? 1 : 0, paper.includes(m) ? paper.indexOf(m) : paper.length] as const;
  return [...simulated.keys()].sort((a, b) => {
    const [sa, pa] = rank(a),
      [sb, pb] = rank(b);
    return sa - sb || pa - pb || (a < b ? -1 : a > b ? 1 : 0);
  });
}
