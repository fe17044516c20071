/**
 * The dataset card (README.md) of an export, from plain data: what the files are, how many rows,
 * each table's schema, how the data was built (builder models, prompts, QC) and the licences of
 * the source documents. Pure: the command gathers the facts, this writes them down.
 */
import type { ExportKind } from './export-tables.ts';
import { qcLine, type QcCounts } from './qc-verdicts.ts';

export interface CardTable {
  name: string;
  description: string;
  rows: number;
  columns: { name: string; type: string }[];
}

export interface CardFacts {
  kind: ExportKind;
  tables: CardTable[];
  /** Role → the models that played it (e.g. "tree builder" → ["gpt-5.4"]). */
  builders: Record<string, string[]>;
  /** Prompt templates the rows record having sent, by their identity (language/file). */
  prompts: string[];
  /** Counted from the exported cases rows (benchmark only). */
  qc: QcCounts | null;
  /** Who produced it, from run_facts (results); null when the store has none. */
  producedBy: string | null;
  /** The settings the rows recorded (run_settings), one sentence each. */
  settings: string[];
  licences: { guideline_id: string; source: string; licence: string }[];
  notices: string[];
  /** Models evaluated (results only). */
  models: string[];
}

const list = (xs: readonly string[]) => (xs.length ? xs.map((x) => `\`${x}\``).join(', ') : 'none recorded');

export function datasetCard(f: CardFacts): string {
  const title = f.kind === 'benchmark' ? 'MEGA-CDP benchmark (reproduction build)' : 'MEGA-CDP results (reproduction run)';
  const out = [`# ${title}`, ''];
  out.push(
    f.kind === 'benchmark'
      ? 'Clinical decision pathways (CDPs) built from clinical guidelines, with the case vignettes, narratives and QC flags used to evaluate models. ' +
          'Exported by `cdp export benchmark` from the current build of the cdp-pipeline project (only the current version of every table).'
      : 'Predictions, judge scores, pathway metrics and summaries of one run of the cdp-pipeline project, exported by `cdp export results` ' +
          '(only the current version of every table; failed rows are kept with their `error`).',
    '',
    '## Files',
    '',
    'Every table is written twice with the same rows: `<table>.parquet` and `<table>.jsonl` (one JSON object per line, UTF-8).',
    '',
    '| table | rows | description |',
    '|---|---|---|',
    ...f.tables.map((t) => `| ${t.name} | ${t.rows} | ${t.description} |`),
    '',
    '## Schema',
    '',
  );
  for (const t of f.tables) {
    out.push(
      `### ${t.name}`,
      '',
      '| column | type |',
      '|---|---|',
      ...t.columns.map((c) => `| ${c.name} | ${c.type.replace(/\|/g, '\\|')} |`),
      '',
    );
  }
  out.push('## How it was built', '');
  if (f.producedBy) out.push(`- produced by: ${f.producedBy}`);
  for (const [role, models] of Object.entries(f.builders)) out.push(`- ${role}: ${list(models)}`);
  out.push(
    f.prompts.length
      ? `- prompts: ${list(f.prompts)} (templates under stages/prompts/templates/ of the project)`
      : '- prompts: no row of the exported tables records a prompt template',
  );
  if (f.qc) out.push(qcLine(f.qc));
  if (f.models.length) out.push(`- models evaluated: ${list(f.models)}`);
  out.push('');
  if (f.settings.length) out.push('## Settings, as the rows recorded them', '', ...f.settings.map((x) => `- ${x}`), '');
  if (f.licences.length) {
    out.push(
      '## Licences of the source documents',
      '',
      "The Markdown and everything derived from a guideline carries that guideline's terms.",
      '',
      '| guideline | source | licence |',
      '|---|---|---|',
      ...f.licences.map((l) => `| ${l.guideline_id} | ${l.source} | ${l.licence.replace(/\|/g, '\\|')} |`),
      '',
    );
    if (f.notices.length)
      out.push(`The licence notices of the sources are copied beside this card: ${list(f.notices)}. Keep them with the data.`, '');
  }
  return out.join('\n');
}
