// Markdown assembly: block text from joined lines, paragraphs that continue across a column or
// page break merged back together, and the final Markdown string.
import type { Block } from './types.ts';
import type { RawBlock } from './blocks.ts';
import { isCjk, joinLine, joinLines, type HyphenVocabulary } from './reflow.ts';
import { markdownItemPrefix, listMarker } from './lists.ts';
import { isPageNumber } from './running-heads.ts';

/** Text that ends a sentence; a block ending otherwise may continue in the next column. */
const FULL_STOP = /[.!?。！？:：]["”’)）\]]*$/u;
/** Floats (tables, figures, boxes) and their captions sit between the halves of a sentence. */
const FLOAT_CAPTION = /^(Table|Figure|Fig\.|Box|BOX|表|图)\s*\d/u;

/** Text blocks of one page from its positioned blocks; `levelOf` gives each heading its level. */
export function textBlocks(
  page: number,
  blocks: RawBlock[],
  levelOf: (b: Extract<RawBlock, { kind: 'heading' }>) => number,
  vocab: HyphenVocabulary,
  bodySize: number,
): Block[] {
  const out: Block[] = [];
  for (const b of blocks) {
    const flow = b.lines[0]?.flow ?? -1;
    const last = b.lines[b.lines.length - 1];
    const roomChars = last ? (last.flowRight - last.x1) / ((last.x1 - last.x0) / Math.max(1, last.text.trim().length)) : 0;
    const text = () =>
      joinLines(
        b.lines.map((l) => l.text),
        vocab,
      );
    if (b.kind === 'table') out.push({ kind: 'table', rows: b.cells, page });
    else if (b.kind === 'heading') out.push({ kind: 'heading', level: levelOf(b), text: text(), page });
    else if (b.kind === 'list-item') {
      const m = listMarker(text());
      out.push({ kind: 'list-item', marker: b.marker, depth: b.depth, text: m ? m.rest : text(), page, flow, roomChars });
    } else if (b.lines.length === 1 && isPageNumber(b.lines[0]!.text)) {
      continue; // a page number printed inside the text area
    } else out.push({ kind: 'paragraph', text: text(), page, flow, small: b.lines[0]!.size < 0.92 * bodySize, roomChars });
  }
  return out;
}

/**
 * Where a column or page ends mid-sentence, the next column's first paragraph continues it: the
 * previous block has no closing punctuation and the next one starts in lower case (or, in CJK
 * text, without a new-paragraph indent being possible to see, with a CJK character).
 */
export function mergeContinuations(blocks: Block[], vocab: HyphenVocabulary): Block[] {
  const out: Block[] = [];
  for (const b of blocks) {
    // A footnote set small at the foot of a column, or a table with its caption, can sit between
    // the two halves of a sentence.
    let k = out.length - 1;
    if (b.kind === 'paragraph' && !b.small) {
      while (k >= 0 && k >= out.length - 10 && isInterruption(out[k]!, out[k + 1])) k--;
    }
    const prev = out[k];
    if (
      b.kind === 'paragraph' &&
      prev &&
      (prev.kind === 'paragraph' || prev.kind === 'list-item') &&
      prev.flow !== b.flow &&
      wouldNotFit(b.text, prev.roomChars) &&
      !FULL_STOP.test(prev.text) &&
      startsMidSentence(b.text, prev.text)
    ) {
      prev.text = joinLine(prev.text, b.text, vocab);
      prev.flow = b.flow;
      prev.roomChars = b.roomChars;
      continue;
    }
    out.push(b);
  }
  return out;
}

/** Whether the first word of `text` would not have fitted in the room left after the line above. */
function wouldNotFit(text: string, roomChars: number | undefined): boolean {
  if (roomChars === undefined) return true;
  const first = text.trim().split(/\s/)[0] ?? '';
  const need = isCjk(first[0] ?? '') ? 1 : first.length + 1;
  return roomChars < need + 1;
}

function isInterruption(b: Block, next: Block | undefined): boolean {
  if (b.kind === 'table') return true;
  if (b.kind === 'paragraph') return !!b.small || FLOAT_CAPTION.test(b.text);
  // A caption, or a heading set over a table (its title row).
  return b.kind === 'heading' && (FLOAT_CAPTION.test(b.text) || next?.kind === 'table');
}

function startsMidSentence(text: string, before: string): boolean {
  const c = text[0] ?? '';
  if (/[\p{Ll}\d([–—]/u.test(c)) return true;
  const last = before[before.length - 1] ?? '';
  // After a comma, semicolon or open bracket the sentence goes on whatever the next word.
  if (/[,;([–—]/.test(last)) return true;
  return isCjk(c) && isCjk(last) && !/[\u3000-\u303f\uff00-\uffef]/.test(last);
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

export function tableMarkdown(rows: string[][]): string {
  const width = Math.max(...rows.map((r) => r.length));
  const pad = (r: string[]) => Array.from({ length: width }, (_, i) => escapeCell(r[i] ?? ''));
  const [head, ...rest] = rows;
  const lines = [`| ${pad(head!).join(' | ')} |`, `|${' --- |'.repeat(width)}`];
  for (const r of rest) lines.push(`| ${pad(r).join(' | ')} |`);
  return lines.join('\n');
}

/** Dot leaders of a table of contents ("Introduction.........1") carry no text; four or more dots become " … ". */
export function collapseLeaders(s: string): string {
  return s.replace(/ ?(?:\. ?){4,}/g, ' … ');
}

function escapeParagraph(s: string): string {
  return collapseLeaders(s).replace(/^([#>])/, '\\$1');
}

export function toMarkdown(blocks: Block[]): string {
  const parts: string[] = [];
  let prevKind = '';
  for (const b of blocks) {
    let md: string;
    if (b.kind === 'heading') md = `${'#'.repeat(b.level)} ${b.text}`;
    else if (b.kind === 'table') md = tableMarkdown(b.rows);
    else if (b.kind === 'list-item') md = '  '.repeat(b.depth) + markdownItemPrefix(b.marker) + b.text;
    else md = escapeParagraph(b.text);
    // Items of one list stay together; everything else is separated by a blank line.
    parts.push(prevKind === 'list-item' && b.kind === 'list-item' ? '\n' + md : (parts.length ? '\n\n' : '') + md);
    prevKind = b.kind;
  }
  return parts.join('') + '\n';
}
