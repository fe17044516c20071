/**
 * The two output formats of `cdp sql`, written as the result streams in, so neither holds the
 * whole result: a JSON array with one row object per line, and a plain text table.
 *
 * The table's column widths come from the header and exactly the first WIDTH_SAMPLE_ROWS rows
 * (DuckDB's first chunk), at most MAX_WIDTH characters; those rows wait until the widths are
 * known. A later cell wider than its column is written whole and shifts the rest of its line (a
 * cut would show 299999 as "2999…"); any cell over MAX_WIDTH is cut and ends in '…'.
 */
import type { JsonRow, RowSink } from './sql.ts';

export const WIDTH_SAMPLE_ROWS = 2048;
export const MAX_WIDTH = 60;

type Write = (text: string) => Promise<void> | void;

/** `[`, one row object per line, `]`; exactly `[]` when there are no rows. */
export function jsonArraySink(write: Write): RowSink {
  let first = true;
  return {
    begin() {},
    async rows(rows) {
      if (!rows.length) return;
      const body = rows.map((r) => JSON.stringify(r)).join(',\n');
      await write((first ? '[\n' : ',\n') + body);
      first = false;
    },
    async end() {
      await write(first ? '[]\n' : '\n]\n');
    },
  };
}

/** A cell as one line of text: NULL, objects as JSON, whitespace runs as one space. */
export function cellText(v: unknown): string {
  const s = v === null || v === undefined ? 'NULL' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return s.replace(/\s+/g, ' ');
}

/** Each column's width: its widest cell among the header and `cells`, at most MAX_WIDTH. */
export function columnWidths(columns: string[], cells: string[][]): number[] {
  return columns.map((c, i) => {
    let w = c.length;
    for (const row of cells) if (row[i].length > w) w = row[i].length;
    return Math.min(MAX_WIDTH, w);
  });
}

/** Cells padded to their column; only a cell over MAX_WIDTH is cut (so a later, wider number stays whole). */
export function tableLine(values: string[], widths: number[]): string {
  return values
    .map((v, i) => (v.length > MAX_WIDTH ? v.slice(0, MAX_WIDTH - 1) + '…' : v.padEnd(widths[i])))
    .join('  ')
    .trimEnd();
}

/** Header, rule, rows, and a closing `(N rows)`; `(no rows)` alone for an empty result. */
export function tableSink(write: Write): RowSink {
  let columns: string[] = [];
  let widths: number[] | undefined;
  let sample: string[][] = [];
  const toCells = (rows: JsonRow[]): string[][] => rows.map((r) => columns.map((c) => cellText(r[c])));
  const lines = (cells: string[][]): string => cells.map((r) => tableLine(r, widths!) + '\n').join('');
  const flushSample = async (): Promise<void> => {
    widths = columnWidths(columns, sample);
    await write(tableLine(columns, widths) + '\n' + widths.map((w) => '-'.repeat(w)).join('  ') + '\n' + lines(sample));
    sample = [];
  };
  return {
    begin(names) {
      columns = names;
    },
    async rows(rows) {
      const cells = toCells(rows);
      if (widths) return write(lines(cells));
      const room = WIDTH_SAMPLE_ROWS - sample.length;
      for (const c of cells.slice(0, room)) sample.push(c);
      if (sample.length < WIDTH_SAMPLE_ROWS) return;
      await flushSample();
      if (cells.length > room) await write(lines(cells.slice(room)));
    },
    async end(count) {
      if (count === 0) return write('(no rows)\n');
      if (!widths) await flushSample();
      await write(`(${count} row${count === 1 ? '' : 's'})\n`);
    },
  };
}
