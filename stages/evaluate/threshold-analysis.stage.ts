/**
 * Stage `threshold_analysis` (paper §4.4, Figure 4): per judge and per (judge, model), the F1 of
 * "C ≥ t is a correct match" over a threshold grid, the best threshold and the stable region
 * (stages/stats/threshold.ts), one row per grid point with the curve's summary repeated.
 *
 * Label sources (column `source`; `simulated` true for the first):
 * - 'simulated-plan': the perturbation agents' true step mappings, as the `threshold_labels`
 *   stage labelled each judged pathway with them, per setting and pooled over settings (setting 'all');
 * - 'human': the optional input `human_labels`, a files source of CSVs with header
 *   judge,model,score,human (read-csv.ts); bad lines are logged and skipped; setting 'all'.
 * model is null on a judge's pooled curve, whose row also carries `common_low`/`common_high`:
 * the intersection of its models' stable regions (null when they do not overlap).
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { tableStage, z, type Row } from '../../pipeline/stage.ts';
import { parseThresholdLabels } from '../stats/read-csv.ts';
import { thresholdAnalysis, thresholdGrid, type ThresholdCurve, type ThresholdRow } from '../stats/threshold.ts';

export interface ThresholdParams {
  gridStep: number;
  tolerance: number;
}

export function curveRows(
  source: string,
  setting: string,
  rows: readonly ThresholdRow[],
  opts: { grid: number[]; tolerance: number },
): Row[] {
  if (rows.length === 0) return [];
  const a = thresholdAnalysis(rows, opts);
  const common = new Map(a.common.map((c) => [c.judge, c.region]));
  const expand = (c: ThresholdCurve): Row[] =>
    c.points.map((p) => ({
      source,
      simulated: source !== 'human',
      setting,
      judge: c.judge,
      model: c.model,
      t: p.t,
      tp: p.tp,
      fp: p.fp,
      fn: p.fn,
      tn: p.tn,
      precision: p.precision,
      recall: p.recall,
      f1: p.f1,
      n: c.n,
      positives: c.positives,
      best_t: c.best.t,
      best_f1: c.best.f1,
      stable_low: c.stable.low,
      stable_high: c.stable.high,
      common_low: c.model === null ? (common.get(c.judge)?.low ?? null) : null,
      common_high: c.model === null ? (common.get(c.judge)?.high ?? null) : null,
    }));
  return [...a.perJudge.flatMap(expand), ...a.perJudgeModel.flatMap(expand)];
}

/** One labelled reference step per row, in the labels' order; the pathways left out, counted by why. */
export function stepLabels(rows: readonly Row[]): { labels: (ThresholdRow & { setting: string })[]; leftOut: Map<string, number> } {
  const labels: (ThresholdRow & { setting: string })[] = [];
  const leftOut = new Map<string, number>();
  for (const r of rows) {
    if (r.left_out != null) {
      leftOut.set(String(r.left_out), (leftOut.get(String(r.left_out)) ?? 0) + 1);
      continue;
    }
    const scores = r.scores as number[],
      correct = r.correct as boolean[];
    // Literals, not `{ ...shared, score, human }`: the spread's objects made the curves' pass over
    // 1.5 million labels 8 times slower at the paper's size (profiled).
    const setting = String(r.setting),
      judge = String(r.judge),
      model = String(r.model);
    for (let i = 0; i < scores.length; i++) labels.push({ setting, judge, model, score: scores[i]!, human: correct[i]! });
  }
  return { labels, leftOut };
}

export default tableStage<ThresholdParams>({
  inputs: { threshold_labels: 'whole', human_labels: 'optional whole' },
  // A grid of at most 1,000 thresholds over [0, 1].
  params: { gridStep: z.number().min(0.001).max(1).default(0.05), tolerance: z.number().min(0).max(1).default(0.02) },
  reads: { threshold_labels: ['setting', 'judge', 'model', 'scores', 'correct', 'left_out'] },
  // A function of its rows and the params (the human CSVs it reads are files its input rows name,
  // their sha256 in the key): it runs on a worker thread (--workers), off the main thread, which
  // reads and commits for the statistics running beside it.
  pure: true,
  columns: {
    source: 'VARCHAR',
    simulated: 'BOOLEAN',
    setting: 'VARCHAR',
    judge: 'VARCHAR',
    model: 'VARCHAR',
    t: 'DOUBLE',
    tp: 'INTEGER',
    fp: 'INTEGER',
    fn: 'INTEGER',
    tn: 'INTEGER',
    precision: 'DOUBLE',
    recall: 'DOUBLE',
    f1: 'DOUBLE',
    n: 'INTEGER',
    positives: 'INTEGER',
    best_t: 'DOUBLE',
    best_f1: 'DOUBLE',
    stable_low: 'DOUBLE',
    stable_high: 'DOUBLE',
    common_low: 'DOUBLE',
    common_high: 'DOUBLE',
  },
  run({ threshold_labels, human_labels }, ctx) {
    const opts = { grid: thresholdGrid(ctx.params.gridStep), tolerance: ctx.params.tolerance };
    const { labels, leftOut } = stepLabels(threshold_labels);
    for (const [why, count] of leftOut) ctx.log(`threshold labels: ${count} pathway(s) left out: ${why}`);
    const out: Row[] = [];
    const settings = [...new Set(labels.map((l) => l.setting))].sort();
    for (const setting of ['all', ...settings]) {
      out.push(
        ...curveRows(
          'simulated-plan',
          setting,
          labels.filter((l) => setting === 'all' || l.setting === setting),
          opts,
        ),
      );
    }
    const human: ThresholdRow[] = [];
    for (const f of human_labels) {
      const path = ctx.file(String(f.path));
      const parsed = parseThresholdLabels(readFileSync(path, 'utf8'), basename(path));
      for (const e of parsed.errors) ctx.log(e.message);
      human.push(...parsed.rows.map(({ judge, model, score, human: h }) => ({ judge, model, score, human: h })));
    }
    out.push(...curveRows('human', 'all', human, opts));
    return out;
  },
});
