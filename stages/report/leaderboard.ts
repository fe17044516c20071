/**
 * The leaderboard (pure: rows in, table and figure out). Per setting, models ranked by the
 * default judge's DTW-PCC (lower is better): real models first, simulated agents after them and
 * ranked apart, since an offline stand-in is a yardstick, not a competitor. Each cell is the
 * model_summary mean with its 95% CI, its n and its failures; for each pair of adjacent models
 * of one group, the paired difference of PCC and accuracy over their common cases with a
 * paired bootstrap CI (stages/stats/paired-bootstrap.ts), which tells whether the rank is real.
 */
import type { Row } from '../../pipeline/stage.ts';
import type { BootstrapOptions } from '../stats/bootstrap.ts';
import { pairedDifference, type PairedDifference } from '../stats/paired-bootstrap.ts';
import type { FigureSpec, MarkSpec } from './figure-spec.ts';
import { pct, pctWithCi } from './format.ts';
import { defaultJudge } from './judges.ts';
import type { JudgeFacts } from '../roster/judge-spec.ts';
import { SETTINGS, SETTING_LABEL } from './paper-tables.ts';
import type { ReportTable } from './report-table.ts';
import { cellKey, indexSummary, type SummaryRow } from './summary-rows.ts';

export const LEADERBOARD_METRICS = ['dtw_pcc', 'acc', 'sr'] as const;
type Metric = (typeof LEADERBOARD_METRICS)[number];

export interface LeaderboardEntry {
  setting: string;
  /** 1-based within its group (real models, then simulated agents). */
  rank: number;
  model: string;
  simulated: boolean;
  judge: string | null;
  cells: Record<Metric, SummaryRow | undefined>;
  /** Against the next model of the same group (null for the last one or without common cases). */
  next: { model: string; pcc: PairedDifference | null; acc: PairedDifference | null } | null;
}

/** Per-case values of one (setting, metric, model): cdp_id → value. */
export type CaseValues = Map<string, Map<string, number>>;
const caseKey = (setting: string, metric: string, model: string) => JSON.stringify([setting, metric, model]);

/**
 * The per-case values the paired differences need, from the stage rows: DTW-PCC and accuracy by
 * the default judge, SR from the multi-turn pathways. Failed rows carry no value.
 */
export function caseValues(
  inputs: { pathway_metrics?: readonly Row[]; outcome_scores?: readonly Row[] },
  judge: string | null,
): CaseValues {
  const out: CaseValues = new Map();
  const put = (r: Row, metric: string, v: number) => {
    const k = caseKey(String(r.setting), metric, String(r.model));
    if (!out.has(k)) out.set(k, new Map());
    out.get(k)!.set(String(r.cdp_id), v);
  };
  for (const r of inputs.pathway_metrics ?? []) {
    if (r.judge === judge && r.error == null && typeof r.dtw_pcc === 'number' && Number.isFinite(r.dtw_pcc)) put(r, 'dtw_pcc', r.dtw_pcc);
  }
  for (const r of inputs.outcome_scores ?? [])
    if (r.judge === judge && r.error == null && typeof r.correct === 'boolean') put(r, 'acc', r.correct ? 1 : 0);
  return out;
}

export function leaderboard(
  summary: readonly SummaryRow[],
  values: CaseValues,
  judges: readonly JudgeFacts[] = [],
  opts: BootstrapOptions = {},
): LeaderboardEntry[] {
  const judge = defaultJudge(
    summary.flatMap((r) => (r.judge === null ? [] : [r.judge])),
    judges,
  );
  const at = indexSummary(summary);
  const out: LeaderboardEntry[] = [];
  for (const setting of SETTINGS) {
    const mine = summary.filter((r) => r.setting === setting);
    const models = [...new Set(mine.map((r) => r.model))];
    const simulated = (m: string) => mine.some((r) => r.model === m && r.simulated);
    const cell = (metric: Metric, m: string) => at.get(cellKey(setting, metric === 'sr' ? null : judge, metric, m));
    const pccOf = (m: string) => cell('dtw_pcc', m)?.mean;
    // Lower PCC first; a model without a PCC (its judging failed) after those with one.
    const byPcc = (a: string, b: string) => {
      const pa = pccOf(a),
        pb = pccOf(b);
      const fa = Number.isFinite(pa),
        fb = Number.isFinite(pb);
      if (fa !== fb) return fa ? -1 : 1;
      return (fa && pa! !== pb! ? pa! - pb! : 0) || (a < b ? -1 : a > b ? 1 : 0);
    };
    for (const group of [false, true]) {
      const ranked = models.filter((m) => simulated(m) === group).sort(byPcc);
      ranked.forEach((model, i) => {
        const nextModel = ranked[i + 1];
        const diff = (metric: Metric) => {
          const a = values.get(caseKey(setting, metric, model)),
            b = nextModel && values.get(caseKey(setting, metric, nextModel));
          return a && b ? pairedDifference(a, b, opts) : null;
        };
        out.push({
          setting,
          rank: i + 1,
          model,
          simulated: group,
          judge,
          cells: { dtw_pcc: cell('dtw_pcc', model), acc: cell('acc', model), sr: setting === 'multi' ? cell('sr', model) : undefined },
          next: nextModel ? { model: nextModel, pcc: diff('dtw_pcc'), acc: diff('acc') } : null,
        });
      });
    }
  }
  return out;
}

/** A difference in percentage points with its CI: "-4.00 (-6.50–-1.50), n=12". */
export function diffCell(d: PairedDifference | null | undefined): string {
  if (!d) return '—';
  return `${d.diff > 0 ? '+' : ''}${pctWithCi(d.diff, d.ciLow, d.ciHigh)}, n=${d.n}`;
}

const nf = (c: SummaryRow | undefined) => (c ? `${c.n} / ${c.failures}` : '—');

/** The title's label when simulated agents are on the board: all of it, or ranked apart. */
function simulatedLabel(entries: readonly LeaderboardEntry[]): string {
  const sim = entries.filter((e) => e.simulated).length;
  return sim === 0 ? '' : sim === entries.length ? ' — simulated agents, not LLM results' : ' — includes simulated agents (ranked apart)';
}

export function leaderboardTable(entries: readonly LeaderboardEntry[]): ReportTable {
  const judge = entries[0]?.judge ?? null;
  return {
    name: 'leaderboard',
    title: `Leaderboard: models ranked by DTW-PCC (judge: ${judge ?? 'none'})${simulatedLabel(entries)}`,
    caption:
      'Per setting, real models ranked by DTW-PCC (lower is better), then the simulated reference agents ranked apart. ' +
      'Each metric: mean in % (95% case-bootstrap CI), then "n / failures": the cases in the mean and the test cases that were ' +
      'failed calls or unreadable answers. Δ to next: the paired difference (this model − the next one of its group) in ' +
      'percentage points over the cases both completed, with a 95% paired-bootstrap CI; a CI that contains 0 means the two ranks ' +
      'are not distinguishable on these cases. SR is multi-turn only.',
    columns: [
      'Setting',
      'Rank',
      'Model',
      'PCC (%) ↓',
      'PCC n / failures',
      'Acc (%) ↑',
      'Acc n / failures',
      'SR (%) ↑',
      'SR n / failures',
      'Next model',
      'Δ PCC to next (pp)',
      'Δ Acc to next (pp)',
    ],
    rows: entries.map((e) => {
      const c = e.cells;
      return [
        SETTING_LABEL[e.setting]!,
        e.simulated ? `sim ${e.rank}` : String(e.rank),
        e.model,
        pctWithCi(c.dtw_pcc?.mean, c.dtw_pcc?.ci_low, c.dtw_pcc?.ci_high),
        nf(c.dtw_pcc),
        pctWithCi(c.acc?.mean, c.acc?.ci_low, c.acc?.ci_high),
        nf(c.acc),
        e.setting === 'multi' ? pctWithCi(c.sr?.mean, c.sr?.ci_low, c.sr?.ci_high) : '',
        e.setting === 'multi' ? nf(c.sr) : '',
        e.next?.model ?? '',
        diffCell(e.next?.pcc),
        diffCell(e.next?.acc),
      ];
    }),
  };
}

/** The same entries as plain numbers (percent, 2 decimals; empty when absent) for the CSV. */
export function leaderboardData(entries: readonly LeaderboardEntry[]): ReportTable {
  const m = (c: SummaryRow | undefined) =>
    c ? [pct(c.mean), pct(c.ci_low), pct(c.ci_high), String(c.n), String(c.failures)] : ['', '', '', '', ''];
  const d = (x: PairedDifference | null | undefined) => (x ? [pct(x.diff), pct(x.ciLow), pct(x.ciHigh), String(x.n)] : ['', '', '', '']);
  const metricCols = (p: string) => [`${p}_mean`, `${p}_ci_low`, `${p}_ci_high`, `${p}_n`, `${p}_failures`];
  const diffCols = (p: string) => [`${p}_diff`, `${p}_diff_ci_low`, `${p}_diff_ci_high`, `${p}_diff_n`];
  return {
    name: 'leaderboard',
    title: '',
    caption: '',
    columns: [
      'setting',
      'group',
      'rank',
      'model',
      'judge',
      ...metricCols('pcc'),
      ...metricCols('acc'),
      ...metricCols('sr'),
      'next_model',
      ...diffCols('pcc'),
      ...diffCols('acc'),
    ],
    rows: entries.map((e) => [
      e.setting,
      e.simulated ? 'simulated' : 'real',
      String(e.rank),
      e.model,
      e.judge ?? '',
      ...m(e.cells.dtw_pcc),
      ...m(e.cells.acc),
      ...m(e.cells.sr),
      e.next?.model ?? '',
      ...d(e.next?.pcc),
      ...d(e.next?.acc),
    ]),
  };
}

const r2 = (x: number) => Math.round(Number((x * 100).toPrecision(12))) / 100;
const GROUPS = ['real model', 'simulated agent'];

/** One panel per setting: each model's PCC with its CI whisker, ranked top to bottom, simulated agents hollow and grey. */
export function leaderboardFigure(entries: readonly LeaderboardEntry[]): FigureSpec {
  const settings = SETTINGS.filter((s) => entries.some((e) => e.setting === s));
  const rowH = 22;
  let top = 0;
  const panels = settings.map((setting) => {
    const mine = entries.filter((e) => e.setting === setting && e.cells.dtw_pcc && Number.isFinite(e.cells.dtw_pcc.mean));
    const label = (e: LeaderboardEntry) => `${e.simulated ? 'sim ' : ''}${e.rank}. ${e.model}`;
    const points = mine.map((e) => {
      const c = e.cells.dtw_pcc!;
      return {
        label: label(e),
        group: GROUPS[e.simulated ? 1 : 0],
        pcc: r2(c.mean * 100),
        low: r2((c.ci_low ?? c.mean) * 100),
        high: r2((c.ci_high ?? c.mean) * 100),
        note: `n=${c.n}, failed ${c.failures}`,
      };
    });
    const height = 60 + Math.max(1, points.length) * rowH;
    const marks: MarkSpec[] = [
      { type: 'frame', data: [], options: { stroke: '#999' } },
      { type: 'ruleY', data: points, options: { y: 'label', x1: 'low', x2: 'high', stroke: 'group', strokeWidth: 1.5 } },
      { type: 'dot', data: points.filter((p) => p.group === GROUPS[0]), options: { y: 'label', x: 'pcc', fill: 'group', r: 4 } },
      {
        type: 'dot',
        data: points.filter((p) => p.group === GROUPS[1]),
        options: { y: 'label', x: 'pcc', stroke: 'group', fill: 'white', r: 4, symbol: 'square' },
      },
      { type: 'text', data: points, options: { y: 'label', x: 100, text: 'note', textAnchor: 'end', dx: -4 } },
    ];
    const y = top;
    top += height + 10;
    return {
      x: 0,
      y,
      width: 720,
      height,
      plot: {
        marginLeft: 220,
        marginRight: 30,
        marginBottom: 40,
        marginTop: 24,
        x: { domain: [0, 100], label: `${SETTING_LABEL[setting]} — ↓ DTW-PCC (%), 95% CI`, grid: true },
        y: { domain: points.map((p) => p.label), label: null },
        color: { domain: GROUPS, range: ['#4e79a7', '#9c9c9c'] },
      },
      marks,
    };
  });
  const judge = entries[0]?.judge ?? null;
  return {
    name: 'leaderboard',
    title: `Leaderboard: DTW-PCC per model with 95% CIs (judge: ${judge ?? 'none'})${simulatedLabel(entries)}`,
    caption:
      'Per setting, models ranked by DTW-PCC (lower is better), real models first; the whisker is the 95% case-bootstrap CI; ' +
      'simulated reference agents are hollow grey squares, ranked apart. n: cases in the mean; failed: failed calls or unreadable answers.',
    width: 720,
    height: Math.max(60, top),
    panels,
    legend: { label: 'Kind', domain: GROUPS, range: ['#4e79a7', '#9c9c9c'] },
  };
}
