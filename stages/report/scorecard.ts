/**
 * The reproduction scorecard: every published cell of Tables 1 and 5–7 beside this run's value
 * for the same (setting, judge, metric, model), the run's models and judges under the paper names
 * their models file gives them (`paper`, scorecard.stage.ts). Arithmetic is on the printed
 * 2-decimal percentages (integer hundredths), so the difference is exactly what a reader gets
 * subtracting the two printed numbers, and "inside CI" compares the published value with the
 * run's CI as printed (bounds inclusive). A run on simulated agents makes no claim: its
 * comparison columns say "n/a (simulated)". The verdict against a cluster CI from fewer than
 * 10 guidelines is marked † (cluster-ci.ts), and the header states who produced the run
 * (run_facts) and the settings it used (run_settings: unstated-settings.ts, setting-text.ts), each
 * from the rows that recorded it.
 */
import { clusterFootnote, fewClusters, UNRELIABLE_MARK } from './cluster-ci.ts';
import { hundredthsText, pct, pctCi, pctHundredths } from './format.ts';
import { capSentence, cutoffSentence, unstatedSettings, otSentence } from './unstated-settings.ts';
import type { PublishedCell } from './published.ts';
import type { RunSettings } from './run-settings.ts';
import { calibrationText, caseCiText, ciLevel, judgeRunsText, levelWord, policyText } from './setting-text.ts';
import { cellKey, indexSummary, type SummaryRow } from './summary-rows.ts';
import type { ReportTable } from './report-table.ts';

export const NOT_RUN = 'not run';
export const NA_SIMULATED = 'n/a (simulated)';

export interface ScorecardRow {
  table: string;
  metric: string;
  setting: string;
  model: string;
  judge: string;
  published: string;
  published_ci: string;
  run: string;
  run_ci: string;
  /** Cases in the run's mean, and the cell's failures of every kind; empty when not run. */
  n: string;
  failures: string;
  /** run − published, percentage points. */
  difference: string;
  /** Whether the published value lies inside the run's case-bootstrap CI: yes / no. */
  inside_ci: string;
  /** The same against the cluster-bootstrap CI (guidelines), marked † when from fewer than 10 guidelines. */
  inside_cluster_ci: string;
  /** The number of guidelines (clusters) behind the run's cluster CI; empty when not run. */
  clusters: string;
}

/** Difference in hundredths of a percentage point: round(run) − published. */
export function differenceHundredths(runFraction: number, publishedPct: number): number {
  return pctHundredths(runFraction) - Math.round(publishedPct * 100);
}

/** yes/no: published (percent) within [low, high] (fractions, compared as printed); "—" when the CI is undefined. */
export function insideCi(publishedPct: number, low: number | null, high: number | null): string {
  if (low == null || high == null || !Number.isFinite(low) || !Number.isFinite(high)) return '—';
  const p = Math.round(publishedPct * 100);
  return pctHundredths(low) <= p && p <= pctHundredths(high) ? 'yes' : 'no';
}

const pubText = (x: number) => hundredthsText(Math.round(x * 100));

export function scorecard(
  published: readonly PublishedCell[],
  summary: readonly SummaryRow[],
  opts: { simulated: boolean },
): ScorecardRow[] {
  const at = indexSummary(summary);
  return published.map((p) => {
    const base = {
      table: p.table,
      metric: p.metric,
      setting: p.setting,
      model: p.model,
      judge: p.judge ?? '',
      published: pubText(p.value),
      published_ci: p.ciLow === null || p.ciHigh === null ? '' : `(${pubText(p.ciLow)}–${pubText(p.ciHigh)})`,
    };
    const r = at.get(cellKey(p.setting, p.judge, p.metric, p.model));
    const clusters = r?.clusters == null ? '' : String(r.clusters);
    const counts = r ? { n: String(r.n), failures: String(r.failures) } : { n: '', failures: '' };
    if (opts.simulated) {
      const na = { difference: NA_SIMULATED, inside_ci: NA_SIMULATED, inside_cluster_ci: NA_SIMULATED };
      return { ...base, run: r ? pct(r.mean) : NOT_RUN, run_ci: r ? pctCi(r.ci_low, r.ci_high) : '', ...counts, ...na, clusters };
    }
    if (!r || !Number.isFinite(r.mean)) {
      return {
        ...base,
        run: NOT_RUN,
        run_ci: '',
        n: '',
        failures: '',
        difference: NOT_RUN,
        inside_ci: NOT_RUN,
        inside_cluster_ci: NOT_RUN,
        clusters: '',
      };
    }
    const cluster = insideCi(p.value, r.cluster_ci_low, r.cluster_ci_high);
    return {
      ...base,
      run: pct(r.mean),
      run_ci: pctCi(r.ci_low, r.ci_high),
      ...counts,
      difference: hundredthsText(differenceHundredths(r.mean, p.value)),
      inside_ci: insideCi(p.value, r.ci_low, r.ci_high),
      inside_cluster_ci: cluster !== '—' && fewClusters(r.clusters) ? `${cluster} ${UNRELIABLE_MARK}` : cluster,
      clusters,
    };
  });
}

export const SCORECARD_COLUMNS: (keyof ScorecardRow)[] = [
  'table',
  'metric',
  'setting',
  'model',
  'judge',
  'published',
  'published_ci',
  'run',
  'run_ci',
  'n',
  'failures',
  'difference',
  'inside_ci',
  'inside_cluster_ci',
  'clusters',
];

export interface ScorecardTally {
  cells: number;
  run: number;
  notRun: number;
  insideCi: number;
  outsideCi: number;
  /** Cells whose cluster-CI verdict is marked unreliable (fewer than 10 guidelines). */
  fewClusters: number;
}

export function tally(rows: readonly ScorecardRow[]): ScorecardTally {
  const run = rows.filter((r) => r.run !== NOT_RUN);
  return {
    cells: rows.length,
    run: run.length,
    notRun: rows.length - run.length,
    insideCi: rows.filter((r) => r.inside_ci === 'yes').length,
    outsideCi: rows.filter((r) => r.inside_ci === 'no').length,
    fewClusters: rows.filter((r) => r.inside_cluster_ci.endsWith(UNRELIABLE_MARK)).length,
  };
}

/** The scorecard as a report table (CSV) and its Markdown page with the verdict on top. */
export function scorecardTable(rows: readonly ScorecardRow[]): ReportTable {
  return {
    name: 'scorecard',
    title: 'Reproduction scorecard',
    caption: '',
    columns: SCORECARD_COLUMNS,
    rows: rows.map((r) => SCORECARD_COLUMNS.map((c) => r[c])),
  };
}

export interface ScorecardHeaderOptions {
  simulated: boolean;
  /** Who produced the run (produced-by.ts). */
  profile: string;
  /** The run's settings, as its rows recorded them. */
  settings: RunSettings;
  /** How the run's names stand for the paper's (the models file's `paper`); undefined: names are compared as they are. */
  paperNames: Record<string, string> | undefined;
  /** The published cells (their judges, and Table 1's). */
  published: readonly PublishedCell[];
}

const distinct = (xs: readonly (string | null)[]) => [...new Set(xs.filter((x): x is string => x !== null))];

/** How the run's models and judges meet the paper's names, from the models file's `paper` fields. */
export function matchingText(o: Pick<ScorecardHeaderOptions, 'simulated' | 'paperNames' | 'published'>): string {
  const table1 = distinct(o.published.filter((p) => p.table === 'Table 1').map((p) => p.judge));
  const judges = distinct(o.published.filter((p) => p.table !== 'Table 1').map((p) => p.judge));
  const published = `The published cells are judged by ${judges.join(', ') || 'no judge'} (Table 1: ${table1.join(', ') || 'none'}).`;
  if (o.simulated) return `${published} Simulated agents and judges stand for no paper model, so nothing is compared.`;
  if (!o.paperNames) return `${published} Models and judges are compared under their own names.`;
  const pairs = Object.entries(o.paperNames);
  if (!pairs.length)
    return `${published} No model or judge of this run names the paper model it stands for (\`"paper"\` in the models file), so no cell is compared.`;
  return (
    `${published} A model or judge is compared only when the models file names the paper model it stands for (\`"paper"\`): ` +
    `${pairs.map(([run, paper]) => `${run} → ${paper}`).join(', ')}.`
  );
}

/** The settings the run used, as its rows recorded them, for the scorecard's list. */
function settingLines(s: RunSettings): string[] {
  const c = unstatedSettings(s);
  return [
    `- ${otSentence(c)}`,
    `- ${cutoffSentence(c)}`,
    `- ${capSentence(c)}`,
    `- Step scores: ${judgeRunsText(s)}; ${calibrationText(s)}.`,
    `- Means: ${caseCiText(s)} and the ${levelWord(s)}cluster-bootstrap CI over guidelines; ${policyText(s)}.`,
  ];
}

export function scorecardHeader(rows: readonly ScorecardRow[], opts: ScorecardHeaderOptions): string {
  const t = tally(rows);
  const lines = [`Produced by: ${opts.profile}.`, ''];
  if (opts.simulated) {
    lines.push(
      '**This run used simulated agents only. It reproduces nothing and makes no claim about the paper\'s numbers:** the simulated agents are offline stand-ins, their names match no model of the paper, and every comparison column says "n/a (simulated)".',
      '',
    );
  }
  lines.push(
    `Cells: ${t.cells} published (Tables 1, 5, 6 and 7); ${t.run} present in this run, ${t.notRun} not run.` +
      (opts.simulated
        ? ''
        : ` Published value inside the run's ${levelWord(opts.settings)}case-bootstrap CI: ${t.insideCi}; outside: ${t.outsideCi}.`),
    '',
    `${matchingText(opts)} Difference = run − published in percentage points, both as printed with 2 decimals; ` +
      '"inside CI" compares the published value with the run\'s CI as printed, bounds included; ' +
      'the cluster CI is over guidelines ("—" when undefined), `clusters` is its number of guidelines; ' +
      "`n` is the cases in the run's mean and `failures` the cell's test cases that failed, of any kind (answer, server, patient, missing).",
    '',
    `${clusterFootnote(ciLevel(opts.settings))}${opts.simulated ? '' : ` Marked here: ${t.fewClusters} of the ${t.run} cells run.`}`,
    '',
    '**Settings of this run, as its rows recorded them** (the paper states no λ, τ, cut-off or turn cap; the published numbers may rest on other values):',
    '',
    ...settingLines(opts.settings),
  );
  return lines.join('\n');
}
