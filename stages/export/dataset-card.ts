/**
 * MEGA-CDP's dataset card (README.md) of an export, from plain data: what the files are, how many
 * rows, each table's schema (card-layout.ts), how the data was built (builder models, prompts,
 * QC) and the licences of the source documents. Pure: the command gathers the facts, this
 * writes them down.
 */
import { codeList as list, licenceSection, tableSections, type CardTable, type DocumentLicence } from './card-layout.ts';
import type { ExportKind } from './export-tables.ts';
import { qcLine, type QcCounts } from './qc-verdicts.ts';

export type { CardTable } from './card-layout.ts';

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
  licences: DocumentLicence[];
  notices: string[];
  /** Models evaluated (results only). */
  models: string[];
}

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
    ...tableSections(f.tables),
  );
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
  out.push(...licenceSection(f.licences, f.notices));
  return out.join('\n');
}
