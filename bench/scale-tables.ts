/**
 * The scale benchmark's tables: the corpus as the run's rows count it, the units of every stage
 * beside the paper's counts, and the run's Table 4 (its `cdp_length_stats`) beside the paper's.
 * Counts come from the run (its stage outcomes and `cdp sql` over its store), never from the
 * generator's intentions, so a corpus that loses cases to QC shows it.
 */
import type { BenchRow } from './report.ts';
import { PAPER, TABLE4, type ScaleCorpus } from './scale-corpus.ts';

interface CountRow {
  language: string;
  split: string;
  cdps: number;
  guidelines: number;
}

export interface CorpusFacts {
  /** `cdps` rows per language and split: CDPs and their guidelines. */
  cdps: CountRow[];
  /** `test_cases` rows per language: the cases the task stages evaluate. */
  testCases: CountRow[];
  /** `cdp_length_stats` rows. */
  lengths: { split: string; statistic: string; value: number | null }[];
}

export interface StageUnits {
  stage: string;
  rowsComputed: number;
  rowsReused: number;
  rowsFailed: number;
}

const n = (x: number) => x.toLocaleString('en');
const sum = (rows: CountRow[], key: 'cdps' | 'guidelines', split?: string) =>
  rows.filter((r) => split === undefined || r.split === split).reduce((a, r) => a + r[key], 0);
const within = (value: number, target: number, share: number) => Math.abs(value - target) <= share * target;

/** Rows for the corpus: test cases, CDPs and test guidelines against the paper's (× fraction). */
export function corpusRows(facts: CorpusFacts, fraction: number): BenchRow[] {
  const cases = sum(facts.testCases, 'cdps');
  const cdps = sum(facts.cdps, 'cdps');
  const testCdps = sum(facts.cdps, 'cdps', 'test');
  const testGuidelines = sum(facts.cdps, 'guidelines', 'test');
  const wantCases = Math.round(PAPER.testCases * fraction);
  const wantCdps = Math.round(PAPER.cdps * fraction);
  const wantTest = Math.round(PAPER.testEn * fraction) + Math.round(PAPER.testZh * fraction);
  const of = fraction === 1 ? '' : ` (the paper's × ${fraction})`;
  return [
    {
      name: 'test cases (rows of test_cases)',
      value: cases,
      unit: 'cases',
      target: { text: `${n(wantCases)} ± 3 %${of}`, met: within(cases, wantCases, 0.03) },
    },
    {
      name: 'CDPs (rows of cdps)',
      value: cdps,
      unit: 'CDPs',
      target: { text: `${n(wantCdps)} ± 3 %${of}`, met: within(cdps, wantCdps, 0.03) },
    },
    {
      name: 'test guidelines',
      value: testGuidelines,
      unit: 'guidelines',
      target: { text: `${wantTest}${of}`, met: testGuidelines === wantTest },
    },
    { name: 'test CDPs QC left out', value: testCdps - cases, unit: 'cases' },
  ];
}

/** The corpus in a sentence: what was generated, per language, and what the run kept. */
export function corpusNote(corpus: ScaleCorpus, fraction: number): string {
  const lang = (l: 'en' | 'zh') => corpus.byLanguage[l];
  const size =
    fraction === 1 ? "the paper's 2,274" : `${(fraction * 100).toFixed(1)} % of the paper's 2,274: a FRACTION of the paper's scale`;
  return (
    `Corpus (bench/scale-corpus.ts): ${n(corpus.guidelines)} guidelines (${size}), ${n(corpus.cdps)} CDPs; ${corpus.test} test guidelines pinned in guidelines.csv ` +
    `(en ${lang('en').test.guidelines}, zh ${lang('zh').test.guidelines}; paper 230 + 210) with ${n(lang('en').test.cdps)} + ${n(lang('zh').test.cdps)} test CDPs. ` +
    `Chinese guidelines: ${n(lang('zh').test.guidelines + lang('zh')['non-test'].guidelines)} (the paper does not publish its share; ${n(PAPER.zh)} of 2,274 assumed). ` +
    'Markdown documents with imported trees (no PDF ingestion, no builder calls).'
  );
}

/** Each stage's units in the paper, where the paper gives them (or they follow from its counts). */
const PAPER_UNITS: Record<string, [number, string]> = {
  guidelines: [PAPER.guidelines, 'guidelines collected (§3.1)'],
  trees: [PAPER.guidelines, 'one reasoning tree per guideline'],
  cdps: [PAPER.cdps, 'root-to-leaf paths (§3.1)'],
  vignettes: [PAPER.cdps, 'one case per CDP ("42,353 clinical cases")'],
  test_cases: [PAPER.testCases, 'cases of the 440 test guidelines (§4.1)'],
  predictions_single: [PAPER.testCases * 16, '7,458 cases × 16 models'],
  dialogues_multi: [PAPER.testCases * 16, '7,458 cases × 16 models'],
  predicted_pathways: [PAPER.testCases, 'one unit per case: its pathways in both settings, every model'],
  step_scores: [PAPER.testCases * 16 * 2 * 3, '× 3 judges (Tables 5–7)'],
  pathway_metrics: [PAPER.testCases * 16 * 2 * 3, 'one per pathway × judge'],
};

/** A Markdown table of every stage's units (rows) in the run, beside the paper's count. */
export function unitsTable(stages: StageUnits[], facts: CorpusFacts): string {
  const units = new Map(stages.map((s) => [s.stage, s.rowsComputed + s.rowsReused]));
  const cases = sum(facts.testCases, 'cdps');
  const models = (units.get('predictions_single') ?? 0) / cases;
  // A pathway is a prediction or a dialogue (predicted_pathways computes one unit per case, holding them all).
  const pathways = (units.get('predictions_single') ?? 0) + (units.get('dialogues_multi') ?? 0);
  const judges = pathways ? (units.get('step_scores') ?? 0) / pathways : null;
  const roster =
    units.has('predictions_single') && cases > 0
      ? ` This run evaluates ${models} models${judges === null ? '' : ` with ${judges} step judges`} (simulated), the paper 16 models with 3 judges.`
      : '';
  const lines = [
    `Units (rows) per stage in the run, beside the paper's count where the paper gives one.${roster}`,
    '',
    "| stage | units | failed | paper | the paper's count is |",
    '|---|---|---|---|---|',
    ...stages.map((s) => {
      const p = PAPER_UNITS[s.stage];
      return `| ${s.stage} | ${n(units.get(s.stage)!)} | ${s.rowsFailed ? n(s.rowsFailed) : ''} | ${p ? n(p[0]) : ''} | ${p ? p[1] : ''} |`;
    }),
  ];
  return lines.join('\n');
}

const TABLE4_KEY: Record<string, keyof (typeof TABLE4)['full']> = {
  Mean: 'mean',
  'Std. Dev.': 'sd',
  Min: 'min',
  P5: 'p5',
  P25: 'p25',
  Median: 'median',
  P75: 'p75',
  P95: 'p95',
  Max: 'max',
};

/** The run's CDP length statistics (`cdp_length_stats`) beside Table 4's, split by split. */
export function lengthTable(lengths: CorpusFacts['lengths']): string {
  const value = (split: string, statistic: string) => lengths.find((r) => r.split === split && r.statistic === statistic)?.value;
  const fmt = (x: number | null | undefined) => (x === null || x === undefined ? '' : Number.isInteger(x) ? String(x) : x.toFixed(2));
  const splits = ['full', 'test', 'non-test'] as const;
  return [
    "CDP lengths: the run's `cdp_length_stats` beside Table 4.",
    '',
    `| statistic | ${splits.map((s) => `${s} | Table 4 ${s}`).join(' | ')} |`,
    `|---|${splits.map(() => '---|---').join('|')}|`,
    ...Object.entries(TABLE4_KEY).map(
      ([stat, key]) => `| ${stat} | ${splits.map((s) => `${fmt(value(s, stat))} | ${fmt(TABLE4[s][key])}`).join(' | ')} |`,
    ),
  ].join('\n');
}
