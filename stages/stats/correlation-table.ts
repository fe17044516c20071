/**
 * Table 2 (paper §4.5) from aligned instance-level scores: for each metric, the judges
 * compared pairwise; for each judge, the metrics compared pairwise; Pearson r, Spearman ρ,
 * Kendall τ-b per pair and Kendall's W per group (on the group's first row, as printed).
 *
 * For three raters the pairs come in the paper's order — (1st, 2nd), (3rd, 1st), (2nd, 3rd),
 * e.g. "GPT vs Qwen", "BERT vs GPT", "Qwen vs BERT" — so rows line up with
 * data/published/table2_correlations.csv; otherwise all pairs i < j.
 * Metrics listed in `invert` (LNDS-PCS: higher is better, against DTW/OT PCC) are negated
 * first, as the paper inverts them; rank statistics only change sign under this.
 */
import { correlations } from './correlation.ts';
import { kendallW } from './kendall-w.ts';

export interface CorrelationRow {
  /** The metric or judge held fixed. */
  fixed: string;
  /** "<a> vs <b>". */
  pair: string;
  pearson_r: number;
  spearman_rho: number;
  kendall_tau: number;
  /** Kendall's W of the whole group, on its first row; null on the others. */
  kendall_w: number | null;
  n: number;
}

export interface CorrelationTableOptions {
  judges: readonly string[];
  metrics: readonly string[];
  /** Metrics whose direction is reversed; default none. */
  invert?: readonly string[];
  /** Display names (e.g. { 'gpt-5.4-mini': 'GPT' }); default the ids. */
  labels?: Readonly<Record<string, string>>;
}

function pairsOf(k: number): [number, number][] {
  if (k === 3) return [[0, 1], [2, 0], [1, 2]];
  const out: [number, number][] = [];
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) out.push([i, j]);
  return out;
}

/** `scores[judge][metric]`: one value per instance, the same instances in the same order everywhere. */
export function correlationTable(scores: Readonly<Record<string, Readonly<Record<string, Float64Array>>>>, opts: CorrelationTableOptions): CorrelationRow[] {
  const { judges, metrics, invert = [], labels = {} } = opts;
  const name = (id: string) => labels[id] ?? id;
  const get = (judge: string, metric: string): Float64Array => {
    const v = scores[judge]?.[metric];
    if (!v) throw new RangeError(`correlationTable: no scores for judge ${judge}, metric ${metric}; every judge needs every metric`);
    return invert.includes(metric) ? Float64Array.from(v, (x) => -x) : v;
  };
  const rows: CorrelationRow[] = [];
  const group = (fixed: string, raters: readonly string[], vectors: Float64Array[]) => {
    const w = kendallW(vectors);
    pairsOf(raters.length).forEach(([a, b], k) => {
      const c = correlations(vectors[a]!, vectors[b]!);
      rows.push({
        fixed: name(fixed), pair: `${name(raters[a]!)} vs ${name(raters[b]!)}`,
        pearson_r: c.pearson, spearman_rho: c.spearman, kendall_tau: c.kendallTauB, kendall_w: k === 0 ? w : null, n: c.n,
      });
    });
  };
  for (const metric of metrics) group(metric, judges, judges.map((j) => get(j, metric)));
  for (const judge of judges) group(judge, metrics, metrics.map((m) => get(judge, m)));
  return rows;
}
