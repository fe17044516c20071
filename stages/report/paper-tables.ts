/**
 * The paper's tables from the run's tables, as ReportTable data (pure): Table 1 (main results),
 * Table 2 (correlations), Table 4 (CDP length statistics) and Tables 5–7 (one pathway metric ×
 * judges with the case-bootstrap CI and the cluster-bootstrap CI). Percentages with 2 decimals.
 */
import type { Row } from '../../pipeline/stage.ts';
import { clusterCiCell, clusterFootnote, UNRELIABLE_MARK } from './cluster-ci.ts';
import { count2, fixed2, pctCell } from './format.ts';
import { KINDS_SENTENCE, coverageNote, incompleteNote, policySentence } from './failure-counts.ts';
import { capSentence, openChoices, otSentence, type OpenChoices } from './open-choices.ts';
import { defaultJudge, tableJudges } from './judges.ts';
import type { JudgeFacts } from '../roster/judge-spec.ts';
import type { ReportTable } from './report-table.ts';
import { cellKey, indexSummary, orderModels, type SummaryRow } from './summary-rows.ts';

export const SETTINGS = ['single', 'multi'] as const;
export const SETTING_LABEL: Record<string, string> = { single: 'single-turn', multi: 'multi-turn' };

/** Whether the rows shown come from simulated agents: all of them, some, or none. */
export type SimulatedShare = 'all' | 'some' | 'none';

export function simulatedShare(rows: readonly { simulated: boolean }[]): SimulatedShare {
  const n = rows.filter((r) => r.simulated).length;
  return n === 0 ? 'none' : n === rows.length ? 'all' : 'some';
}

const simulatedNote = (share: SimulatedShare) =>
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

export function table1(summary: readonly SummaryRow[], judges: readonly JudgeFacts[] = []): ReportTable & { judge: string | null } {
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
      `Each cell: mean (95% case-bootstrap CI), then n and the failures by kind. ${KINDS_SENTENCE} ${policySentence(summary)}` +
      (incomplete
        ? ` ${incomplete} model${incomplete === 1 ? ' is' : 's are'} incomplete: its means leave out cases a retry may still score.`
        : '') +
      ' "—": not run.',
    // The judge is named in the column headers too, so the CSV (which has no title) says it.
    columns: ['Model', ...TABLE1_COLUMNS.map(([h, , metric]) => (metric === 'sr' || judge === null ? h : `${h} [${judge}]`))],
    rows,
    judge,
  };
}

/**
 * Tables 5–7: rows (setting, model); per judge its mean with the case CI, then the cluster CI
 * (marked † with its number of guidelines when from fewer than 10). Table 6 states the OT λ, τ
 * and the turn cap of the run (`choices`), which the paper leaves open.
 */
export function metricCiTable(
  summary: readonly SummaryRow[],
  metric: string,
  judges: readonly JudgeFacts[] = [],
  choices: OpenChoices = openChoices(),
  allJudges = false,
): ReportTable {
  const spec = METRIC_TABLES.find((t) => t.metric === metric);
  if (!spec) throw new RangeError(`metricCiTable: metric "${metric}" is none of ${METRIC_TABLES.map((t) => t.metric).join(', ')}`);
  const mine = summary.filter((r) => r.metric === metric);
  const js = tableJudges(
    mine.flatMap((r) => (r.judge === null ? [] : [r.judge])),
    judges,
    allJudges,
  );
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
  const notes = [
    'Each entry: mean (95% percentile-bootstrap CI over cases) with n and the failures by kind, ' +
      'then the 95% cluster-bootstrap CI over guidelines ("—" when the cases come from a single guideline).',
    KINDS_SENTENCE,
    policySentence(mine),
    ...(allJudges ? [] : ["Judges: the run's LLM judges and one similarity judge (param allJudges shows every judge)."]),
    ...(marked ? [clusterFootnote()] : []),
    ...(metric === 'ot_pcc' ? [otSentence(choices), capSentence(choices)] : []),
  ];
  return {
    name: spec.name,
    title: `Table ${spec.table}: ${spec.label} with 95% bootstrap CIs${simulatedNote(share)}`,
    caption: notes.join(' '),
    columns: ['Setting', 'Model', ...js.flatMap((j) => [j, `${j} cluster CI`])],
    rows,
  };
}

/** Table 2: the correlations stage's rows as printed (2 decimals), in the stage's order. */
export function table2(correlations: readonly Row[], share: SimulatedShare): ReportTable {
  return {
    name: 'table2_correlations',
    title: `Table 2: correlations between judges and between metrics${simulatedNote(share)}`,
    caption:
      'Instance-level Pearson r, Spearman ρ and Kendall τ-b per pair; Kendall\'s W once per group of three (LNDS-PCS negated so that all agree in direction). Setting "all" pools both settings.',
    columns: ['Setting', 'Fixed', 'Pair', 'Pearson r', 'Spearman ρ', 'Kendall τ', "Kendall's W", 'n'],
    rows: correlations.map((r) => [
      String(r.setting),
      String(r.fixed),
      String(r.pair),
      fixed2(r.pearson_r as number | null),
      fixed2(r.spearman_rho as number | null),
      fixed2(r.kendall_tau as number | null),
      r.kendall_w == null ? '' : fixed2(r.kendall_w as number),
      String(r.n),
    ]),
  };
}

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
  };
}
