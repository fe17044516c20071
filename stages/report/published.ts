/**
 * The paper's published numbers (data/published/*.csv, percentages as printed) as scorecard
 * cells: Table 1 (per model × 5 columns) and Tables 5–7 (metric × setting × model × judge, with CI).
 */
import Papa from 'papaparse';
import { TABLE1_COLUMNS } from './paper-tables.ts';

export interface PublishedCell {
  table: string;
  metric: string;
  setting: string;
  model: string;
  /** null for SR, which needs no judge; Table 1 cells carry the paper's default judge. */
  judge: string | null;
  value: number;
  ciLow: number | null;
  ciHigh: number | null;
}

/** The paper's default judge, which Table 1's PCC and Acc use. */
export const PAPER_DEFAULT_JUDGE = 'gpt-5.4-mini';

export const PUBLISHED_FILES = {
  table1: 'table1_main_results.csv',
  table5: 'table5_dtw_pcc_ci.csv',
  table6: 'table6_ot_pcc_ci.csv',
  table7: 'table7_lnds_pcs_ci.csv',
} as const;

function parse(text: string, file: string, required: string[]): Record<string, string>[] {
  const p = Papa.parse<Record<string, string>>(text.trim(), { header: true, skipEmptyLines: true });
  if (p.errors.length) throw new Error(`${file}: ${p.errors.map((e) => `line ${(e.row ?? 0) + 2}: ${e.message}`).join('; ')}; fix the CSV`);
  const missing = required.filter((c) => !p.meta.fields?.includes(c));
  if (missing.length) throw new Error(`${file}: missing column(s) ${missing.join(', ')}; expected header ${required.join(',')}`);
  return p.data;
}

function number(s: string | undefined, file: string, line: number, column: string): number {
  const x = Number(s);
  if (s === undefined || s.trim() === '' || !Number.isFinite(x))
    throw new Error(`${file} line ${line}: column ${column} must be a number, got "${s ?? ''}"`);
  return x;
}

const TABLE1_FIELDS: Record<string, string> = {
  'single/dtw_pcc': 'single_pcc_pct',
  'single/acc': 'single_acc_pct',
  'multi/dtw_pcc': 'multi_pcc_pct',
  'multi/acc': 'multi_acc_pct',
  'multi/sr': 'multi_sr_pct',
};

export function parseTable1(text: string, file = PUBLISHED_FILES.table1): PublishedCell[] {
  const rows = parse(text, file, ['model', ...Object.values(TABLE1_FIELDS)]);
  return rows.flatMap((r, i) =>
    TABLE1_COLUMNS.map(([, setting, metric]) => {
      const field = TABLE1_FIELDS[`${setting}/${metric}`]!;
      return {
        table: 'Table 1',
        metric,
        setting,
        model: r.model!,
        judge: metric === 'sr' ? null : PAPER_DEFAULT_JUDGE,
        value: number(r[field], file, i + 2, field),
        ciLow: null,
        ciHigh: null,
      };
    }),
  );
}

export function parseMetricCiTable(text: string, table: string, file: string): PublishedCell[] {
  const rows = parse(text, file, ['metric', 'setting', 'model', 'judge', 'value_pct', 'ci_low_pct', 'ci_high_pct']);
  return rows.map((r, i) => ({
    table,
    metric: r.metric!,
    setting: r.setting!,
    model: r.model!,
    judge: r.judge!,
    value: number(r.value_pct, file, i + 2, 'value_pct'),
    ciLow: number(r.ci_low_pct, file, i + 2, 'ci_low_pct'),
    ciHigh: number(r.ci_high_pct, file, i + 2, 'ci_high_pct'),
  }));
}

/** All scorecard cells from the files' texts, keyed by file name; a missing file is an error. */
export function publishedCells(texts: Record<string, string>): PublishedCell[] {
  const need = (f: string) => {
    const t = texts[f];
    if (t === undefined)
      throw new Error(`published table ${f} not found; the scorecard needs data/published/${f} (see data/published/SOURCE.md)`);
    return t;
  };
  return [
    ...parseTable1(need(PUBLISHED_FILES.table1)),
    ...parseMetricCiTable(need(PUBLISHED_FILES.table5), 'Table 5', PUBLISHED_FILES.table5),
    ...parseMetricCiTable(need(PUBLISHED_FILES.table6), 'Table 6', PUBLISHED_FILES.table6),
    ...parseMetricCiTable(need(PUBLISHED_FILES.table7), 'Table 7', PUBLISHED_FILES.table7),
  ];
}
