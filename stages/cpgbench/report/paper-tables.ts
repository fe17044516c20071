/**
 * CPGBench's tables from this run (pure: rows in, ReportTable out): Table 1 (every benchmark
 * item) and Table 3 (the safety-critical subset), the rates by region (Figure 3's data) and by
 * specialty (Figure 4's) with the χ² test across specialties, judge–human agreement, and how the
 * benchmark was built. Every count, judge, setting and label is read from the rows.
 */
import type { Row } from '../../../pipeline/stage.ts';
import type { ReportTable } from '../../report/report-table.ts';
import { clusterFootnote } from '../../report/cluster-ci.ts';
import { fixed2 } from '../../report/format.ts';
import type { RateRow } from '../results/rates.ts';
import { rateCell } from './rate-cells.ts';
import { REPORT_TASKS, SIMULATED_TITLE, TASK_LABEL, boardOrder, groupsOf, lookup, simulatedShare } from './rate-rows.ts';

const settingsLine = (rows: readonly RateRow[], extra: Row[]) => {
  const recorded = (column: string) => [...new Set(extra.map((r) => r[column]).filter((x) => x != null))];
  const resamples = recorded('resamples').join('/');
  const seed = recorded('seed').join('/');
  const level = recorded('level')
    .map((x) => `${Number(x) * 100}%`)
    .join('/');
  return `CIs: ${level || '—'} percentile bootstrap, ${resamples || '—'} resamples, seed ${seed || '—'}, over the group's items (first) and over its guidelines (second). ${clusterFootnote(level)} n: the group's items in the rate (recommendations with a conversation); then the failures by kind: answer (the model answered nothing) and missing count as not correct and stay in n; server (no answer exists) and unscored (the judge failed) leave n, and the rate is marked incomplete until \`cdp run --retry-failed\` scores them.${rows.length ? '' : ' No rates: nothing was evaluated.'}`;
};

function rateTable(
  rows: readonly RateRow[],
  raw: Row[],
  judge: string | null,
  grouping: 'overall' | 'safety',
  name: string,
  title: string,
): ReportTable {
  const at = lookup(rows, judge);
  const group = grouping === 'overall' ? 'all' : 'safety-critical';
  const models = boardOrder(rows, judge).filter((m) => at(m, 'average', grouping, group));
  const n = models.map((m) => at(m, 'average', grouping, group)!.n)[0];
  const share = simulatedShare(rows.filter((r) => models.includes(r.model)));
  return {
    name,
    title: `${title} (judge: ${judge ?? 'none'}${n !== undefined ? `, ${n} recommendations` : ''})${SIMULATED_TITLE[share]}`,
    caption: `Rates in % (correct ÷ the group's items in the rate), judged by ${judge ?? 'no judge'}; Average is the mean of the three rates. ${settingsLine(rows, raw)}`,
    columns: ['Model', ...REPORT_TASKS.map((t) => TASK_LABEL[t])],
    rows: models.map((m) => [m, ...REPORT_TASKS.map((t) => rateCell(at(m, t, grouping, group)))]),
  };
}

export function table1(rows: readonly RateRow[], raw: Row[], judge: string | null): ReportTable {
  return rateTable(
    rows,
    raw,
    judge,
    'overall',
    'cpgbench_table1_overall',
    'Table 1: content detection, title grounding and adherence rates on every recommendation',
  );
}

export function table3(rows: readonly RateRow[], raw: Row[], judge: string | null): ReportTable {
  return rateTable(rows, raw, judge, 'safety', 'cpgbench_table3_safety', 'Table 3: the same rates on the safety-critical recommendations');
}

/** One row per (group, model) of a grouping, a column per task: the data of Figures 3 and 4. */
export function groupTable(
  rows: readonly RateRow[],
  raw: Row[],
  judge: string | null,
  grouping: 'region' | 'specialty' | 'language',
): ReportTable {
  const at = lookup(rows, judge);
  const models = boardOrder(rows, judge);
  const label = { region: 'country, region or organization', specialty: 'specialty', language: 'language' }[grouping];
  return {
    name: `cpgbench_rates_by_${grouping}`,
    title: `Rates by ${label} (judge: ${judge ?? 'none'})${SIMULATED_TITLE[simulatedShare(rows)]}`,
    caption: `One row per ${label} and model. ${settingsLine(rows, raw)}`,
    columns: [grouping[0]!.toUpperCase() + grouping.slice(1), 'Model', ...REPORT_TASKS.map((t) => TASK_LABEL[t])],
    rows: groupsOf(rows, grouping).flatMap((g) =>
      models.filter((m) => at(m, 'average', grouping, g)).map((m) => [g, m, ...REPORT_TASKS.map((t) => rateCell(at(m, t, grouping, g)))]),
    ),
  };
}

const pText = (p: unknown) => (typeof p !== 'number' ? '—' : p === 0 ? '< 1e-300' : p < 0.001 ? p.toExponential(2) : p.toFixed(3));

export function specialtyTestTable(tests: readonly Row[], judge: string | null): ReportTable {
  const mine = tests.filter((t) => t.judge === judge);
  return {
    name: 'cpgbench_specialty_chi2',
    title: `χ² test of independence between specialty and outcome, per model and task (judge: ${judge ?? 'none'})${SIMULATED_TITLE[mine.length && mine.every((t) => t.simulated) ? 'all' : mine.some((t) => t.simulated) ? 'some' : 'none']}`,
    caption:
      'Pearson χ² without continuity correction on the specialties × (correct, not correct) table (answer failures count as not correct, server failures and unscored items are left out); ' +
      'df = specialties − 1. The approximation is weak when the smallest expected count is below 5.',
    columns: ['Model', 'Task', 'Specialties', 'n', 'χ²', 'df', 'p', 'Smallest expected count', 'Note'],
    rows: mine.map((t) => [
      String(t.model),
      TASK_LABEL[t.task as keyof typeof TASK_LABEL] ?? String(t.task),
      String(t.specialties),
      String(t.n),
      fixed2(t.statistic as number | null),
      t.df == null ? '—' : String(t.df),
      pText(t.p),
      fixed2(t.min_expected as number | null),
      t.reason == null ? '' : String(t.reason),
    ]),
  };
}

export function agreementTable(rows: readonly Row[]): ReportTable {
  const file = [...new Set(rows.map((r) => r.labels_file))].join(', ');
  return {
    name: 'cpgbench_judge_agreement',
    title: "Cohen's κ: judge against human labels, and between annotators",
    caption: rows.length
      ? `From ${file}. Judge–human κ over the items both rated 0 or 1 (the paper's); "human 0.5" counts the items the human rated 0.5, with the share the judge scored 1. Between annotators, κ over every item both labelled, on 0 / 0.5 / 1.`
      : 'No human labels were imported: add DIR/human-labels.csv (task,recommendation_id,model,annotator,human) to the corpus.',
    columns: [
      'Kind',
      'Task',
      'Judge or annotator',
      'Compared with',
      'n',
      'κ',
      'Observed agreement',
      'Human 0.5',
      'Of those judged 1',
      'Labels without a judgement',
    ],
    rows: rows.map((r) => [
      String(r.kind),
      TASK_LABEL[r.task as keyof typeof TASK_LABEL] ?? String(r.task),
      String(r.first),
      String(r.second),
      String(r.n),
      fixed2(r.kappa as number | null),
      fixed2(r.observed as number | null),
      r.kind === 'judge-human' ? String(r.half) : '',
      r.half_judged_1 == null ? '' : fixed2(r.half_judged_1 as number),
      r.kind === 'judge-human' ? String(r.unmatched) : '',
    ]),
  };
}

export function constructionTable(summary: readonly Row[]): ReportTable {
  return {
    name: 'cpgbench_construction',
    title: 'How the benchmark was built',
    caption:
      'Counts from the construction stages (cpg_documents … cpg_task_inputs); the paper: 6,115 → 4,792 bona fide → 3,418 documents from 2015 on, 32,155 recommendations, 6,632 safety-critical.',
    columns: ['Step', 'Count', 'What it counts'],
    rows: summary.map((s) => [String(s.step), String(s.count), String(s.detail)]),
  };
}
