// Builds TextLine records for the unit tests of the layout steps (no PDF needed).
import type { TextLine } from '../types.ts';

export function line(
  text: string,
  x0: number,
  y: number,
  opts: { size?: number; width?: number; bold?: boolean; page?: number } = {},
): TextLine {
  const size = opts.size ?? 10;
  const width = opts.width ?? text.length * size * 0.5;
  return {
    page: opts.page ?? 0,
    x0,
    x1: x0 + width,
    y0: y - size * 0.8,
    y1: y + size * 0.2,
    baseline: y,
    text,
    size,
    boldShare: opts.bold ? 1 : 0,
    chars: text.replace(/\s/g, '').length,
    spans: [{ text, x0, x1: x0 + width, size, bold: !!opts.bold }],
  };
}
