/**
 * A report table as plain data (title, caption, header, string cells) and its two renderings:
 * GitHub Markdown and CSV (papaparse). Cells are already formatted; nothing here rounds.
 */
import Papa from 'papaparse';

export interface ReportTable {
  /** File stem under tables/, e.g. "table1_main_results". */
  name: string;
  title: string;
  /** Shown under the title in Markdown; not in the CSV. */
  caption: string;
  columns: string[];
  rows: string[][];
  /** Why the table has nothing to show (no file is written; the index says why); absent when it has content. */
  absent?: string;
}

const escapeCell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

export function tableMarkdown(t: ReportTable): string {
  for (const [i, r] of t.rows.entries()) {
    if (r.length !== t.columns.length)
      throw new RangeError(
        `table ${t.name}: row ${i + 1} has ${r.length} cells for ${t.columns.length} columns; every row needs one cell per column`,
      );
  }
  const line = (cells: string[]) => `| ${cells.map(escapeCell).join(' | ')} |`;
  const out = [`# ${t.title}`, ''];
  if (t.caption) out.push(t.caption, '');
  out.push(line(t.columns), `|${t.columns.map(() => '---').join('|')}|`, ...t.rows.map(line));
  return out.join('\n') + '\n';
}

export function tableCsv(t: ReportTable): string {
  // Papaparse joins with \r\n by default; \n keeps the files diff-friendly and stable across platforms.
  return Papa.unparse({ fields: t.columns, data: t.rows }, { newline: '\n' }) + '\n';
}
