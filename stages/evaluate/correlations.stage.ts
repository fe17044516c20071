/**
 * Stage `correlations`: the paper's Table 2 (§4.5) at instance level. An instance is one
 * predicted pathway (setting, model, cdp_id); only instances scored by every listed judge (no
 * failure row for any of them) enter, so all vectors are aligned and of one length `n`.
 * For each metric fixed, the judge pairs; for each judge fixed, the metric pairs (LNDS-PCS
 * negated: higher is better there); Pearson r, Spearman ρ, Kendall τ-b per pair and Kendall's
 * W per group of raters (on the group's first row). Computed over both settings pooled
 * (setting 'all') and per setting. A group with fewer than 3 instances is left out; an
 * undefined statistic (a constant vector) is null.
 *
 * Param `judges`: the run's judge specs, real ones first (the wiring passes them); the table
 * pairs them by name. With one judge only the metric pairs exist.
 */
import { tableStage, z, type Row } from '../../pipeline/stage.ts';
import { distinctNames } from '../roster/model-ref.ts';
import { judgeSpecSchema, type JudgeSpec } from '../roster/judge-spec.ts';
import { correlationTable } from '../stats/correlation-table.ts';

export interface CorrelationsParams {
  judges: JudgeSpec[];
  minInstances: number;
}

export const CORRELATION_METRICS = ['dtw_pcc', 'ot_pcc', 'lnds_pcs'];

const finiteOrNull = (x: number | null) => (x !== null && Number.isFinite(x) ? x : null);

export function instanceCorrelations(rows: readonly Row[], judges: readonly string[], setting: string, minInstances = 3): Row[] {
  // Each instance's row per judge (by the judge's index); its JSON key, made once, orders the instances.
  const byInstance = new Map<string, { order: string; byJudge: (Row | undefined)[] }>();
  for (const r of rows) {
    const j = r.error == null ? judges.indexOf(String(r.judge)) : -1;
    if (j < 0) continue;
    const id = `${String(r.setting)}\u0000${String(r.model)}\u0000${String(r.cdp_id)}`;
    let instance = byInstance.get(id);
    if (!instance) byInstance.set(id, (instance = { order: JSON.stringify([r.setting, r.model, r.cdp_id]), byJudge: [] }));
    instance.byJudge[j] = r;
  }
  const complete = [...byInstance.values()]
    .filter((x) => judges.every((_, j) => x.byJudge[j] !== undefined))
    .sort((a, b) => (a.order < b.order ? -1 : 1));
  if (complete.length < minInstances) return [];
  const scores: Record<string, Record<string, Float64Array>> = {};
  judges.forEach((judge, j) => {
    scores[judge] = {};
    for (const metric of CORRELATION_METRICS) scores[judge][metric] = Float64Array.from(complete, (x) => x.byJudge[j]![metric] as number);
  });
  return correlationTable(scores, { judges, metrics: CORRELATION_METRICS, invert: ['lnds_pcs'] }).map((c) => ({
    setting,
    fixed: c.fixed,
    pair: c.pair,
    pearson_r: finiteOrNull(c.pearson_r),
    spearman_rho: finiteOrNull(c.spearman_rho),
    kendall_tau: finiteOrNull(c.kendall_tau),
    kendall_w: finiteOrNull(c.kendall_w),
    n: c.n,
  }));
}

// 'all' first, then the settings in order (rows within a group keep their order: the sort is stable).
const groupRank = (r: Row) => (r.setting === 'all' ? 0 : 1);
const compare = (a: Row, b: Row) => (String(a.setting) < String(b.setting) ? -1 : String(a.setting) > String(b.setting) ? 1 : 0);

export default tableStage<CorrelationsParams>({
  inputs: { pathway_metrics: 'whole' },
  params: {
    judges: distinctNames(judgeSpecSchema, 1),
    minInstances: z.int().min(2).default(3),
  },
  // Of the wide pathway_metrics rows (the DTW path among them) only what an instance is and its scores.
  reads: { pathway_metrics: ['setting', 'model', 'cdp_id', 'judge', 'error', ...CORRELATION_METRICS] },
  // Each setting's instances, and all of them pooled ('all'): a new case recomputes the setting
  // it is in and the pool, a change to one setting's scores leaves the other's table as it is.
  // A function of its rows and the params (it logs the groups it leaves out): partitions may run on worker threads.
  pure: true,
  partition: { by: { pathway_metrics: (r) => ['all', String(r.setting)] }, order: (a, b) => groupRank(a) - groupRank(b) || compare(a, b) },
  columns: {
    setting: 'VARCHAR',
    fixed: 'VARCHAR',
    pair: 'VARCHAR',
    pearson_r: 'DOUBLE',
    spearman_rho: 'DOUBLE',
    kendall_tau: 'DOUBLE',
    kendall_w: 'DOUBLE',
    n: 'INTEGER',
  },
  run({ pathway_metrics }, ctx) {
    const judges = ctx.params.judges.map((j) => j.name);
    const min = ctx.params.minInstances;
    // One judge still gives the metric pairs (DTW vs OT vs LNDS); judge pairs need two.
    if (new Set(judges).size !== judges.length || judges.length < 1)
      throw new RangeError(`correlations: param judges must name distinct judges, at least one, got ${JSON.stringify(judges)}`);
    const out: Row[] = [];
    const settings = [...new Set(pathway_metrics.map((r) => String(r.setting)))].sort();
    // Run by partition, one group at a time: 'all' over the pool, or the one setting given.
    const groups = ctx.partition !== undefined ? [ctx.partition] : ['all', ...settings];
    for (const setting of groups) {
      const rows = setting === 'all' ? pathway_metrics : pathway_metrics.filter((r) => r.setting === setting);
      const table = instanceCorrelations(rows, judges, setting, min);
      if (table.length) out.push(...table);
      else ctx.log(`correlations: setting ${setting}: fewer than ${min} instances scored by all of ${judges.join(', ')}; left out`);
    }
    return out;
  },
});
