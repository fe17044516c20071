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
import { kendallWOfRanked } from './kendall-w.ts';
import { rankSample } from './ranks.ts';
import type { RankedSample } from './ranks.ts';

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
  if (k === 3)
    return [
      [0, 1],
      [2, 0],
      [1, 2],
    ];
  const out: [number, number][] = [];
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) out.push([i, j]);
  return out;
}

/** `scores[judge][metric]`: one value per instance, the same instances in the same order everywhere. */
export function correlationTable(
  scores: Readonly<Record<string, Readonly<Record<string, Float64Array>>>>,
  opts: CorrelationTableOptions,
): CorrelationRow[] {
  const { judges, metrics, invert = [], labels = {} } = opts;
  const name = (id: string) => labels[id] ?? id;
  const get = (judge: string, metric: string): Float64Array => {
    const v = scores[judge]?.[metric];
    if (!v) throw new RangeError(`correlationTable: no scores for judge ${judge}, metric ${metric}; every judge needs every metric`);
    return invert.includes(metric) ? Float64Array.from(v, (x) => -x) : v;
  };
  // Each sample enters two pair groups and two W's: rank it once.
  const ranked = new Map<Float64Array, RankedSample>();
  const ranksOf = (v: Float64Array): RankedSample => {
    let r = ranked.get(v);
    if (!r) {
      v.forEach((x, i) => {
        if (!Number.isFinite(x))
          throw new RangeError(`correlationTable: value ${i} is ${x}; drop instances some judge or metric did not score`);
      });
      ranked.set(v, (r = rankSample(v)));
    }
    return r;
  };
  const vectors = new Map<string, Float64Array>();
  const sample = (judge: string, metric: string): Float64Array => {
    const key = JSON.stringify([judge, metric]);
    if (!vectors.has(key)) vectors.set(key, get(judge, metric));
    return vectors.get(key)!;
  };
  const rows: CorrelationRow[] = [];
  const group = (fixed: string, raters: readonly string[], vectors: Float64Array[]) => {
    // One rater (a run with a single judge) has no pair and no agreement to report.
    if (raters.length < 2) return;
    const w = kendallWOfRanked(vectors.map(ranksOf));
    pairsOf(raters.length).forEach(([a, b], k) => {
      const c = correlations(vectors[a]!, vectors[b]!, { x: ranksOf(vectors[a]!), y: ranksOf(vectors[b]!) });
      rows.push({
        fixed: name(fixed),
        pair: `${name(raters[a]!)} vs ${name(raters[b]!)}`,
        pearson_r: c.pearson,
        spearman_rho: c.spearman,
        kendall_tau: c.kendallTauB,
        kendall_w: k === 0 ? w : null,
        n: c.n,
      });
    });
  };
  for (const metric of metrics)
    group(
      metric,
      judges,
      judges.map((j) => sample(j, metric)),
    );
  for (const judge of judges)
    group(
      judge,
      metrics,
      metrics.map((m) => sample(judge, m)),
    );
  return rows;
}
