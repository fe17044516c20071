/**
 * The paper's tables from the run's tables, as ReportTable data (pure): Table 1 (main results),
 * Table 2 (correlations, table2.ts), Table 4 (CDP length statistics) and Tables 5–7 (one pathway
 * metric × judges with the case-bootstrap CI and the cluster-bootstrap CI). Percentages with 2
 * decimals. Every setting a caption states is read from the run_settings rows (`RunSettings`);
 * a table with nothing to show says why (`absent`).
 */
import type { Row } from '../../pipeline/stage.ts';
import { clusterCiCell, clusterFootnote, UNRELIABLE_MARK } from './cluster-ci.ts';
import { count2, pctCell } from './format.ts';
import { KINDS_SENTENCE, coverageNote, incompleteNote, policySentence } from './failure-counts.ts';
import { capSentence, cutoffSentence, unstatedSettings, otSentence } from './unstated-settings.ts';
import { defaultJudge, isSimilarityJudge, judgeFacts, tableJudges } from './judges.ts';
import type { JudgeFacts } from '../roster/judge-spec.ts';
import type { ReportTable } from './report-table.ts';
import { RunSettings } from './run-settings.ts';
import { calibrationText, caseCiText, ciLevel, judgeRunsText, levelWord } from './setting-text.ts';
import { cellKey, indexSummary, orderModels, type SummaryRow } from './summary-rows.ts';

export const SETTINGS = ['single', 'multi'] as const;
export const SETTING_LABEL: Record<string, string> = { single: 'single-turn', multi: 'multi-turn' };

/** Whether the rows shown come from simulated agents: all of them, some, or none. */
export type SimulatedShare = 'all' | 'some' | 'none';

export function simulatedShare(rows: readonly { simulated: boolean }[]): SimulatedShare {
  const n = rows.filter((r) => r.simulated).length;
  return n === 0 ? 'none' : n === rows.length ? 'all' : 'some';
}

export const simulatedNote = (share: SimulatedShare) =>
  ({ all: ' — simulated agents, not LLM results', some: ' — includes simulated agents (not LLM results)', none: '' })[share];

export const METRIC_TABLES = [
  { metric: 'dtw_pcc', table: 5, name: 'table5_dtw_pcc_ci', label: 'DTW-PCC (%) ↓' },
  { metric: 'ot_pcc', table: 6, name: 'table6_ot_pcc_ci', label: 'OT-PCC (%) ↓' },
  { metric: 'lnds_pcs', table: 7, name: 'table7_lnds_pcs_ci', label: 'LNDS-PCS (%) ↑' },
] as const;

/** Table 1 columns: [header, setting, metric]; PCC is DTW-PCC as in the paper. */
export const TABLE1_COLUMNS = [
  ['Single PCC (%) ↓', 'single', 'dtw_pcc'],
  ['Single Acc (%) ↑', 'single', 'acc'],
  ['Multi PCC (%) ↓', 'multi', 'dtw_pcc'],
  ['Multi Acc (%) ↑', 'multi', 'acc'],
  ['Multi SR (%) ↑', 'multi', 'sr'],
] as const;

const NO_SETTINGS = new RunSettings([]);

export function table1(
  summary: readonly SummaryRow[],
  judges: readonly JudgeFacts[] = [],
  settings: RunSettings = NO_SETTINGS,
): ReportTable & { judge: string | null } {
  const judge = defaultJudge(
    summary.flatMap((r) => (r.judge === null ? [] : [r.judge])),
    judges,
  );
  const at = indexSummary(summary);
  const share = simulatedShare(summary);
  let incomplete = 0;
  const rows = orderModels(summary).map((model) => {
    const cells = TABLE1_COLUMNS.map(([, setting, metric]) => at.get(cellKey(setting, metric === 'sr' ? null : judge, metric, model)));
    // The model's name says when its means are incomplete or over part of the test set, so the CSV says it too.
    const notes = [incompleteNote(cells), ...new Set(cells.map(coverageNote).filter((x) => x !== null))].filter((x) => x !== null);
    if (notes[0]?.startsWith('incomplete')) incomplete++;
    return [notes.length ? `${model} (${notes.join('; ')})` : model, ...cells.map(pctCell)];
  });
  return {
    name: 'table1_main_results',
    title: `Table 1: main results (judge: ${judge ?? 'none'})${simulatedNote(share)}`,
    caption:
      `Per model, the mean over test cases. PCC is the DTW-based pathway consistency cost (lower is better), Acc the outcome accuracy and SR the multi-turn success rate (higher is better). PCC and Acc are judged by ${judge ?? 'no judge'}; SR needs no judge. ` +
      `Each cell: mean (${caseCiText(settings)}), then n and the failures by kind. ${KINDS_SENTENCE} ${policySentence(summary)}` +
      (incomplete
        ? ` ${incomplete} model${incomplete === 1 ? ' is' : 's are'} incomplete: its means leave out cases a retry may still score.`
        : '') +
      ' "—": not run. ' +
      `${cutoffSentence(unstatedSettings(settings))} ${capSentence(unstatedSettings(settings))}`,
    // The judge is named in the column headers too, so the CSV (which has no title) says it.
    columns: ['Model', ...TABLE1_COLUMNS.map(([h, , metric]) => (metric === 'sr' || judge === null ? h : `${h} [${judge}]`))],
    rows,
    judge,
    ...(rows.length ? {} : { absent: 'model_summary has no rows: no model was evaluated and scored in this run' }),
  };
}

/** Which judges a Table 5–7 shows, said from the judges present and shown (never promising one that is not there). */
export function judgesNote(
  present: readonly string[],
  shown: readonly string[],
  allJudges: boolean,
  judges: readonly JudgeFacts[] = [],
): string {
  const similar = (j: string) => isSimilarityJudge(judgeFacts(j, judges));
  const llm = shown.filter((j) => !similar(j));
  const similarity = shown.filter(similar);
  const hidden = present.filter((j) => !shown.includes(j));
  if (allJudges) return `Judges: every judge of the run (${shown.join(', ') || 'none'}).`;
  const parts = [
    llm.length ? `the run's LLM judges (${llm.join(', ')})` : 'no LLM judge',
    similarity.length ? `one similarity judge (${similarity.join(', ')})` : 'no similarity judge',
  ];
  return `Judges: ${parts.join(' and ')}${hidden.length ? `; not shown: ${hidden.join(', ')} (param allJudges shows every judge)` : ''}.`;
}

/** Settings behind a metric's values beyond the bootstrap: OT's λ, τ, β and the turn cap (Table 6), LNDS's γ (Table 7). */
function metricSettings(metric: string, settings: RunSettings, judges: readonly string[]): string[] {
  const choices = unstatedSettings(settings);
  if (metric === 'ot_pcc') return [otSentence(choices), `${calibrationText(settings, judges)}.`, capSentence(choices)];
  if (metric === 'lnds_pcs') return [`${calibrationText(settings, judges)}.`];
  return [];
}

/**
 * Tables 5–7: rows (setting, model); per judge its mean with the case CI, then the cluster CI
 * (marked † with its number of guidelines when from fewer than 10). The caption states the
 * bootstrap and the judge runs; Table 6 the OT λ, τ, β and the turn cap, Table 7 each judge's γ,
 * all as the run's rows recorded them (`settings`).
 */
export function metricCiTable(
  summary: readonly SummaryRow[],
  metric: string,
  judges: readonly JudgeFacts[] = [],
  settings: RunSettings = NO_SETTINGS,
  allJudges = false,
): ReportTable {
  const spec = METRIC_TABLES.find((t) => t.metric === metric);
  if (!spec) throw new RangeError(`metricCiTable: metric "${metric}" is none of ${METRIC_TABLES.map((t) => t.metric).join(', ')}`);
  const mine = summary.filter((r) => r.metric === metric);
  const present = [...new Set(mine.flatMap((r) => (r.judge === null ? [] : [r.judge])))];
  const js = tableJudges(present, judges, allJudges);
  const at = indexSummary(mine);
  // Labelled by the run, not the metric's rows: an empty table of a simulated run says so too.
  const share = simulatedShare(summary);
  const models = orderModels(mine);
  const rows: string[][] = [];
  let marked = false;
  for (const setting of SETTINGS) {
    for (const model of models) {
      const cells = js.map((j) => at.get(cellKey(setting, j, metric, model)));
      if (cells.every((c) => c === undefined)) continue;
      const clusterCis = cells.map((c) => clusterCiCell(c?.cluster_ci_low, c?.cluster_ci_high, c?.clusters));
      marked ||= clusterCis.some((t) => t.includes(UNRELIABLE_MARK));
      const note = incompleteNote(cells);
      rows.push([SETTING_LABEL[setting]!, note ? `${model} (${note})` : model, ...cells.flatMap((c, k) => [pctCell(c), clusterCis[k]!])]);
    }
  }
  const level = ciLevel(settings);
  const word = levelWord(settings);
  const notes = [
    `Each entry: mean (${caseCiText(settings)}) with n and the failures by kind, ` +
      `then the ${word}cluster-bootstrap CI over guidelines ("—" when the cases come from a single guideline).`,
    KINDS_SENTENCE,
    policySentence(mine),
    judgesNote(orderJudgesShown(present, js), js, allJudges, judges),
    `Step scores: ${judgeRunsText(settings)}.`,
    ...(marked ? [clusterFootnote(level)] : []),
    ...metricSettings(metric, settings, js),
  ];
  return {
    name: spec.name,
    title: `Table ${spec.table}: ${spec.label} with ${word}bootstrap CIs${simulatedNote(share)}`,
    caption: notes.join(' '),
    columns: ['Setting', 'Model', ...js.flatMap((j) => [j, `${j} cluster CI`])],
    rows,
    ...(rows.length ? {} : { absent: `model_summary has no ${metric} cell: no pathway was judged in this run` }),
  };
}

/** The judges present, the shown ones first in their order. */
const orderJudgesShown = (present: readonly string[], shown: readonly string[]) => [
  ...shown,
  ...present.filter((j) => !shown.includes(j)).sort(),
];

const LENGTH_SPLITS = ['full', 'test', 'non-test'];

/** Table 4: statistic × split (full, test, non-test), in the stage's statistic order. */
export function table4(stats: readonly Row[]): ReportTable {
  const statistics = [...new Set(stats.map((r) => String(r.statistic)))];
  const splits = [
    ...LENGTH_SPLITS.filter((s) => stats.some((r) => r.split === s)),
    ...[...new Set(stats.map((r) => String(r.split)))].filter((s) => !LENGTH_SPLITS.includes(s)).sort(),
  ];
  const at = new Map(stats.map((r) => [`${r.statistic}\0${r.split}`, r.value as number | null]));
  return {
    name: 'table4_cdp_length_stats',
    title: 'Table 4: CDP length statistics',
    caption: 'Length = number of decision steps of a reference CDP.',
    columns: ['Statistic', ...splits],
    rows: statistics.map((s) => [s, ...splits.map((sp) => count2(at.get(`${s}\0${sp}`)))]),
    ...(statistics.length ? {} : { absent: 'cdp_length_stats has no rows: no CDP in this run' }),
  };
}
