/**
 * reports/index.md: who produced the reports (run_facts: corpus, builders, models in their roles),
 * how many test cases QC left out (qc_summary) and how many this run evaluated (run_facts,
 * `--limit` included), the settings the run used (run_settings), and a link to every table,
 * figure and the scorecard (from the rows of the other report stages: file, kind, title; a
 * table or figure with nothing to show is listed with the reason instead of a link).
 */
import { posix } from 'node:path';
import type { Row } from '../../pipeline/stage.ts';
import { capSentence, cutoffSentence, unstatedSettings, otSentence } from './unstated-settings.ts';
import { factLines, producedBy } from './produced-by.ts';
import type { RunFacts } from './run-facts.ts';
import type { RunSettings } from './run-settings.ts';
import { calibrationText, caseCiText, judgeRunsText, levelWord, policyText, splitText } from './setting-text.ts';

/** The qc_summary measures (qc-summary.stage.ts) a reader needs to know what the means are over, and how the index names them. */
export const QC_EXCLUSION_MEASURES = [
  ['test cases', 'Test cases in the test split'],
  [
    'test cases whose construction failed (no usable vignette or narrative)',
    'Test cases whose construction failed (no usable vignette or narrative)',
  ],
  ['test cases flagged by the QC checks', 'Test cases flagged by the QC checks'],
  ['test cases flagged by the LLM inspection', 'Test cases flagged by the LLM inspection'],
  ['test cases excluded from the task settings', 'Test cases excluded from the task settings'],
] as const;

/**
 * The QC exclusion counts as a sentence list; a run whose qc_summary lacks them (no cdps input)
 * says so instead of printing zeros.
 */
export function qcExclusionLines(qcSummary: readonly Row[]): string[] {
  const value = new Map(qcSummary.map((r) => [String(r.measure), r.value]));
  const present = QC_EXCLUSION_MEASURES.filter(([m]) => typeof value.get(m) === 'number');
  if (!present.length) return ['QC exclusion counts are not available (qc_summary has no test-case rows).'];
  // qc_summary writes its inspection rows only when an inspector ran: a 0 then means "not inspected".
  const inspected = typeof value.get('instances inspected by an LLM') === 'number';
  const note = (m: string) => (m === 'test cases flagged by the LLM inspection' && !inspected ? ' (no LLM inspection in this run)' : '');
  return present.map(([m, label]) => `- ${label}: ${value.get(m) as number}${note(m)}`);
}

/** How many test cases this run's task settings evaluated (test_cases), and why fewer when it is a smoke run. */
export function evaluatedCasesLine(facts: RunFacts, qcSummary: readonly Row[]): string {
  const n = facts.count('evaluated cases');
  if (n === null) return '- Test cases evaluated in this run: not recorded';
  const value = new Map(qcSummary.map((r) => [String(r.measure), r.value]));
  const split = value.get('test cases'),
    excluded = value.get('test cases excluded from the task settings');
  const eligible = typeof split === 'number' && typeof excluded === 'number' ? split - excluded : null;
  const smoke =
    eligible !== null && n < eligible ? ` of the ${eligible} left after the exclusions (a smoke run: \`cdp run --limit\` chose them)` : '';
  return `- Test cases evaluated in this run: ${n}${smoke}`;
}

/** Every setting the run's rows recorded, one line each. */
export function settingLines(s: RunSettings): string[] {
  const c = unstatedSettings(s);
  return [
    `- ${splitText(s)}.`,
    `- ${capSentence(c)}`,
    `- Step scores: ${judgeRunsText(s)}.`,
    `- ${cutoffSentence(c)}`,
    `- ${otSentence(c)}`,
    `- ${calibrationText(s)}.`,
    `- Means: ${caseCiText(s)} and the ${levelWord(s)}cluster-bootstrap CI over guidelines; ${policyText(s)}.`,
  ];
}

function fileLines(files: readonly Row[], outDir: string, kinds: readonly [string, string][]): string[] {
  const rel = (f: Row) => posix.relative(outDir, String(f.file));
  const byTitle = new Map<string, Row[]>();
  for (const f of files)
    if (kinds.some(([k]) => k === String(f.kind))) byTitle.set(String(f.title), [...(byTitle.get(String(f.title)) ?? []), f]);
  return [...byTitle].map(([title, fs]) => {
    const absent = fs.find((f) => f.absent != null);
    if (absent) return `- ${title}: not written — ${String(absent.absent)}`;
    return `- ${title}: ${fs.map((f) => `[${kinds.find(([k]) => k === String(f.kind))![1]}](${rel(f)})`).join(', ')}`;
  });
}

export interface IndexFacts {
  facts: RunFacts;
  settings: RunSettings;
  qcSummary: readonly Row[];
}

/** A figure's files by kind (figure-files.ts) and how an index names each link. */
export const FIGURE_LINKS: Record<string, string> = { figure: 'SVG', 'figure-png': 'PNG', 'figure-vega-lite': 'Vega-Lite' };

export function indexMarkdown(files: readonly Row[], outDir: string, run: IndexFacts): string {
  const out = ['# MEGA-CDP reproduction: reports', '', `Produced by: ${producedBy(run.facts)}.`, ''];
  out.push('## What produced them', '', ...factLines(run.facts), '');
  out.push('## Test cases and quality control', '');
  out.push(...qcExclusionLines(run.qcSummary), evaluatedCasesLine(run.facts, run.qcSummary), '');
  out.push('The tables and figures below are over the test cases evaluated; `qc_summary` has the problem rates.', '');
  out.push('## Settings of this run, as its rows recorded them', '', ...settingLines(run.settings), '');
  out.push(
    '## Tables',
    '',
    ...fileLines(files, outDir, [
      ['table', 'Markdown'],
      ['table-csv', 'CSV'],
    ]),
  );
  out.push('', '## Figures', '', ...fileLines(files, outDir, [...Object.entries(FIGURE_LINKS)]));
  out.push(
    '',
    '## Reproduction scorecard',
    '',
    ...fileLines(files, outDir, [
      ['scorecard', 'Markdown'],
      ['scorecard-csv', 'CSV'],
    ]),
  );
  out.push('', 'Every file is regenerated by `cdp run`; the same data gives the same bytes.');
  return out.join('\n') + '\n';
}
