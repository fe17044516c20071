// Reading order for multi-column pages. A gutter is a vertical strip in the middle of the text
// area that (almost) no line crosses while both sides hold paragraph-width text side by side.
// Lines that cross the gutter (titles, wide tables, figure captions) cut the page into bands;
// inside a band we read the whole left column, then the right one. Each side is searched again
// so three-column pages also come out in order.
import type { FlowLine, TextLine } from './types.ts';

/** Lines grouped in rows (same baseline) top to bottom, cells left to right. */
export function sortIntoRows(lines: TextLine[]): TextLine[][] {
  const sorted = [...lines].sort((a, b) => a.baseline - b.baseline || a.x0 - b.x0);
  const rows: TextLine[][] = [];
  for (const line of sorted) {
    const row = rows[rows.length - 1];
    const ref = row?.[0];
    if (row && ref && Math.abs(line.baseline - ref.baseline) <= 0.35 * Math.max(line.size, ref.size)) row.push(line);
    else rows.push([line]);
  }
  for (const row of rows) row.sort((a, b) => a.x0 - b.x0);
  return rows;
}

/** x of the column gutter of these lines, or null when they form a single column. */
export function findGutter(lines: TextLine[]): number | null {
  if (lines.length < 8) return null;
  let left = Infinity,
    right = -Infinity;
  for (const l of lines) {
    left = Math.min(left, l.x0);
    right = Math.max(right, l.x1);
  }
  const width = right - left;
  if (width < 150) return null;
  const lo = Math.floor(left + 0.2 * width),
    hi = Math.ceil(left + 0.8 * width);
  const cover = new Uint32Array(hi - lo + 1);
  for (const l of lines) {
    const a = Math.max(lo, Math.floor(l.x0 - 1)),
      b = Math.min(hi, Math.ceil(l.x1 + 1));
    for (let x = a; x <= b; x++) cover[x - lo]!++;
  }
  let min = Infinity;
  for (const c of cover) min = Math.min(min, c);
  // Full-width lines (titles, an abstract, a wide table) cross any gutter; they may be many, the
  // side-by-side test below is what tells columns from a single column.
  if (min > lines.length * 0.5) return null;
  // The widest run at the minimum coverage is the gutter; a 2 pt run is a word space, not a gutter.
  let bestStart = -1,
    bestLen = 0;
  for (let i = 0; i < cover.length;) {
    if (cover[i] !== min) {
      i++;
      continue;
    }
    let j = i;
    while (j < cover.length && cover[j] === min) j++;
    if (j - i > bestLen) {
      bestLen = j - i;
      bestStart = i;
    }
    i = j;
  }
  if (bestLen < 3) return null;
  const gutter = lo + bestStart + bestLen / 2;
  const leftSide = lines.filter((l) => l.x1 <= gutter);
  const rightSide = lines.filter((l) => l.x0 >= gutter);
  // Columns hold running text: on each side at least three lines, and a quarter of all its lines,
  // are a fifth of the text width or wider. Table cells beside each other are narrower.
  const wideEnough = (side: TextLine[]) => {
    const widths = side.map((l) => l.x1 - l.x0).sort((a, b) => a - b);
    return widths.filter((w) => w >= 0.2 * width).length >= 3 && widths[Math.floor(widths.length * 0.75)]! >= 0.2 * width;
  };
  if (!wideEnough(leftSide) || !wideEnough(rightSide)) return null;
  // Both sides must stand next to each other, not one above the other: count left lines that
  // have a right line at the same height.
  const rightSorted = [...rightSide].sort((a, b) => a.y0 - b.y0);
  let beside = 0;
  for (const l of leftSide) {
    const h = l.y1 - l.y0;
    if (rightSorted.some((r) => Math.min(l.y1, r.y1) - Math.max(l.y0, r.y0) > 0.5 * Math.min(h, r.y1 - r.y0))) beside++;
  }
  if (beside < 3 || beside < 0.3 * Math.min(leftSide.length, rightSide.length)) return null;
  return gutter;
}

const LONE_MARK = /^[•▪▫◦●○■□◆◇‣⁃∙·–\-*ïü√]$/u;

/**
 * Baseline ranges of full-width tables: runs of at least two rows that have two or more cells
 * on each side of the gutter. Their cells do not cross the gutter one by one (it
 * falls between two table columns), but the rows belong together, across it.
 */
export function wideTableRows(lines: TextLine[], gutter: number): [number, number][] {
  const bands: { a: number; b: number; n: number }[] = [];
  for (const row of sortIntoRows(lines)) {
    // Two cells on each side: side-by-side text has one line per column (a bullet set apart by
    // a tab is not a cell), a table inside one column has a single line beside it.
    const cells = row.filter((l) => !LONE_MARK.test(l.text.trim()));
    const left = cells.filter((l) => (l.x0 + l.x1) / 2 < gutter).length;
    const wide = left >= 2 && cells.length - left >= 2;
    if (!wide) continue;
    const y = row[0]!.baseline;
    const last = bands[bands.length - 1];
    if (last && y - last.b <= 4 * row[0]!.size) {
      last.b = y;
      last.n++;
    } else bands.push({ a: y, b: y, n: 1 });
  }
  return bands.filter((band) => band.n >= 2).map((band) => [band.a, band.b]);
}

/** Groups of lines, each one flow (a column run or a full-width band), in reading order. */
export function orderFlows(lines: TextLine[], depth = 0): TextLine[][] {
  if (!lines.length) return [];
  const gutter = depth < 3 ? findGutter(lines) : null;
  if (gutter === null) return [sortIntoRows(lines).flat()];
  const wide = wideTableRows(lines, gutter);
  const spans = (l: TextLine) =>
    (l.x0 < gutter - 1 && l.x1 > gutter + 1) || wide.some(([a, b]) => l.baseline >= a - 0.5 && l.baseline <= b + 0.5);
  const sorted = [...lines].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const flows: TextLine[][] = [];
  let leftCol: TextLine[] = [],
    rightCol: TextLine[] = [],
    spanning: TextLine[] = [];
  const flushColumns = () => {
    if (leftCol.length || rightCol.length) {
      flows.push(...orderFlows(leftCol, depth + 1), ...orderFlows(rightCol, depth + 1));
      leftCol = [];
      rightCol = [];
    }
  };
  const flushSpanning = () => {
    if (spanning.length) flows.push(sortIntoRows(spanning).flat());
    spanning = [];
  };
  for (const line of sorted) {
    if (spans(line)) {
      flushColumns();
      spanning.push(line);
    } else {
      flushSpanning();
      (line.x1 <= gutter ? leftCol : rightCol).push(line);
    }
  }
  flushColumns();
  flushSpanning();
  return flows;
}

/** Lines of one page in reading order, tagged with flow ids starting at `firstFlow`. */
export function readingOrder(lines: TextLine[], firstFlow: number): FlowLine[] {
  const out: FlowLine[] = [];
  let flow = firstFlow;
  for (const group of orderFlows(lines)) {
    const flowLeft = Math.min(...group.map((l) => l.x0));
    const flowRight = Math.max(...group.map((l) => l.x1));
    for (const l of group) out.push({ ...l, flow, flowLeft, flowRight });
    flow++;
  }
  return out;
}
