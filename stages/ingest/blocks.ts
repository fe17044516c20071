// Groups the lines of a page, in reading order, into blocks: headings, paragraphs, list items and
// tables. Paragraph breaks come from vertical gaps, first-line indents, a change of font size,
// and a previous line that stops short after closing a sentence.
import type { FlowLine, TextLine } from './types.ts';
import { headingStyle, type HeadingStyle } from './headings.ts';
import { listMarker } from './lists.ts';
import { tableAt } from './tables.ts';
import { isCjk, type HyphenVocabulary } from './reflow.ts';

export type RawBlock =
  | { kind: 'heading'; style: HeadingStyle; lines: FlowLine[] }
  | { kind: 'paragraph'; lines: FlowLine[] }
  | { kind: 'list-item'; marker: string; depth: number; lines: FlowLine[] }
  | { kind: 'table'; cells: string[][]; lines: FlowLine[] };

const SENTENCE_END = /[.!?:;。！？：；]["”’)）\]]*$/u;
const FULL_STOP = /[.!?。！？]["”’)）\]]*$/u;

function sameHeadingStyle(a: HeadingStyle, b: HeadingStyle): boolean {
  return a.kind === b.kind && Math.abs(a.size - b.size) <= 0.6;
}

/** "4a. Classification ..." under "4. Diagnosis ...": a new numbered heading, not a wrapped line. */
const SECTION_NUMBER = /^(\d{1,2}(\.\d{1,2})*[a-z]?\.?|[一二三四五六七八九十]+、|（[一二三四五六七八九十]+）)\s*\S/u;

const LONE_BULLET = /^[•▪▫◦●○■□◆◇‣⁃∙·–\-*ïü√]$/u;

function rowsOf(lines: FlowLine[]): FlowLine[][] {
  const rows: FlowLine[][] = [];
  for (const line of lines) {
    const row = rows[rows.length - 1];
    const ref = row?.[0];
    if (row && ref && Math.abs(line.baseline - ref.baseline) <= 0.35 * Math.max(line.size, ref.size)) row.push(line);
    else rows.push([line]);
  }
  // A bullet set apart by a tab belongs to the text after it, not to a table column.
  return rows.map((row) => {
    const out: FlowLine[] = [];
    for (const line of row) {
      const prev = out[out.length - 1];
      if (prev && LONE_BULLET.test(prev.text.trim())) {
        out[out.length - 1] = { ...line, x0: prev.x0, text: `${prev.text.trim()} ${line.text}`, spans: [...prev.spans, ...line.spans] };
      } else out.push(line);
    }
    return out;
  });
}

function endsShort(line: TextLine & { flowRight: number; flowLeft: number }, bySize: number): boolean {
  return line.x1 < line.flowRight - bySize * line.size;
}

/**
 * Whether `prev` ended although the first word of `next` would have fitted after it: then the
 * line break was the author's, not the typesetter's. Works for ragged-right and justified text.
 */
export function brokeEarly(prev: FlowLine, next: FlowLine): boolean {
  const room = prev.flowRight - prev.x1;
  const text = next.text.trim();
  const charWidth = (next.x1 - next.x0) / Math.max(1, text.length);
  const first = text.split(/\s/)[0] ?? '';
  const need = isCjk(first[0] ?? '') ? 2 * charWidth : (first.length + 1) * charWidth;
  return room > need + 0.5 * next.size;
}

/** "3." after "2.", "(4)" after "(3)", "（三）" after "（二）": the next item of the same list. */
export function nextInSequence(prev: string, next: string): boolean {
  const CN = '一二三四五六七八九十';
  const parse = (m: string) => {
    const d = /^(\D*)(\d+)(\D*)$/.exec(m);
    if (d) return { shape: d[1]! + '#' + d[3]!, n: Number(d[2]) };
    const c = new RegExp(`^(\\D*?)([${CN}])(\\D*)$`).exec(m);
    if (c) return { shape: c[1]! + '#' + c[3]!, n: CN.indexOf(c[2]!) + 1 };
    return null;
  };
  const a = parse(prev),
    b = parse(next);
  return !!a && !!b && a.shape === b.shape && b.n === a.n + 1;
}

/**
 * The usual baseline-to-baseline distance for each font size in a flow (the median of the gaps
 * between consecutive lines of that size); a gap clearly larger than it separates paragraphs.
 */
export function linePitch(flow: TextLine[]): Map<number, number> {
  const gaps = new Map<number, number[]>();
  for (let i = 1; i < flow.length; i++) {
    const a = flow[i - 1]!,
      b = flow[i]!;
    const g = b.baseline - a.baseline;
    if (a.size !== b.size || g < 0.8 * b.size || g > 2.5 * b.size) continue;
    let list = gaps.get(b.size);
    if (!list) gaps.set(b.size, (list = []));
    list.push(g);
  }
  const out = new Map<number, number>();
  for (const [size, list] of gaps) {
    if (list.length < 3) continue;
    list.sort((x, y) => x - y);
    out.set(size, list[Math.floor(list.length / 2)]!);
  }
  return out;
}

/** Blocks of one page, from its lines in reading order. */
export function pageBlocks(lines: FlowLine[], bodySize: number, vocab: HyphenVocabulary): RawBlock[] {
  const blocks: RawBlock[] = [];
  const flows: FlowLine[][] = [];
  for (const line of lines) {
    const f = flows[flows.length - 1];
    if (f && f[0]!.flow === line.flow) f.push(line);
    else flows.push([line]);
  }
  for (const flow of flows) blocks.push(...flowBlocks(flow, bodySize, vocab));
  return blocks;
}

function flowBlocks(flow: FlowLine[], bodySize: number, vocab: HyphenVocabulary): RawBlock[] {
  const out: RawBlock[] = [];
  const rows = rowsOf(flow);
  const flowWidth = flow[0]!.flowRight - flow[0]!.flowLeft;
  const pitch = linePitch(flow);
  let cur: RawBlock | null = null;
  const listStack: number[] = []; // x0 of the markers of open list levels
  const push = (b: RawBlock) => {
    out.push(b);
    cur = b;
  };

  const addLine = (line: FlowLine) => {
    const prevBlock = cur as RawBlock | null;
    const prev = prevBlock?.lines[prevBlock.lines.length - 1];
    const gap = prev ? line.baseline - prev.baseline : Infinity;
    if (prevBlock && prev && prevBlock.kind !== 'table' && Math.abs(gap) < 0.35 * line.size) {
      prevBlock.lines.push(line); // a fragment of the same row (split at a wide space)
      return;
    }
    const close = gap > 0 && gap <= 1.25 * (pitch.get(line.size) ?? 1.45 * Math.max(line.size, prev?.size ?? 0));
    const style = headingStyle(line, bodySize);
    if (style) {
      if (
        prevBlock?.kind === 'heading' &&
        sameHeadingStyle(prevBlock.style, style) &&
        gap > 0 &&
        gap <= 1.45 * Math.max(line.size, prev!.y1 - prev!.y0) &&
        !SECTION_NUMBER.test(line.text) &&
        !/[.!?。！？]$/u.test(prev!.text.trim())
      ) {
        prevBlock.lines.push(line);
      } else push({ kind: 'heading', style, lines: [line] });
      listStack.length = 0;
      return;
    }
    let marker = listMarker(line.text);
    // "(c) World Health Organization" is not item c: a letter after "a" needs a lettered item before it.
    if (marker && /^\(?[b-z][.)]$/.test(marker.marker) && !(prevBlock?.kind === 'list-item' && /^\(?[a-z][.)]$/.test(prevBlock.marker)))
      marker = null;
    // "(7)" or "2." at the start of a line inside a sentence is a citation or a wrapped number.
    if (marker?.ordered && prevBlock?.kind === 'paragraph' && close && prev && !SENTENCE_END.test(prev.text.trim())) marker = null;
    if (marker && !/^[\p{L}\p{N}"“‘'([]/u.test(marker.rest)) marker = null;
    if (marker) {
      while (listStack.length && listStack[listStack.length - 1]! > line.x0 + 0.5 * line.size) listStack.pop();
      const top = listStack[listStack.length - 1];
      const lastItem = [...out].reverse().find((b) => b.kind === 'list-item') as Extract<RawBlock, { kind: 'list-item' }> | undefined;
      if (top !== undefined && line.x0 > top + 0.5 * line.size && lastItem && nextInSequence(lastItem.marker, marker.marker)) {
        listStack[listStack.length - 1] = line.x0; // "3." after "2." is the same list, however indented
      } else if (top === undefined || line.x0 > top + 0.5 * line.size) listStack.push(line.x0);
      push({ kind: 'list-item', marker: marker.marker, depth: listStack.length - 1, lines: [line] });
      return;
    }
    if (prevBlock && prev && close && (prevBlock.kind === 'paragraph' || prevBlock.kind === 'list-item')) {
      const sameSize = Math.abs(line.size - prevBlock.lines[0]!.size) <= 1;
      const early = brokeEarly(prev, line);
      const mid = (prev.flowLeft + prev.flowRight) / 2;
      const centred = (l: FlowLine) => Math.abs((l.x0 + l.x1) / 2 - mid) < l.size && l.x0 - l.flowLeft > 2 * l.size;
      const stoppedShort =
        early &&
        (SENTENCE_END.test(prev.text.trim()) ||
          prev.x1 - prev.flowLeft < 0.7 * flowWidth ||
          (prevBlock.kind === 'paragraph' && centred(prev)));
      let continues = sameSize && !stoppedShort;
      if (continues && prevBlock.kind === 'paragraph') {
        // A first-line indent starts a new paragraph; centred text (shifted on both sides) does not.
        const centred = Math.abs((line.x0 + line.x1) / 2 - (prev.x0 + prev.x1) / 2) < line.size;
        if (line.x0 > prev.x0 + 0.8 * line.size && !centred) continues = false;
      }
      if (continues && prevBlock.kind === 'list-item') {
        const markerX = prevBlock.lines[0]!.x0;
        // Left of the marker ends the item, unless the line above ran full width mid-sentence
        // (CJK items indent only their first line).
        const runsOn = !endsShort(prev, 2) && !FULL_STOP.test(prev.text.trim());
        if (line.x0 < markerX - 0.3 * line.size && !runsOn) continues = false;
      }
      if (continues) {
        prevBlock.lines.push(line);
        return;
      }
    }
    if (!(prevBlock?.kind === 'list-item' && close && line.x0 > (listStack[0] ?? Infinity))) listStack.length = 0;
    push({ kind: 'paragraph', lines: [line] });
  };

  for (let i = 0; i < rows.length;) {
    const table = tableAt(rows, i, flowWidth, vocab);
    if (table) {
      push({ kind: 'table', cells: table.cells, lines: rows.slice(table.start, table.end).flat() });
      listStack.length = 0;
      i = table.end;
      continue;
    }
    for (const line of rows[i]!) addLine(line);
    i++;
  }
  return demoteRunInHeadings(out);
}

/**
 * A bold line at body size that runs to the right edge and flows straight into ordinary text is
 * a bold lead-in ("Core Tip: ..."), not a heading; long "headings" are paragraphs set large.
 */
function demoteRunInHeadings(blocks: RawBlock[]): RawBlock[] {
  const out: RawBlock[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (b.kind === 'heading') {
      const last = b.lines[b.lines.length - 1]!;
      const next = blocks[i + 1];
      const textLength = b.lines.reduce((n, l) => n + l.text.length, 0);
      const first = next?.lines[0];
      const runsOn =
        b.style.kind === 'bold' &&
        b.lines.length === 1 &&
        (last.boldShare < 0.98 || /:\s*\S/.test(last.text)) &&
        next?.kind === 'paragraph' &&
        first !== undefined &&
        first.baseline - last.baseline <= 1.7 * last.size &&
        !endsShort(last, 3) &&
        !SENTENCE_END.test(last.text.trim());
      if (runsOn && next) {
        out.push({ kind: 'paragraph', lines: [...b.lines, ...next.lines] });
        i++;
        continue;
      }
      if (textLength > 200) {
        out.push({ kind: 'paragraph', lines: b.lines });
        continue;
      }
    }
    out.push(b);
  }
  return out;
}
