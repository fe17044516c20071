/** A run of characters in one font on one line. */
export interface Span {
  text: string;
  x0: number;
  x1: number;
  size: number;
  bold: boolean;
}

/**
 * One line of text as laid out on the page, in PDF points with y growing downwards. A mupdf line
 * is split into several of these where a horizontal gap is wider than a table-cell gap, so that
 * table cells and column fragments become separate lines.
 */
export interface TextLine {
  page: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** y of the text baseline; lines on the same row share it. */
  baseline: number;
  text: string;
  /** Dominant font size (by character count). */
  size: number;
  /** Share of non-space characters set in a bold font, 0..1. */
  boldShare: number;
  /** Non-space character count. */
  chars: number;
  spans: Span[];
}

export interface PageText {
  index: number;
  width: number;
  height: number;
  lines: TextLine[];
  /** Image blocks on the page (counted only for pages with almost no text): a scan needs OCR. */
  images: number;
}

/** Lines in reading order, each tagged with the flow (column run) it belongs to. */
export interface FlowLine extends TextLine {
  flow: number;
  /** Right edge of the flow the line is in, for "does the line end short" tests. */
  flowRight: number;
  flowLeft: number;
}

export type Block =
  | { kind: 'heading'; level: number; text: string; page: number }
  /**
   * small: set smaller than the body text (footnotes, notes under tables). roomChars: how many
   * characters would still have fitted after the last line; a next word that would have fitted
   * means the text ended there and does not go on in the next column or page.
   */
  | { kind: 'paragraph'; text: string; page: number; flow: number; small?: boolean; roomChars?: number }
  | { kind: 'list-item'; marker: string; depth: number; text: string; page: number; flow: number; roomChars?: number }
  | { kind: 'table'; rows: string[][]; page: number };

export type PageMethod = 'text' | 'ocr' | 'empty';

export type IngestResult =
  | {
      ok: true;
      markdown: string;
      pages: number;
      pageMethods: PageMethod[];
      warnings: string[];
      title: string;
    }
  | { ok: false; error: string };

export interface IngestOptions {
  /** Name of the document (file name), used in errors, warnings and as a fallback title. */
  name: string;
  /** Language hint; picks the OCR language. Without it OCR uses eng+chi_sim. */
  language?: 'en' | 'zh';
  /** Render resolution for OCR (default 300 dpi). */
  ocrDpi?: number;
}
