// Running headers, footers and page numbers: text in the top or bottom margin band that repeats
// across pages (digits ignored, so "Page 3" and "Page 4" count as the same line), plus bare page
// numbers in those bands. They would otherwise be spliced into the middle of sentences that run
// across a page break.
import type { PageText, TextLine } from './types.ts';

/** Share of the page height, from the top and from the bottom, where running heads live. */
export const MARGIN_BAND = 0.1;

const PAGE_NUMBER = /^(?:page\s*)?[-–—]?\s*(?:\d{1,4}|[ivxlcdm]{1,6})\s*[-–—]?$|^第\s*\d+\s*页$|^\d{1,4}\s*(?:\/|of)\s*\d{1,4}$/i;

export function isPageNumber(text: string): boolean {
  return PAGE_NUMBER.test(text.trim());
}

function inMarginBand(line: TextLine, page: PageText): 'top' | 'bottom' | null {
  if (line.y1 <= page.height * MARGIN_BAND) return 'top';
  if (line.y0 >= page.height * (1 - MARGIN_BAND)) return 'bottom';
  return null;
}

function signature(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

/**
 * Minimum number of pages a margin line must appear on to count as running: a fifth of the
 * document, and never fewer than two pages (a one-page document keeps its margins).
 */
export function repeatThreshold(pageCount: number): number {
  return Math.max(2, Math.ceil(pageCount * 0.2));
}

/** Returns the pages without running heads/footers and page numbers, and how many lines went. */
export function removeRunningHeads(pages: PageText[]): { pages: PageText[]; removed: number } {
  const seen = new Map<string, Set<number>>();
  for (const page of pages) {
    for (const line of page.lines) {
      const band = inMarginBand(line, page);
      if (!band) continue;
      const key = band + '|' + signature(line.text);
      let set = seen.get(key);
      if (!set) seen.set(key, (set = new Set()));
      set.add(page.index);
    }
  }
  const threshold = repeatThreshold(pages.length);
  let removed = 0;
  const out = pages.map((page) => {
    const lines = page.lines.filter((line) => {
      const band = inMarginBand(line, page);
      if (!band) return true;
      const running = (seen.get(band + '|' + signature(line.text))?.size ?? 0) >= threshold;
      if (running || isPageNumber(line.text)) {
        removed++;
        return false;
      }
      return true;
    });
    return { ...page, lines };
  });
  return { pages: out, removed };
}
