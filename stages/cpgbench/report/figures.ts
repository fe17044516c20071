/**
 * CPGBench's figures as FigureSpec data (pure: rate rows in, spec out; render-figure.ts draws):
 * - Figure 3: content detection, title grounding and adherence rates by country, region or
 *   organization, one panel per task, a bar per model;
 * - Figure 4: content detection and adherence by specialty with the 95% case-bootstrap CIs;
 * - Figure 5: detection minus adherence by specialty, per model (percentage points).
 */
import { colours, type FigureSpec, type MarkSpec, type PanelSpec } from '../../report/figure-spec.ts';
import type { RateRow } from '../results/rates.ts';
import { SIMULATED_TITLE, TASK_LABEL, boardOrder, groupsOf, lookup, simulatedShare } from './rate-rows.ts';

const r2 = (x: number) => Math.round(Number((x * 100).toPrecision(12))) / 100;
const WIDTH = 900;

interface Bar {
  group: string;
  model: string;
  value: number;
  low: number;
  high: number;
}

function bars(rows: readonly RateRow[], judge: string | null, task: string, grouping: string): Bar[] {
  const at = lookup(rows, judge);
  const models = boardOrder(rows, judge);
  return groupsOf(rows, grouping).flatMap((g) =>
    models.flatMap((m) => {
      const c = at(m, task, grouping, g);
      return c && Number.isFinite(c.rate)
        ? [{ group: g, model: m, value: r2(c.rate * 100), low: r2(c.ci_low * 100), high: r2(c.ci_high * 100) }]
        : [];
    }),
  );
}

function barPanel(
  data: Bar[],
  models: string[],
  y: number,
  height: number,
  label: string,
  opts: { whiskers?: boolean; domain?: [number, number] } = {},
): PanelSpec {
  const marks: MarkSpec[] = [
    { type: 'frame', data: [], options: { stroke: '#999' } },
    { type: 'barY', data: data as unknown as Record<string, unknown>[], options: { x: 'model', y: 'value', fx: 'group', fill: 'model' } },
    { type: 'ruleY', data: [{ y: 0 }], options: { y: 'y', stroke: '#333' } },
  ];
  if (opts.whiskers)
    marks.push({
      type: 'ruleX',
      data: data as unknown as Record<string, unknown>[],
      options: { x: 'model', y1: 'low', y2: 'high', fx: 'group', stroke: '#333' },
    });
  // Many groups (the paper's 24 specialties) get slanted labels with room below them.
  const crowded = new Set(data.map((d) => d.group)).size > 6;
  return {
    x: 0,
    y,
    width: WIDTH,
    height,
    plot: {
      marginLeft: 50,
      marginBottom: crowded ? 110 : 30,
      marginTop: 30,
      fx: { label: null, tickRotate: crowded ? -40 : 0 },
      x: { domain: models, axis: null, padding: 0.1 },
      y: { domain: opts.domain ?? [0, 100], label, grid: true },
      color: { domain: models, range: colours(models) },
    },
    marks,
  };
}

const legend = (models: string[]) => ({ label: 'Model', domain: models, range: colours(models) });

export function figure3(rows: readonly RateRow[], judge: string | null): FigureSpec {
  const models = boardOrder(rows, judge);
  const tasks = ['content_detection', 'title_grounding', 'adherence'] as const;
  return {
    name: 'cpgbench_figure3_regions',
    title: `Figure 3: rates by country, region or organization (judge: ${judge ?? 'none'})${SIMULATED_TITLE[simulatedShare(rows)]}`,
    caption: `One panel per task, one bar per model and region, in % of the region's recommendations (a: ${TASK_LABEL.content_detection}, b: ${TASK_LABEL.title_grounding}, c: ${TASK_LABEL.adherence}).`,
    width: WIDTH,
    height: 3 * 300,
    panels: tasks.map((t, i) =>
      barPanel(bars(rows, judge, t, 'region'), models, i * 300, 290, `↑ ${String.fromCharCode(97 + i)}: ${TASK_LABEL[t]} (%)`),
    ),
    legend: legend(models),
  };
}

export function figure4(rows: readonly RateRow[], judge: string | null): FigureSpec {
  const models = boardOrder(rows, judge);
  const tasks = ['content_detection', 'adherence'] as const;
  return {
    name: 'cpgbench_figure4_specialties',
    title: `Figure 4: content detection and adherence by specialty, with 95% CIs (judge: ${judge ?? 'none'})${SIMULATED_TITLE[simulatedShare(rows)]}`,
    caption:
      "Bars: the rate in % of the specialty's recommendations; whiskers: the 95% case-bootstrap CI over them (a: content detection, b: adherence).",
    width: WIDTH,
    height: 2 * 320,
    panels: tasks.map((t, i) =>
      barPanel(bars(rows, judge, t, 'specialty'), models, i * 320, 310, `↑ ${String.fromCharCode(97 + i)}: ${TASK_LABEL[t]} (%)`, {
        whiskers: true,
      }),
    ),
    legend: legend(models),
  };
}

export function figure5(rows: readonly RateRow[], judge: string | null): FigureSpec {
  const models = boardOrder(rows, judge);
  const detection = bars(rows, judge, 'content_detection', 'specialty');
  const adherence = new Map(bars(rows, judge, 'adherence', 'specialty').map((b) => [`${b.group}\u0000${b.model}`, b.value]));
  const diff = detection.flatMap((d) => {
    const a = adherence.get(`${d.group}\u0000${d.model}`);
    return a === undefined ? [] : [{ ...d, value: Math.round((d.value - a) * 100) / 100 }];
  });
  const values = diff.map((d) => d.value);
  const lo = Math.min(0, ...values),
    hi = Math.max(10, ...values);
  return {
    name: 'cpgbench_figure5_detection_minus_adherence',
    title: `Figure 5: content detection minus adherence by specialty (judge: ${judge ?? 'none'})${SIMULATED_TITLE[simulatedShare(rows)]}`,
    caption: 'Percentage points; above 0 the model detects more recommendations of the specialty than it adheres to.',
    width: WIDTH,
    height: 260,
    panels: [
      barPanel(diff, models, 0, 250, '↑ Detection − adherence (pp)', { domain: [Math.floor(lo / 10) * 10, Math.ceil(hi / 10) * 10] }),
    ],
    legend: legend(models),
  };
}
