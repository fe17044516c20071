/**
 * Stage `model_summary`: per (setting, judge, metric, model), the mean over cases with two 95 %
 * percentile-bootstrap CIs (paper Appendix D): over cases (the paper's: 10,000 resamples,
 * seed 42) and over guidelines (cluster bootstrap: cases of one guideline share its difficulty,
 * so this CI is the honest one). Values are fractions; the report layer formats percentages.
 *
 * Metrics: dtw_pcc, ot_pcc, lnds_pcs (pathway_metrics), acc (outcome_scores: share correct) and,
 * for the multi-turn setting, sr (success rate: share of usable dialogues that ended with
 * success; it does not depend on a judge, so its judge is null). Failure rows are left out;
 * `n` says how many cases each mean is over. `simulated` marks offline stand-in models.
 * With a single guideline (`clusters` = 1, as in the bundled sample's test split) the cluster CI
 * is null: resampling one cluster cannot say anything about guideline-to-guideline variation.
 */
import { tableStage, type Row } from '../../pipeline/stage.ts';
import { clusterBootstrapMany, percentileBootstrapMany, type BootstrapOptions, type BootstrapResult, type ClusterBootstrapResult } from '../stats/bootstrap.ts';

export interface ModelSummaryParams {
  resamples: number;
  seed: number;
  level: number;
}

export const SUMMARY_METRICS = ['dtw_pcc', 'ot_pcc', 'lnds_pcs', 'acc', 'sr'] as const;

export interface Cell {
  setting: string;
  judge: string | null;
  metric: string;
  model: string;
  simulated: boolean;
  values: number[];
  guidelines: string[];
}

/**
 * Cells over the same number of cases share the case-bootstrap draws and cells over the same
 * guideline sequence share the cluster draws (the *Many functions): the same numbers as cell by
 * cell, computed once per batch.
 */
export function summariseCells(cells: readonly Cell[], opts: BootstrapOptions): Row[] {
  const caseCi = new Map<Cell, BootstrapResult>();
  const clusterCi = new Map<Cell, ClusterBootstrapResult>();
  const batches = <K>(keyOf: (c: Cell) => K) => {
    const m = new Map<K, Cell[]>();
    for (const c of cells) {
      const k = keyOf(c);
      if (!m.has(k)) m.set(k, []);
      m.get(k)!.push(c);
    }
    return m.values();
  };
  for (const batch of batches((c) => c.values.length)) {
    percentileBootstrapMany(batch.map((c) => Float64Array.from(c.values)), opts).forEach((r, k) => caseCi.set(batch[k]!, r));
  }
  for (const batch of batches((c) => JSON.stringify(c.guidelines))) {
    const ids = new Map<string, number>();
    const clusters = Int32Array.from(batch[0]!.guidelines, (g) => (ids.has(g) ? ids.get(g)! : (ids.set(g, ids.size), ids.size - 1)));
    clusterBootstrapMany(batch.map((c) => Float64Array.from(c.values)), clusters, opts).forEach((r, k) => clusterCi.set(batch[k]!, r));
  }
  return cells.map((c) => {
    const cases = caseCi.get(c)!, byGuideline = clusterCi.get(c)!;
    return {
      setting: c.setting, judge: c.judge, metric: c.metric, model: c.model, simulated: c.simulated,
      mean: cases.mean, ci_low: cases.ciLow, ci_high: cases.ciHigh, n: cases.n,
      // One guideline gives every resample the same mean: a zero-width interval that claims a
      // certainty one guideline cannot give, so the cluster CI is left undefined.
      cluster_ci_low: byGuideline.clusters > 1 ? byGuideline.ciLow : null,
      cluster_ci_high: byGuideline.clusters > 1 ? byGuideline.ciHigh : null,
      clusters: byGuideline.clusters,
    };
  });
}

export default tableStage<ModelSummaryParams>({
  params: { resamples: 10000, seed: 42, level: 0.95 },
  columns: {
    setting: 'VARCHAR', judge: 'VARCHAR', metric: 'VARCHAR', model: 'VARCHAR', simulated: 'BOOLEAN',
    mean: 'DOUBLE', ci_low: 'DOUBLE', ci_high: 'DOUBLE', n: 'INTEGER',
    cluster_ci_low: 'DOUBLE', cluster_ci_high: 'DOUBLE', clusters: 'INTEGER',
  },
  run({ pathway_metrics = [], outcome_scores = [], predicted_pathways = [] }, ctx) {
    const cells = new Map<string, Cell>();
    const add = (r: Row, judge: string | null, metric: string, value: number) => {
      const key = JSON.stringify([r.setting, judge, metric, r.model]);
      let c = cells.get(key);
      if (!c) cells.set(key, (c = { setting: String(r.setting), judge, metric, model: String(r.model), simulated: r.simulated === true, values: [], guidelines: [] }));
      c.values.push(value);
      c.guidelines.push(String(r.guideline_id));
    };
    for (const r of pathway_metrics) {
      if (r.error != null) continue;
      for (const metric of ['dtw_pcc', 'ot_pcc', 'lnds_pcs']) add(r, String(r.judge), metric, r[metric] as number);
    }
    for (const r of outcome_scores) if (r.error == null) add(r, String(r.judge), 'acc', r.correct === true ? 1 : 0);
    for (const r of predicted_pathways) if (r.setting === 'multi' && r.usable === true) add(r, null, 'sr', r.success === true ? 1 : 0);
    const order = (c: Cell) => [c.setting, c.judge ?? '', String(SUMMARY_METRICS.indexOf(c.metric as never)).padStart(2, '0'), c.model].join('\0');
    const sorted = [...cells.values()].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
    return summariseCells(sorted, { resamples: ctx.params.resamples, seed: ctx.params.seed, level: ctx.params.level });
  },
});
