/**
 * The parts every export's dataset card (README.md) shares, as lines: the files and their row
 * counts, each table's schema, and the licences of the source documents. Each benchmark's card
 * (dataset-card.ts, stages/cpgbench/export/) writes its own title and "how it was built"
 * around them. Pure.
 */
export interface CardTable {
  name: string;
  description: string;
  rows: number;
  columns: { name: string; type: string }[];
}

export interface DocumentLicence {
  guideline_id: string;
  source: string;
  licence: string;
}

export const codeList = (xs: readonly string[]) => (xs.length ? xs.map((x) => `\`${x}\``).join(', ') : 'none recorded');

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** "## Files" (each table's rows and description) and "## Schema" (each table's columns). */
export function tableSections(tables: readonly CardTable[]): string[] {
  const out = [
    '## Files',
    '',
    'Every table is written twice with the same rows: `<table>.parquet` and `<table>.jsonl` (one JSON object per line, UTF-8).',
    '',
    '| table | rows | description |',
    '|---|---|---|',
    ...tables.map((t) => `| ${t.name} | ${t.rows} | ${t.description} |`),
    '',
    '## Schema',
    '',
  ];
  for (const t of tables) {
    out.push(`### ${t.name}`, '', '| column | type |', '|---|---|', ...t.columns.map((c) => `| ${c.name} | ${cell(c.type)} |`), '');
  }
  return out;
}

/** "## Licences of the source documents", and the notices copied beside the card; nothing without licences. */
export function licenceSection(licences: readonly DocumentLicence[], notices: readonly string[]): string[] {
  if (!licences.length) return [];
  const out = [
    '## Licences of the source documents',
    '',
    "The Markdown and everything derived from a guideline carries that guideline's terms.",
    '',
    '| guideline | source | licence |',
    '|---|---|---|',
    ...licences.map((l) => `| ${l.guideline_id} | ${l.source} | ${cell(l.licence)} |`),
    '',
  ];
  if (notices.length)
    out.push(`The licence notices of the sources are copied beside this card: ${codeList(notices)}. Keep them with the data.`, '');
  return out;
}
