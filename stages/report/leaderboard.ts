/**
 * The leaderboard (pure: rows in, table and figure out). Per setting, models ranked by the
 * default judge's DTW-PCC (lower is better): real models first, simulated agents after them and
 * ranked apart, since an offline stand-in is a yardstick, not a competitor; within each, a model
 * whose cells are incomplete (server or patient failures, unscored cases left out of its means)
 * is ranked apart after the complete ones, since its means are over fewer cases. Each cell is the
 * model_summary mean with its CI, its n and its failures by kind; for each pair of adjacent
 * models of one group, the paired difference of PCC and accuracy with a paired bootstrap CI
 * (stages/stats/paired-bootstrap.ts), over the cases both means use and with the values they
 * use (policy-values.ts: the same code as model_summary), which tells whether the rank is real.
 * With `cluster` the CIs of means and differences resample guidelines instead of cases; any CI
 * or difference from fewer than 10 guidelines is marked † with their number. The bootstrap
 * (resamples, seed, level) is the one model_summary recorded (run_settings), and the captions say it.
 */
import type { Row } from '../../pipeline/stage.ts';
import type { BootstrapOptions } from '../stats/bootstrap.ts';
import { pairedDifference, type PairedDifference } from '../stats/paired-bootstrap.ts';
import type { FigureSpec, MarkSpec } from './figure-spec.ts';
import { fewClusters, UNRELIABLE_MARK } from './cluster-ci.ts';
import { KINDS_SENTENCE, coverageNote, countsText, incompleteNote, policySentence } from './failure-counts.ts';
import { pct, pctWithCi } from './format.ts';
import { defaultJudge } from './judges.ts';
import type { JudgeFacts } from '../roster/judge-spec.ts';
import { SETTINGS, SETTING_LABEL } from './paper-tables.ts';
import { policyValues, summaryPolicy, valuesByCase, type PolicyValues } from './policy-values.ts';
import type { ReportTable } from './report-table.ts';
import { RunSettings } from './run-settings.ts';
import { bootstrapDraws, caseCiText, levelWord } from './setting-text.ts';
import { cellKey, indexSummary, type SummaryRow } from './summary-rows.ts';

export const LEADERBOARD_METRICS = ['dtw_pcc', 'acc', 'sr'] as const;
type Metric = (typeof LEADERBOARD_METRICS)[number];

/** The four groups of a setting, in board order: ranks restart in each. */
export const GROUPS = ['real', 'real-incomplete', 'simulated', 'simulated-incomplete'] as const;
export type Group = (typeof GROUPS)[number];
const RANK_PREFIX: Record<Group, string> = {
  real: '',
  'real-incomplete': 'incomplete ',
  simulated: 'sim ',
  'simulated-incomplete': 'sim incomplete ',
};

export interface LeaderboardEntry {
  setting: string;
  /** 1-based within its group. */
  rank: number;
  group: Group;
  model: string;
  simulated: boolean;
  incomplete: boolean;
  /** "incomplete: 20 server failures — retry with …", "covers 10 of 40 test cases"; null when neither. */
  note: string | null;
  judge: string | null;
  cells: Record<Metric, SummaryRow | undefined>;
  /** Against the next model of the same group (null for the last one or without common cases). */
  next: { model: string; pcc: PairedDifference | null; acc: PairedDifference | null } | null;
}

export interface LeaderboardOptions extends BootstrapOptions {
  /** Resample guidelines instead of cases for the CIs and the differences. */
  cluster?: boolean;
}

/**
 * The per-case values the paired differences need, from the stage rows (pathway_metrics,
 * outcome_scores, predicted_pathways) under the failure policy the summary rows record.
 */
export function caseValues(
  inputs: Record<string, readonly Row[] | undefined>,
  summary: readonly SummaryRow[],
  judge: string | null,
): PolicyValues {
  return policyValues(inputs, summaryPolicy(summary), judge);
}

export const rankLabel = (e: Pick<LeaderboardEntry, 'group' | 'rank'>) => `${RANK_PREFIX[e.group]}${e.rank}`;

export function leaderboard(
  summary: readonly SummaryRow[],
  values: PolicyValues,
  judges: readonly JudgeFacts[] = [],
  opts: LeaderboardOptions = {},
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
    const cellsOf = (m: string) => ({
      dtw_pcc: cell('dtw_pcc', m),
      acc: cell('acc', m),
      sr: setting === 'multi' ? cell('sr', m) : undefined,
    });
    const groupOf = (m: string): Group => {
      const incomplete = Object.values(cellsOf(m)).some((c) => c?.incomplete);
      return `${simulated(m) ? 'simulated' : 'real'}${incomplete ? '-incomplete' : ''}` as Group;
    };
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
    for (const group of GROUPS) {
      const ranked = models.filter((m) => groupOf(m) === group).sort(byPcc);
      ranked.forEach((model, i) => {
        const nextModel = ranked[i + 1];
        const diff = (metric: 'dtw_pcc' | 'acc') => {
          const a = valuesByCase(values.cells.get(cellKey(setting, judge, metric, model))),
            b = nextModel ? valuesByCase(values.cells.get(cellKey(setting, judge, metric, nextModel))) : undefined;
          return a && b ? pairedDifference(a, b, { ...opts, guidelineOf: values.guidelineOf }) : null;
        };
        const cells = cellsOf(model);
        const notes = [incompleteNote(Object.values(cells)), coverageNote(cells.dtw_pcc ?? cells.acc)].filter((x) => x !== null);
        out.push({
          setting,
          rank: i + 1,
          group,
          model,
          simulated: simulated(model),
          incomplete: group.endsWith('incomplete'),
          note: notes.length ? notes.join('; ') : null,
          judge,
          cells,
          next: nextModel ? { model: nextModel, pcc: diff('dtw_pcc'), acc: diff('acc') } : null,
        });
      });
    }
  }
  return out;
}

/** " † 3 guidelines" when a CI or difference rests on fewer than 10 guidelines; "" otherwise. */
const fewMark = (k: number | null | undefined) => (fewClusters(k) ? ` ${UNRELIABLE_MARK} ${k} guideline${k === 1 ? '' : 's'}` : '');

/** A difference in percentage points with its CI: "-4.00 (-6.50–-1.50), n=12", marked † when from fewer than 10 guidelines. */
export function diffCell(d: PairedDifference | null | undefined): string {
  if (!d) return '—';
  return `${d.diff > 0 ? '+' : ''}${pctWithCi(d.diff, d.ciLow, d.ciHigh)}, n=${d.n}${fewMark(d.guidelines)}`;
}

/** A mean with the CI the board resamples by (cases, or guidelines with `cluster`), marked † when from fewer than 10 guidelines. */
export function meanCell(c: SummaryRow | undefined, cluster = false): string {
  if (!c) return '—';
  const ci = cluster ? [c.cluster_ci_low, c.cluster_ci_high] : [c.ci_low, c.ci_high];
  return `${pctWithCi(c.mean, ci[0], ci[1])}${Number.isFinite(c.mean) ? fewMark(c.clusters) : ''}`;
}

const nf = (c: SummaryRow | undefined) => (c ? countsText(c) : '—');

/** The title's label when simulated agents are on the board: all of it, or ranked apart. */
function simulatedLabel(entries: readonly LeaderboardEntry[]): string {
  const sim = entries.filter((e) => e.simulated).length;
  return sim === 0 ? '' : sim === entries.length ? ' — simulated agents, not LLM results' : ' — includes simulated agents (ranked apart)';
}

const NO_ENTRIES = 'model_summary has no rows: no model was evaluated and scored in this run';

function leaderboardCaption(entries: readonly LeaderboardEntry[], cluster: boolean, settings: RunSettings): string {
  const cells = entries.flatMap((e) => Object.values(e.cells).filter((c): c is SummaryRow => !!c));
  const by = cluster ? 'guidelines (cluster bootstrap)' : 'cases';
  const draws = bootstrapDraws(settings);
  const marked = entries.some(
    (e) =>
      Object.values(e.cells).some((c) => c && fewClusters(c.clusters)) ||
      [e.next?.pcc, e.next?.acc].some((d) => fewClusters(d?.guidelines)),
  );
  return [
    'Per setting, real models ranked by DTW-PCC (lower is better), then the simulated reference agents ranked apart; ' +
      'a model whose means are incomplete (server or patient failures, or unscored cases, left out of them; rank "incomplete k") ' +
      'is ranked apart after the complete ones of its kind, with what to retry.',
    `Each metric: mean in % (${levelWord(settings)}bootstrap CI resampling ${by}, ${draws}), then n and the failures by kind.`,
    KINDS_SENTENCE,
    policySentence(cells),
    'Δ to next: the paired difference (this model − the next one of its group) in percentage points over the cases both means use, ' +
      `with the values they use (the same failure policy), and a ${levelWord(settings)}paired-bootstrap CI resampling ${by} (${draws}); a CI that contains 0 means ` +
      'the two ranks are not distinguishable on these cases. SR is multi-turn only.',
    ...(marked
      ? [
          `${UNRELIABLE_MARK}: from fewer than 10 guidelines (their number follows the mark): unreliable, so few clusters give few distinct resamples.`,
        ]
      : []),
  ].join(' ');
}

export function leaderboardTable(entries: readonly LeaderboardEntry[], o: { cluster?: boolean; settings?: RunSettings } = {}): ReportTable {
  const judge = entries[0]?.judge ?? null;
  const cluster = o.cluster ?? false;
  return {
    name: 'leaderboard',
    title: `Leaderboard: models ranked by DTW-PCC (judge: ${judge ?? 'none'})${simulatedLabel(entries)}`,
    caption: leaderboardCaption(entries, cluster, o.settings ?? new RunSettings([])),
    columns: [
      'Setting',
      'Rank',
      'Model',
      'PCC (%) ↓',
      'PCC n',
      'Acc (%) ↑',
      'Acc n',
      'SR (%) ↑',
      'SR n',
      'Next model',
      'Δ PCC to next (pp)',
      'Δ Acc to next (pp)',
    ],
    rows: entries.map((e) => {
      const c = e.cells;
      return [
        SETTING_LABEL[e.setting]!,
        rankLabel(e),
        e.note ? `${e.model} (${e.note})` : e.model,
        meanCell(c.dtw_pcc, cluster),
        nf(c.dtw_pcc),
        meanCell(c.acc, cluster),
        nf(c.acc),
        e.setting === 'multi' ? meanCell(c.sr, cluster) : '',
        e.setting === 'multi' ? nf(c.sr) : '',
        e.next?.model ?? '',
        diffCell(e.next?.pcc),
        diffCell(e.next?.acc),
      ];
    }),
    ...(entries.length ? {} : { absent: NO_ENTRIES }),
  };
}

const KIND_COLUMNS = ['answer_failures', 'server_failures', 'patient_failures', 'missing_cases', 'unscored'] as const;

/** The same entries as plain numbers (percent, 2 decimals; empty when absent) for the CSV. */
export function leaderboardData(entries: readonly LeaderboardEntry[], o: { cluster?: boolean } = {}): ReportTable {
  const lo = (c: SummaryRow) => (o.cluster ? c.cluster_ci_low : c.ci_low),
    hi = (c: SummaryRow) => (o.cluster ? c.cluster_ci_high : c.ci_high);
  const m = (c: SummaryRow | undefined) =>
    c
      ? [
          pct(c.mean),
          pct(lo(c)),
          pct(hi(c)),
          String(c.n),
          String(c.cases),
          ...KIND_COLUMNS.map((k) => String(c[k])),
          String(c.clusters ?? ''),
        ]
      : Array.from({ length: 6 + KIND_COLUMNS.length }, () => '');
  const d = (x: PairedDifference | null | undefined) =>
    x ? [pct(x.diff), pct(x.ciLow), pct(x.ciHigh), String(x.n), String(x.guidelines ?? '')] : ['', '', '', '', ''];
  const metricCols = (p: string) => [
    `${p}_mean`,
    `${p}_ci_low`,
    `${p}_ci_high`,
    `${p}_n`,
    `${p}_cases`,
    ...KIND_COLUMNS.map((k) => `${p}_${k}`),
    `${p}_guidelines`,
  ];
  const diffCols = (p: string) => [`${p}_diff`, `${p}_diff_ci_low`, `${p}_diff_ci_high`, `${p}_diff_n`, `${p}_diff_guidelines`];
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
      'incomplete',
      'ci',
      ...metricCols('pcc'),
      ...metricCols('acc'),
      ...metricCols('sr'),
      'next_model',
      ...diffCols('pcc'),
      ...diffCols('acc'),
    ],
    rows: entries.map((e) => [
      e.setting,
      e.group,
      String(e.rank),
      e.model,
      e.judge ?? '',
      String(e.incomplete),
      o.cluster ? 'guidelines' : 'cases',
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
const KINDS = ['real model', 'simulated agent'];

/** One panel per setting: each model's PCC with its CI whisker, ranked top to bottom, simulated agents hollow and grey. */
export function leaderboardFigure(entries: readonly LeaderboardEntry[], recorded: RunSettings = new RunSettings([])): FigureSpec {
  const settings = SETTINGS.filter((s) => entries.some((e) => e.setting === s));
  const rowH = 22;
  let top = 0;
  const panels = settings.map((setting) => {
    const mine = entries.filter((e) => e.setting === setting && e.cells.dtw_pcc && Number.isFinite(e.cells.dtw_pcc.mean));
    const label = (e: LeaderboardEntry) => `${rankLabel(e)}. ${e.model}`;
    const points = mine.map((e) => {
      const c = e.cells.dtw_pcc!;
      return {
        label: label(e),
        group: KINDS[e.simulated ? 1 : 0],
        pcc: r2(c.mean * 100),
        low: r2((c.ci_low ?? c.mean) * 100),
        high: r2((c.ci_high ?? c.mean) * 100),
        note: countsText(c),
      };
    });
    const height = 60 + Math.max(1, points.length) * rowH;
    const marks: MarkSpec[] = [
      { type: 'frame', data: [], options: { stroke: '#999' } },
      { type: 'ruleY', data: points, options: { y: 'label', x1: 'low', x2: 'high', stroke: 'group', strokeWidth: 1.5 } },
      { type: 'dot', data: points.filter((p) => p.group === KINDS[0]), options: { y: 'label', x: 'pcc', fill: 'group', r: 4 } },
      {
        type: 'dot',
        data: points.filter((p) => p.group === KINDS[1]),
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
        x: { domain: [0, 100], label: `${SETTING_LABEL[setting]} — ↓ DTW-PCC (%), ${levelWord(recorded)}CI`, grid: true },
        y: { domain: points.map((p) => p.label), label: null },
        color: { domain: KINDS, range: ['#4e79a7', '#9c9c9c'] },
      },
      marks,
    };
  });
  const judge = entries[0]?.judge ?? null;
  return {
    name: 'leaderboard',
    title: `Leaderboard: DTW-PCC per model with ${levelWord(recorded)}CIs (judge: ${judge ?? 'none'})${simulatedLabel(entries)}`,
    caption:
      `Per setting, models ranked by DTW-PCC (lower is better), real models first; the whisker is the ${caseCiText(recorded)}; ` +
      'simulated reference agents are hollow grey squares, ranked apart, and incomplete models after the complete ones of their kind. ' +
      'Beside each: n (cases in the mean) and the failures by kind.',
    width: 720,
    height: Math.max(60, top),
    panels,
    legend: { label: 'Kind', domain: KINDS, range: ['#4e79a7', '#9c9c9c'] },
    ...(panels.length ? {} : { absent: entries.length ? 'no model has a DTW-PCC by the default judge' : NO_ENTRIES }),
  };
}
