// Reads a page's structured text from mupdf into plain line records (text, bbox, font size,
// boldness). We walk characters rather than parse asJSON() because asJSON() reports one font per
// line, which hides inline bold and cannot tell a table cell gap from a word space.
import type * as mupdf from 'mupdf';
import type { PageText, Span, TextLine } from './types.ts';

/** A horizontal gap wider than this many font sizes ends a line fragment (table cell, column). */
const CELL_GAP_EM = 1.5;

interface Glyph {
  c: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  oy: number;
  size: number;
  bold: boolean;
}

const BULLETS = /^[•▪▫◦●○■□◆◇‣⁃∙·–\-*ï]$/u;
const BOLD_NAME = /bold|black|heavy|semibold|demi/i;

/** Characters that PDF producers use but Markdown readers should not see. */
function normalizeChar(c: string): string {
  switch (c) {
    case '\u00a0':
    case '\u2002':
    case '\u2003':
    case '\u2009':
    case '\u200a':
    case '\u3000':
      return c === '\u3000' ? '\u3000' : ' ';
    case '\u2010':
    case '\u2011':
      return '-';
    case '\u200b':
    case '\ufeff':
      return '';
    default:
      return c < ' ' ? ' ' : c;
  }
}

function buildLine(page: number, glyphs: Glyph[]): TextLine | null {
  let start = 0;
  let end = glyphs.length;
  while (start < end && glyphs[start]!.c.trim() === '') start++;
  while (end > start && glyphs[end - 1]!.c.trim() === '') end--;
  if (start >= end) return null;
  const gs = glyphs.slice(start, end);
  const sizeCount = new Map<number, number>();
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  let chars = 0,
    bold = 0;
  for (const g of gs) {
    if (g.c.trim() === '') continue;
    chars++;
    if (g.bold) bold++;
    const s = Math.round(g.size * 2) / 2;
    sizeCount.set(s, (sizeCount.get(s) ?? 0) + 1);
    x0 = Math.min(x0, g.x0);
    x1 = Math.max(x1, g.x1);
    y0 = Math.min(y0, g.y0);
    y1 = Math.max(y1, g.y1);
  }
  let size = 0,
    best = -1;
  for (const [s, n] of sizeCount)
    if (n > best || (n === best && s > size)) {
      size = s;
      best = n;
    }
  const main = gs.find((g) => Math.round(g.size * 2) / 2 === size && g.c.trim() !== '') ?? gs[0]!;
  const spans: Span[] = [];
  for (const g of gs) {
    const last = spans[spans.length - 1];
    if (last && last.bold === g.bold && Math.abs(last.size - g.size) < 0.6) {
      last.text += g.c;
      last.x1 = Math.max(last.x1, g.x1);
    } else spans.push({ text: g.c, x0: g.x0, x1: g.x1, size: g.size, bold: g.bold });
  }
  const text = gs
    .map((g) => g.c)
    .join('')
    .replace(/[ \t]+/g, ' ');
  return { page, x0, y0, x1, y1, baseline: main.oy, text, size, boldShare: chars ? bold / chars : 0, chars, spans };
}

/** Splits a mupdf line at wide gaps so that separate cells or columns become separate lines. */
function splitAtGaps(page: number, glyphs: Glyph[]): TextLine[] {
  const out: TextLine[] = [];
  let cur: Glyph[] = [];
  let lastInk: Glyph | null = null;
  for (const g of glyphs) {
    const ink = g.c.trim() !== '';
    // A bullet set apart from its text by a tab stays with it.
    const bulletOnly =
      cur.length > 0 &&
      cur.length <= 3 &&
      BULLETS.test(
        cur
          .map((c) => c.c)
          .join('')
          .trim(),
      );
    if (ink && lastInk && !bulletOnly && g.x0 - lastInk.x1 > CELL_GAP_EM * Math.max(g.size, lastInk.size)) {
      const line = buildLine(page, cur);
      if (line) out.push(line);
      cur = [];
    }
    cur.push(g);
    if (ink) lastInk = g;
  }
  const line = buildLine(page, cur);
  if (line) out.push(line);
  return out;
}

/** Structured text of one page: horizontal lines only (rotated margin notes are dropped). */
export function readPageText(page: mupdf.Page, index: number): PageText {
  const [bx0, by0, bx1, by1] = page.getBounds();
  const stext = page.toStructuredText('preserve-whitespace');
  const lines: TextLine[] = [];
  const fontInfo = new Map<unknown, boolean>();
  let glyphs: Glyph[] = [];
  let horizontal = true;
  try {
    stext.walk({
      beginLine(_bbox, wmode, dir) {
        glyphs = [];
        horizontal = wmode === 0 && Math.abs(dir[1]) < 0.05 && dir[0] > 0;
      },
      onChar(c, origin, font, size, quad) {
        if (!horizontal) return;
        const key = (font as unknown as { pointer: unknown }).pointer;
        let bold = fontInfo.get(key);
        if (bold === undefined) {
          bold = font.isBold() || BOLD_NAME.test(font.getName());
          fontInfo.set(key, bold);
        }
        const ch = normalizeChar(c);
        if (!ch) return;
        glyphs.push({
          c: ch,
          x0: Math.min(quad[0], quad[4]) - bx0,
          x1: Math.max(quad[2], quad[6]) - bx0,
          y0: Math.min(quad[1], quad[3]) - by0,
          y1: Math.max(quad[5], quad[7]) - by0,
          oy: origin[1] - by0,
          size,
          bold,
        });
      },
      endLine() {
        if (horizontal && glyphs.length) lines.push(...splitAtGaps(index, glyphs));
        glyphs = [];
      },
    });
  } finally {
    stext.destroy();
  }
  return { index, width: bx1 - bx0, height: by1 - by0, lines, images: 0 };
}

/**
 * Image blocks on a page. Asked only for pages with (almost) no text, since keeping images in
 * structured text costs time on every page.
 */
export function countImages(page: mupdf.Page): number {
  const stext = page.toStructuredText('preserve-images');
  let images = 0;
  try {
    stext.walk({ onImageBlock: () => void images++ });
  } finally {
    stext.destroy();
  }
  return images;
}
