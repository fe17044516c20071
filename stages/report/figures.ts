/**
 * The paper's figures as FigureSpec data (pure: rows in, spec out):
 * - Figure 1(c): each model's PCC against its outcome accuracy, one facet per setting;
 * - Figure 4: F1 of "C ≥ t is a match" against the threshold t, one curve per model and the pooled one;
 * - Figure 5: the CDP length distribution by split, with an inset magnifying lengths ≥ P95;
 * - the deviation profile: omissions, redundancies, skips and reversals per case, per model.
 */
import type { Row } from '../../pipeline/stage.ts';
import { colours, type FigureSpec } from './figure-spec.ts';
import { defaultJudge, tableJudges } from './judges.ts';
import { SETTINGS, SETTING_LABEL, simulatedShare } from './paper-tables.ts';
import { RunSettings } from './run-settings.ts';
import { caseCiText } from './setting-text.ts';
import { orderModels, type SummaryRow } from './summary-rows.ts';
import type { JudgeFacts } from '../roster/judge-spec.ts';

/** Two decimals in data points: figure data is exact for the same inputs and readable in the SVG. */
const r2 = (x: number) => Math.round(Number((x * 100).toPrecision(12))) / 100;

/** The reason a figure with no data gives instead of a picture; undefined when it has data. */
const absentIf = (empty: boolean, why: string) => (empty ? { absent: why } : {});

export function figure1c(
  summary: readonly SummaryRow[],
  judges: readonly JudgeFacts[] = [],
  settings: RunSettings = new RunSettings([]),
): FigureSpec {
  const judge = defaultJudge(
    summary.flatMap((r) => (r.judge === null ? [] : [r.judge])),
    judges,
  );
  const get = (setting: string, metric: string, model: string) =>
    summary.find((r) => r.setting === setting && r.judge === judge && r.metric === metric && r.model === model);
  const models = orderModels(summary);
  const points: Record<string, unknown>[] = [];
  for (const setting of SETTINGS) {
    for (const model of models) {
      const pcc = get(setting, 'dtw_pcc', model),
        acc = get(setting, 'acc', model);
      if (!pcc || !acc || !Number.isFinite(pcc.mean) || !Number.isFinite(acc.mean)) continue;
      // A missing CI collapses the whisker onto the point rather than dropping the point.
      const lo = (r: SummaryRow) => r2((r.ci_low ?? r.mean) * 100),
        hi = (r: SummaryRow) => r2((r.ci_high ?? r.mean) * 100);
      points.push({
        setting: SETTING_LABEL[setting],
        model,
        kind: pcc.simulated || acc.simulated ? 'simulated' : 'real',
        accuracy: r2(acc.mean * 100),
        pcc: r2(pcc.mean * 100),
        acc_low: lo(acc),
        acc_high: hi(acc),
        pcc_low: lo(pcc),
        pcc_high: hi(pcc),
      });
    }
  }
  const shown = models.filter((m) => points.some((p) => p.model === m));
  const share = simulatedShare(summary.filter((r) => shown.includes(r.model)));
  const real = points.filter((p) => p.kind === 'real'),
    sim = points.filter((p) => p.kind === 'simulated');
  return {
    name: 'figure1c_pcc_vs_accuracy',
    title: `Figure 1(c): pathway consistency cost against outcome accuracy (judge: ${judge ?? 'none'})${{ all: ' — simulated agents', some: ' — includes simulated agents', none: '' }[share]}`,
    caption:
      `Each point is one model: DTW-PCC (lower is better) against outcome accuracy, both in % and judged by ${judge ?? 'no judge'}, one panel per setting. ` +
      `Whiskers on both: the ${caseCiText(settings)}. Filled circles: real models; hollow squares: simulated agents. Labels name the model.`,
    width: 720,
    height: 360,
    panels: [
      {
        x: 0,
        y: 0,
        width: 720,
        height: 360,
        plot: {
          marginLeft: 50,
          marginBottom: 40,
          fx: { domain: SETTINGS.map((s) => SETTING_LABEL[s]), label: null },
          x: { domain: [0, 100], label: 'Outcome accuracy (%) →', grid: true },
          y: { domain: [0, 100], label: '↓ PCC (%)', grid: true },
          color: { domain: shown, range: colours(shown) },
        },
        marks: [
          { type: 'frame', data: [], options: { stroke: '#999' } },
          {
            type: 'ruleY',
            data: points,
            options: { y: 'pcc', x1: 'acc_low', x2: 'acc_high', fx: 'setting', stroke: 'model', strokeOpacity: 0.7 },
          },
          {
            type: 'ruleX',
            data: points,
            options: { x: 'accuracy', y1: 'pcc_low', y2: 'pcc_high', fx: 'setting', stroke: 'model', strokeOpacity: 0.7 },
          },
          { type: 'dot', data: real, options: { x: 'accuracy', y: 'pcc', fx: 'setting', fill: 'model', r: 4 } },
          {
            type: 'dot',
            data: sim,
            options: { x: 'accuracy', y: 'pcc', fx: 'setting', stroke: 'model', fill: 'white', symbol: 'square', r: 4 },
          },
          {
            type: 'text',
            data: points,
            options: { x: 'accuracy', y: 'pcc', fx: 'setting', text: 'model', dx: 6, dy: -7, textAnchor: 'start', fontSize: 8 },
          },
        ],
      },
    ],
    legend: { label: 'Model', domain: shown, range: colours(shown) },
    ...absentIf(
      points.length === 0,
      `no model has both a DTW-PCC and an outcome accuracy by the default judge (${judge ?? 'none'}) in model_summary`,
    ),
  };
}

export const POOLED = 'pooled';

/**
 * F1 against the threshold, one curve per model (as the paper draws Figure 4) plus the pooled
 * curve in black, over both settings ('all'); panels by judge (the run's LLM judges and one
 * similarity judge, as Tables 5–7) and by label source; the dot marks each pooled best threshold.
 */
export function figure4(threshold: readonly Row[], judges: readonly JudgeFacts[] = []): FigureSpec {
  const all = threshold.filter((r) => r.setting === 'all');
  const sources = [...new Set(all.map((r) => String(r.source)))].sort();
  const js = tableJudges(
    all.map((r) => String(r.judge)),
    judges,
  );
  const models = orderModels(
    // Curves labelled by simulated plans (simulated = true) are the simulated agents' own.
    all.filter((r) => r.model != null).map((r) => ({ model: String(r.model), simulated: r.simulated === true })),
  );
  const series = [...models, POOLED];
  const curve = all
    .filter((r) => js.includes(String(r.judge)))
    .map((r) => ({
      source: String(r.source),
      judge: String(r.judge),
      model: r.model == null ? POOLED : String(r.model),
      t: r2(Number(r.t)),
      f1: r2(Number(r.f1)),
    }))
    .sort(
      (a, b) =>
        (a.source < b.source ? -1 : a.source > b.source ? 1 : 0) ||
        js.indexOf(a.judge) - js.indexOf(b.judge) ||
        series.indexOf(a.model) - series.indexOf(b.model) ||
        a.t - b.t,
    );
  const best = new Map<string, { source: string; judge: string; t: number; f1: number }>();
  for (const r of all) {
    if (r.model == null && js.includes(String(r.judge)))
      best.set(`${r.source}\0${r.judge}`, {
        source: String(r.source),
        judge: String(r.judge),
        t: r2(Number(r.best_t)),
        f1: r2(Number(r.best_f1)),
      });
  }
  const bests = [...best.values()].sort((a, b) =>
    a.source < b.source ? -1 : a.source > b.source ? 1 : js.indexOf(a.judge) - js.indexOf(b.judge),
  );
  const anySim = all.some((r) => r.simulated === true);
  const range = [...colours(models), '#000000'];
  return {
    name: 'figure4_threshold_f1',
    title: `Figure 4: step-matching F1 against the threshold t, per model and pooled${anySim ? ' — labels from simulated agents' : ''}`,
    caption:
      'F1 of "consistency C ≥ t counts as a correct step match" against t over both settings: one curve per model and the pooled curve ' +
      '(black, thicker); the dot marks the pooled best threshold. Columns: judges; rows: label source (simulated-plan: the perturbation ' +
      "agents' true step mappings; human: human labels).",
    width: 720,
    height: Math.max(1, sources.length) * 300 + 40,
    panels: [
      {
        x: 0,
        y: 0,
        width: 720,
        height: Math.max(1, sources.length) * 300 + 40,
        plot: {
          marginLeft: 50,
          marginBottom: 40,
          marginRight: 90,
          fx: { domain: js, label: null },
          fy: { domain: sources, label: null },
          x: { domain: [0, 1], label: 'Threshold t →', grid: true },
          y: { domain: [0, 1], label: '↑ F1', grid: true },
          color: { domain: series, range },
        },
        marks: [
          { type: 'frame', data: [], options: { stroke: '#999' } },
          {
            type: 'line',
            data: curve.filter((c) => c.model !== POOLED),
            options: { x: 't', y: 'f1', fx: 'judge', fy: 'source', stroke: 'model', z: 'model', strokeWidth: 1 },
          },
          {
            type: 'line',
            data: curve.filter((c) => c.model === POOLED),
            options: { x: 't', y: 'f1', fx: 'judge', fy: 'source', stroke: 'model', z: 'model', strokeWidth: 2.5 },
          },
          { type: 'dot', data: bests, options: { x: 't', y: 'f1', fx: 'judge', fy: 'source', fill: '#000000', r: 4 } },
        ],
      },
    ],
    legend: { label: 'Model', domain: series, range },
    ...absentIf(
      curve.length === 0,
      all.length === 0
        ? "no ground truth in this run: threshold_analysis has no rows (step matches are labelled only by the simulated perturbation agents' plans or by human labels)"
        : `threshold_analysis has no curve for the judges shown (${js.join(', ') || 'none'})`,
    ),
  };
}

/** The q-quantile with linear interpolation between order statistics (NumPy's default). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * q,
    lo = Math.floor(h);
  return sorted[lo]! + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] ?? sorted[lo]!) - sorted[lo]!);
}

const SPLIT_ORDER = ['test', 'non-test'];

/** Counts per (split, length); the inset shows lengths ≥ ⌈P95⌉ of the full set (from cdp_length_stats when given). */
export function figure5(cdps: readonly Row[], lengthStats: readonly Row[] = []): FigureSpec {
  const counts = new Map<string, number>();
  const lengths: number[] = [];
  for (const c of cdps) {
    const len = Number(c.length);
    if (!Number.isInteger(len)) continue;
    lengths.push(len);
    const k = JSON.stringify([String(c.split), len]);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  lengths.sort((a, b) => a - b);
  const splits = [...new Set(cdps.map((c) => String(c.split)))].sort((a, b) => {
    const ia = SPLIT_ORDER.indexOf(a),
      ib = SPLIT_ORDER.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || (a < b ? -1 : a > b ? 1 : 0);
  });
  const bars = [...counts.entries()]
    .map(([k, count]) => {
      const [split, length] = JSON.parse(k) as [string, number];
      return { split, length, x1: length - 0.4, x2: length + 0.4, count };
    })
    .sort((a, b) => a.length - b.length || splits.indexOf(a.split) - splits.indexOf(b.split));
  const statP95 = lengthStats.find((r) => r.split === 'full' && r.statistic === 'P95')?.value;
  const p95 = typeof statP95 === 'number' && Number.isFinite(statP95) ? statP95 : quantile(lengths, 0.95);
  const tailFrom = Math.ceil(p95);
  const tail = bars.filter((b) => b.length >= tailFrom);
  const max = lengths.at(-1) ?? 1;
  const colour = { domain: splits, range: colours(splits) };
  return {
    name: 'figure5_cdp_lengths',
    title: 'Figure 5: distribution of reference CDP lengths by split',
    caption: `Number of CDPs per length (decision steps), stacked by split. Inset: the long tail, lengths ≥ ${tailFrom} (⌈P95⌉ of the full set, P95 = ${r2(p95)}), magnified.`,
    width: 720,
    height: 380,
    panels: [
      {
        x: 0,
        y: 0,
        width: 720,
        height: 380,
        plot: {
          marginLeft: 50,
          marginBottom: 40,
          x: { domain: [0, max + 1], label: 'CDP length (steps) →' },
          y: { label: '↑ CDPs', grid: true },
          color: colour,
        },
        marks: [{ type: 'rectY', data: bars, options: { x1: 'x1', x2: 'x2', y: 'count', fill: 'split' } }],
      },
      {
        x: 450,
        y: 10,
        width: 250,
        height: 160,
        boxed: true,
        plot: {
          marginLeft: 36,
          marginBottom: 30,
          marginTop: 16,
          x: { domain: [tailFrom - 1, max + 1], label: `length ≥ ${tailFrom}` },
          y: { label: 'CDPs', grid: true },
          color: colour,
        },
        marks: [{ type: 'rectY', data: tail, options: { x1: 'x1', x2: 'x2', y: 'count', fill: 'split' } }],
      },
    ],
    legend: { label: 'Split', domain: splits, range: colours(splits) },
    ...absentIf(bars.length === 0, 'no CDP in this run (cdps has no rows)'),
  };
}

export const DEVIATION_TYPES = ['omission', 'redundancy', 'skipping', 'reversal'] as const;

/** Deviations per case by type, stacked, per model, one facet per setting. */
export function deviationFigure(rows: readonly Row[]): FigureSpec {
  const models = orderModels(
    // Only the simulated perturbation agents have plans to read deviations from.
    rows.map((r) => ({ model: String(r.model), simulated: r.source === 'simulated-plan' })),
  );
  const settings = SETTINGS.filter((s) => rows.some((r) => r.setting === s)).map((s) => SETTING_LABEL[s]!);
  const data: Record<string, unknown>[] = [];
  for (const setting of SETTINGS) {
    for (const model of models) {
      const r = rows.find((x) => x.setting === setting && x.model === model);
      if (!r || !(Number(r.cases) > 0)) continue;
      for (const type of DEVIATION_TYPES)
        data.push({
          setting: SETTING_LABEL[setting],
          model,
          type,
          per_case: r2(Number(r[type]) / Number(r.cases)),
          count: Number(r[type]),
          cases: Number(r.cases),
        });
    }
  }
  const anySim = rows.some((r) => r.source === 'simulated-plan');
  const types = [...DEVIATION_TYPES];
  return {
    name: 'figure_deviation_profile',
    title: `Deviation profile per model${anySim ? ' — simulated perturbation agents (true deviations of their plans)' : ''}`,
    caption: 'Process deviations per case by type (omission, redundancy, skipping, reversal), stacked, per model and setting.',
    width: 720,
    height: 460,
    panels: [
      {
        x: 0,
        y: 0,
        width: 720,
        height: 460,
        plot: {
          marginLeft: 50,
          marginBottom: 190,
          fx: { domain: settings, label: null },
          x: { domain: models, label: null, tickRotate: -90 },
          y: { label: '↑ deviations per case', grid: true },
          color: { domain: types, range: colours(types) },
        },
        marks: [
          { type: 'barY', data, options: { x: 'model', y: 'per_case', fx: 'setting', fill: 'type', order: types } },
          { type: 'ruleY', data: [{ y: 0 }], options: { y: 'y' } },
        ],
      },
    ],
    legend: { label: 'Deviation', domain: types, range: colours(types) },
    ...absentIf(
      data.length === 0,
      "no ground truth in this run: deviation_profile has no rows (true deviations come only from the simulated perturbation agents' plans)",
    ),
  };
}
