// Tables: runs of rows (lines sharing a baseline) where several rows split into cells that start
// at the same x positions. Column starts are the x positions shared by at least two multi-cell
// rows. A row whose first column is empty continues the row above (wrapped cell text). Anything
// that does not fit stays text.
import type { TextLine } from './types.ts';
import { joinLine, type HyphenVocabulary } from './reflow.ts';

const ALIGN = 6; // pt: cells starting this close share a column

export interface TableSpan {
  /** Index of the first and one past the last row of the table in the rows given. */
  start: number;
  end: number;
  cells: string[][];
}

function clusterStarts(xs: number[]): { x: number; n: number }[] {
  const sorted = [...xs].sort((a, b) => a - b);
  const clusters: { x: number; n: number; sum: number }[] = [];
  for (const x of sorted) {
    const c = clusters[clusters.length - 1];
    if (c && x - c.sum / c.n <= ALIGN) {
      c.n++;
      c.sum += x;
    } else clusters.push({ x, n: 1, sum: x });
  }
  return clusters.map((c) => ({ x: c.sum / c.n, n: c.n }));
}

function columnOf(anchors: number[], x: number): number {
  let col = 0;
  for (let i = 0; i < anchors.length; i++) if (anchors[i]! <= x + ALIGN) col = i;
  return col;
}

/** Tries to read a table starting at rows[start]; null when the rows there are not one. */
export function tableAt(rows: TextLine[][], start: number, flowWidth: number, vocab: HyphenVocabulary): TableSpan | null {
  const first = rows[start];
  if (!first || first.length < 2) return null;
  const size = first[0]!.size;
  // Grow while rows stay close and either split into cells or sit inside a column of the table.
  let end = start + 1;
  let minX = Math.min(...first.map((c) => c.x0));
  let secondX = Math.min(...first.slice(1).map((c) => c.x0));
  while (end < rows.length) {
    const row = rows[end]!;
    const prev = rows[end - 1]!;
    if (row[0]!.baseline - prev[0]!.baseline > 2.6 * size) break;
    if (Math.abs(row[0]!.size - size) > 1.5) break;
    if (row.length >= 2) {
      secondX = Math.min(secondX, ...row.slice(1).map((c) => c.x0));
      end++;
      continue;
    }
    const cell = row[0]!;
    const inFirstColumn = Math.abs(cell.x0 - minX) <= ALIGN && cell.x1 < secondX - 2;
    const inLaterColumn = cell.x0 >= secondX - ALIGN;
    if (inFirstColumn || inLaterColumn) {
      end++;
      continue;
    }
    break;
  }
  // Drop trailing single-cell rows at the left edge: they are as likely the text after the table.
  // One in a later column is the wrapped end of the last row.
  while (end > start + 1 && rows[end - 1]!.length < 2 && rows[end - 1]![0]!.x0 < secondX - ALIGN) end--;
  const body = rows.slice(start, end);
  const multi = body.filter((r) => r.length >= 2);
  const starts = clusterStarts(multi.flatMap((r) => r.map((c) => c.x0)));
  const anchors = starts.filter((s) => s.n >= 2).map((s) => s.x);
  minX = Math.min(minX, ...body.flat().map((c) => c.x0));
  if (!anchors.length || anchors[0]! > minX + ALIGN) anchors.unshift(minX);
  if (anchors.length < 2) return null;
  if (multi.length < 3 && !(multi.length >= 2 && anchors.length >= 3)) return null;
  // Two side-by-side paragraphs are not a table: every table has a narrow column.
  if (anchors.length === 2) {
    const widths = multi.flatMap((r) => r.map((c) => c.x1 - c.x0));
    const narrow = widths.filter((w) => w < 0.3 * flowWidth).length;
    if (narrow < widths.length / 2) return null;
  }
  // Wrapped cell text sits one line pitch below; where the table also leaves extra space between
  // rows, that space, not an empty first cell, is what separates rows.
  const gaps = body.slice(1).map((r, i) => r[0]!.baseline - body[i]![0]!.baseline);
  const pitch = Math.min(...gaps);
  // A single wide gap (under a header row) does not make a spaced table; rows spaced out do.
  const wideGaps = gaps.filter((g) => g > 1.4 * pitch).length;
  const spaced = wideGaps >= 2;
  const cells: string[][] = [];
  for (const [i, row] of body.entries()) {
    const texts: string[] = Array.from({ length: anchors.length }, () => '');
    for (const cell of row) {
      const col = columnOf(anchors, cell.x0);
      texts[col] = texts[col] ? texts[col] + ' ' + cell.text.trim() : cell.text.trim();
    }
    const continues = i > 0 && (spaced ? gaps[i - 1]! < 1.25 * pitch : texts[0] === '');
    if (continues) {
      const prev = cells[cells.length - 1]!;
      texts.forEach((t, i) => {
        if (t) prev[i] = prev[i] ? joinLine(prev[i]!, t, vocab) : t;
      });
    } else cells.push(texts);
  }
  if (cells.length < 2) return null;
  return { start, end, cells };
}
