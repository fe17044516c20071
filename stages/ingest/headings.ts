// Headings from typography. The body font size is the size that sets the most characters in the
// document; text clearly larger than that is a heading, ranked by size (largest = level 1), and a
// line set wholly in bold at body size is a heading one level below the smallest larger size.
import type { TextLine } from './types.ts';

/** A size this much larger than the body size reads as a heading. */
export const HEADING_SIZE_RATIO = 1.12;
/** Deepest Markdown heading level we emit. */
export const MAX_LEVEL = 4;

/** The most common font size by character count, rounded to half points. */
export function bodyFontSize(lines: Iterable<TextLine>): number {
  const count = new Map<number, number>();
  for (const l of lines) {
    for (const s of l.spans) {
      const size = Math.round(s.size * 2) / 2;
      const n = s.text.replace(/\s/g, '').length;
      count.set(size, (count.get(size) ?? 0) + n);
    }
  }
  let best = 0,
    bestN = -1;
  for (const [size, n] of count)
    if (n > bestN) {
      best = size;
      bestN = n;
    }
  return best;
}

export type HeadingStyle = { kind: 'large' | 'bold'; size: number };

const HAS_WORD = /[\p{L}]{2,}|\p{Script=Han}/u;

/** Whether a line looks like heading text by typography alone (grouping decides the rest). */
export function headingStyle(line: TextLine, bodySize: number): HeadingStyle | null {
  if (!HAS_WORD.test(line.text)) return null;
  if (line.size >= bodySize * HEADING_SIZE_RATIO) return { kind: 'large', size: line.size };
  if (line.boldShare >= 0.9 && line.size >= bodySize * 0.95) return { kind: 'bold', size: line.size };
  return null;
}

/**
 * Levels for the sizes used by large headings: sizes within 0.6 pt are one level, the largest is
 * level 1; a document with more distinct sizes than levels folds the smallest into the deepest.
 */
export function headingLevels(sizes: number[]): { levelOf: (size: number) => number; boldLevel: number } {
  const distinct: number[] = [];
  for (const s of [...sizes].sort((a, b) => b - a)) {
    if (!distinct.length || distinct[distinct.length - 1]! - s > 0.6) distinct.push(s);
  }
  const levelOf = (size: number) => {
    let i = distinct.findIndex((d) => size >= d - 0.6);
    if (i < 0) i = distinct.length - 1;
    return Math.min(i + 1, MAX_LEVEL - 1);
  };
  return { levelOf, boldLevel: Math.min(distinct.length + 1, MAX_LEVEL) };
}
