/**
 * The dataset card (README.md) of `cdp --config cpgbench.config.ts export benchmark`: the
 * shared files, schema and licence sections (stages/export/card-layout.ts), and CPGBench's own
 * account of how it was built, every count and setting counted from the exported rows (and the
 * failure rows the export leaves out, counted from their stages). Pure.
 */
import { codeList, licenceSection, tableSections, type CardTable, type DocumentLicence } from '../../export/card-layout.ts';
import type { Row } from '../../export/export-db.ts';
import type { WrittenTable } from '../../export/table-files.ts';
import { IMPORTED } from '../construct/cpg-recommendations.stage.ts';
import { numberText, plural, valueCounts, valuesText } from './card-counts.ts';

export interface CpgBenchmarkFacts {
  licences: DocumentLicence[];
  notices: string[];
  /** Failure rows of each construction stage, left out of the export. */
  failures: { stage: string; n: number }[];
  /** The prompt templates the construction rows and the detection answers record. */
  prompts: string[];
  /** The command that shows the failure rows, e.g. "cdp --config cpgbench.config.ts sql". */
  sqlCommand: string;
}

const rowsOf = (written: readonly WrittenTable[], name: string) => written.find((t) => t.name === name)?.rows ?? [];
const count = (rows: readonly Row[], p: (r: Row) => boolean) => rows.filter(p).length;

/** Who set the kept documents' metadata: guidelines.csv or a builder, per value (a document left out early was not asked the rest). */
function metadataLine(docs: readonly Row[]): string {
  const n = new Map<string, number>();
  let unknown = 0;
  for (const d of docs.filter((x) => x.included === true))
    for (const k of ['bona_fide_source', 'year_source', 'region_source', 'specialty_source']) {
      if (d[k] == null) unknown++;
      else n.set(String(d[k]), (n.get(String(d[k])) ?? 0) + 1);
    }
  const parts = [...n].map(([s, c]) => `${s === 'corpus' ? 'guidelines.csv' : `\`${s}\``} ${c}`);
  return `- metadata of the kept documents (bona fide, year, region, specialty; values by source): ${parts.join(', ') || 'none'}${unknown ? `; unknown ${unknown}` : ''}`;
}

function builtLines(written: readonly WrittenTable[]): string[] {
  const docs = rowsOf(written, 'documents');
  const recs = rowsOf(written, 'recommendations');
  const convs = rowsOf(written, 'conversations');
  const shipped = count(recs, (r) => r.provenance === 'shipped');
  const extracted = valueCounts(recs, 'extracted_by');
  const builders = [...new Set([...valueCounts(docs, 'builder'), ...extracted].map((c) => c.value))].sort();
  const writers = valueCounts(convs, 'writer').map((w) => {
    const sim = convs.some((c) => c.writer === w.value && c.writer_simulated === true);
    return `\`${w.value}\`${sim ? ' (simulated stand-in, not an LLM)' : ''} ${plural(w.n, 'conversation')}`;
  });
  return [
    `- builder: ${builders.length ? codeList(builders) : 'none: no document, recommendation or safety flag was asked of a model'}`,
    metadataLine(docs),
    `- recommendations: ${shipped} of ${recs.length} shipped with the corpus (\`recommendations/<id>.json\`, checked like extracted ones)` +
      (extracted.length ? `; extracted by ${extracted.map((e) => `\`${e.value}\` ${e.n}`).join(', ')}` : '; none extracted'),
    `- conversations written by: ${writers.join(', ') || 'no conversation in this export'}`,
  ];
}

function safetyText(recs: readonly Row[]): string {
  const critical = count(recs, (r) => r.safety_critical === true);
  const unknown = count(recs, (r) => r.safety_critical == null);
  const shipped = count(recs, (r) => r.safety_source === IMPORTED);
  const selected = valueCounts(
    recs.filter((r) => r.safety_source != null && r.safety_source !== IMPORTED),
    'safety_source',
  );
  const criteria = valuesText(valueCounts(recs, 'safety_criterion'), 'recommendation', (c) => `"${c}"`);
  return (
    `Safety-critical selection: ${critical} of ${recs.length} recommendations flagged (\`safety_critical\`); ` +
    `${shipped} flags shipped with the corpus` +
    (selected.length
      ? `, ${selected.map((s) => `${s.n} selected by \`${s.value}\` (Prompt 3)`).join(', ')} under the criterion ${criteria}`
      : '') +
    (unknown ? `, ${unknown} unknown (no shipped flag and no builder)` : '') +
    '.'
  );
}

/** The cut of the document Prompt 4 read, as the extracted recommendations' rows record it (shipped ones read none). */
function extractionCutText(recs: readonly Row[]): string {
  const extracted = recs.filter((r) => r.extraction_max_tokens != null);
  if (!extracted.length)
    return `Extraction cut (\`extraction_max_tokens\`): none applied (${plural(recs.length, 'recommendation')} shipped with the corpus or none extracted).`;
  const maxTokens = valuesText(valueCounts(extracted, 'extraction_max_tokens'), 'recommendation row', numberText);
  return `Extraction cut (\`extraction_max_tokens\`): ${maxTokens} tokens; ${plural(
    count(extracted, (r) => r.extraction_cut === true),
    'recommendation',
  )} extracted from a cut document (\`extraction_cut\`).`;
}

function settingLines(written: readonly WrittenTable[]): string[] {
  const docs = rowsOf(written, 'documents');
  const convs = rowsOf(written, 'conversations');
  const notRecorded = 'not recorded by the exported rows';
  const byYear = count(docs, (d) => d.included === false && d.bona_fide !== false);
  const minYear = valuesText(valueCounts(docs, 'min_year'), 'document row');
  const maxTokens = valuesText(valueCounts(docs, 'max_tokens'), 'document row', numberText);
  const maxAttempts = valuesText(valueCounts(convs, 'max_attempts'), 'conversation row');
  return [
    `Year filter (\`min_year\`): ${minYear ?? notRecorded}; documents published before it are left out: ${byYear} (or an unknown year, \`excluded_reason\`).`,
    `Document cut (\`max_tokens\`): ${maxTokens ? `${maxTokens} tokens` : notRecorded}; ${plural(
      count(docs, (d) => d.cut === true),
      'document',
    )} cut (\`cut\`).`,
    extractionCutText(rowsOf(written, 'recommendations')),
    safetyText(rowsOf(written, 'recommendations')),
    `Regeneration limit (\`max_attempts\`): ${maxAttempts ? `${maxAttempts} answers per conversation` : notRecorded}, regenerated until one passes the three format checks; ` +
      `${count(convs, (c) => Number(c.attempts) > 1)} of ${convs.length} passed after a regeneration (\`attempts\`, \`rejected\`).`,
  ];
}

function countsLine(written: readonly WrittenTable[]): string {
  const docs = rowsOf(written, 'documents');
  const notCpg = count(docs, (d) => d.bona_fide === false);
  return (
    `- counts: ${plural(docs.length, 'document')}, ${count(docs, (d) => d.included === true)} kept (${notCpg} not a bona fide CPG, ` +
    `${count(docs, (d) => d.included === false && d.bona_fide !== false)} by year); ${plural(rowsOf(written, 'recommendations').length, 'recommendation')}; ` +
    `${plural(rowsOf(written, 'conversations').length, 'conversation')}; ${plural(rowsOf(written, 'task_inputs').length, 'benchmark item')} (\`task_inputs\`)`
  );
}

function failureLines(f: CpgBenchmarkFacts): string[] {
  const failed = f.failures.filter((x) => x.n > 0);
  if (!failed.length) return ['- failures: no construction stage has a failure row'];
  const list = failed.map((x) => `${x.stage} ${x.n}`).join(', ');
  return [
    `- failures left out of these files: ${list} (each a row with its \`error\`: \`${f.sqlCommand} "select * from <stage> where error is not null"\`)`,
  ];
}

export function cpgBenchmarkCard(f: CpgBenchmarkFacts, written: readonly WrittenTable[]): string {
  const tables: CardTable[] = written.map((t) => ({ name: t.name, description: t.description, rows: t.rows.length, columns: t.columns }));
  return [
    '# CPGBench benchmark (reproduction build)',
    '',
    'Guideline documents, their recommendations, one doctor–patient conversation per recommendation and the inputs of both tasks ' +
      '(detection and adherence), exported by `cdp --config cpgbench.config.ts export benchmark` from the current build of the ' +
      'cdp-pipeline project (only the current version of every table; failure rows are left out and counted below).',
    '',
    ...tableSections(tables),
    '## How it was built',
    '',
    countsLine(written),
    ...builtLines(written),
    f.prompts.length
      ? `- prompts: ${codeList(f.prompts)} (written for this project, not the paper's; templates under stages/prompts/templates/)`
      : '- prompts: no exported row records a prompt template',
    ...failureLines(f),
    '',
    '## Construction settings, as the rows recorded them',
    '',
    ...settingLines(written).map((x) => `- ${x}`),
    '',
    ...licenceSection(f.licences, f.notices),
  ].join('\n');
}
