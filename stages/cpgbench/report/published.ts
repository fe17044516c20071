/**
 * CPGBench's published rates (data/published/cpgbench-table1-overall.csv and
 * cpgbench-table3-safety.csv, transcribed from the paper's Tables 1 and 3; percentages as
 * printed) as scorecard cells. A missing file or column is an error naming it.
 */
import Papa from 'papaparse';
import { REPORT_TASKS } from './rate-rows.ts';

export const CPG_PUBLISHED_FILES = { overall: 'cpgbench-table1-overall.csv', safety: 'cpgbench-table3-safety.csv' } as const;

export interface PublishedRate {
  table: 'Table 1' | 'Table 3';
  grouping: 'overall' | 'safety';
  model: string;
  task: (typeof REPORT_TASKS)[number];
  /** Percent. */
  value: number;
}

export function parsePublishedRates(text: string, file: string, grouping: 'overall' | 'safety'): PublishedRate[] {
  const p = Papa.parse<Record<string, string>>(text.trim(), { header: true, skipEmptyLines: true });
  const fields = REPORT_TASKS.map((t) => `${t}_pct`);
  const missing = ['model', ...fields].filter((c) => !p.meta.fields?.includes(c));
  if (p.errors.length || missing.length)
    throw new Error(
      `${file}: ${missing.length ? `missing column(s) ${missing.join(', ')}` : p.errors.map((e) => e.message).join('; ')}; expected model,${fields.join(',')}`,
    );
  return p.data.flatMap((r, i) =>
    REPORT_TASKS.map((task) => {
      const v = Number(r[`${task}_pct`]);
      if (!Number.isFinite(v)) throw new Error(`${file} line ${i + 2}: ${task}_pct must be a number, got "${r[`${task}_pct`] ?? ''}"`);
      return { table: grouping === 'overall' ? 'Table 1' : 'Table 3', grouping, model: r.model!, task, value: v } as PublishedRate;
    }),
  );
}

/** Both tables from the files' texts, keyed by file name. */
export function publishedRates(texts: Record<string, string>): PublishedRate[] {
  return (['overall', 'safety'] as const).flatMap((g) => {
    const file = CPG_PUBLISHED_FILES[g];
    const t = texts[file];
    if (t === undefined)
      throw new Error(
        `published table ${file} not found; the CPGBench scorecard needs data/published/${file} (see data/published/SOURCE.md)`,
      );
    return parsePublishedRates(t, file, g);
  });
}
