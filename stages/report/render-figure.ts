/**
 * FigureSpec → SVG (Observable Plot with linkedom as the document) → PNG (resvg). Output is a
 * function of the spec alone: fixed class name, fixed fonts and sizes, explicit colours, no clip
 * paths (Plot numbers those with a process-wide counter), no timestamps.
 *
 * Fonts: no npm package installed here ships a font file, so the PNG is rendered with
 * `loadSystemFonts: false` and only the font files the caller passes (param pngFontFiles). With
 * none, resvg draws every shape but no text (it has no font to shape glyphs with) — identical on
 * every machine; the SVG, which names the font list, is the figure of record.
 */
import * as Plot from '@observablehq/plot';
import { Resvg } from '@resvg/resvg-js';
import { parseHTML } from 'linkedom';
import type { FigureSpec, MarkSpec } from './figure-spec.ts';

export const FONT_FAMILY = 'DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif';
export const FONT_SIZE = 10;
const TITLE_LINE = 17;
const TITLE_CHAR_WIDTH = 7.6;
const LEGEND_ROW = 18;
/** Legend layout uses a fixed advance per character: deterministic without measuring text. */
const CHAR_WIDTH = 6.2;

export const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function mark(m: MarkSpec): Plot.Markish {
  const f = {
    dot: Plot.dot,
    line: Plot.line,
    text: Plot.text,
    rectY: Plot.rectY,
    barY: Plot.barY,
    ruleY: Plot.ruleY,
    ruleX: Plot.ruleX,
  } as const;
  if (m.type === 'frame') return Plot.frame(m.options as Plot.FrameOptions);
  return (f[m.type] as (d: unknown, o: unknown) => Plot.Markish)(m.data, m.options);
}

/** One panel as an SVG string, placed at (x, y) inside the figure. */
export function renderPanel(panel: FigureSpec['panels'][number], offsetY: number): string {
  const { document } = parseHTML('<!DOCTYPE html><html><body></body></html>');
  const el = Plot.plot({
    ...(panel.plot as Plot.PlotOptions),
    width: panel.width,
    height: panel.height,
    marks: panel.marks.map(mark),
    document: document as unknown as Document,
    className: 'cdp-plot',
  }) as unknown as Element;
  if (el.tagName.toLowerCase() !== 'svg')
    throw new Error(
      `a figure panel rendered as <${el.tagName}>, not <svg>: drop Plot's title, caption and legend options (the figure draws its own)`,
    );
  for (const s of Array.from(el.querySelectorAll('style'))) s.remove();
  el.removeAttribute('style');
  el.removeAttribute('class');
  el.setAttribute('font-family', FONT_FAMILY);
  el.setAttribute('font-size', String(FONT_SIZE));
  el.setAttribute('x', String(panel.x));
  el.setAttribute('y', String(panel.y + offsetY));
  const box = panel.boxed
    ? `<rect x="${panel.x}" y="${panel.y + offsetY}" width="${panel.width}" height="${panel.height}" fill="white" stroke="#666"/>`
    : '';
  return box + el.outerHTML;
}

function legendRows(legend: NonNullable<FigureSpec['legend']>, width: number): { x: number; row: number; label: string; colour: string }[] {
  const items: { x: number; row: number; label: string; colour: string }[] = [];
  const start = 10 + (legend.label.length + 2) * CHAR_WIDTH;
  let x = start,
    row = 0;
  legend.domain.forEach((label, i) => {
    const w = 16 + label.length * CHAR_WIDTH + 14;
    if (x + w > width - 10 && x > start) {
      row++;
      x = start;
    }
    items.push({ x, row, label, colour: legend.range[i]! });
    x += w;
  });
  return items;
}

/** Greedy word wrap at a fixed advance per character (no text measuring, so no font dependence). */
export function wrapTitle(title: string, width: number): string[] {
  const max = Math.max(10, Math.floor((width - 20) / TITLE_CHAR_WIDTH));
  const lines: string[] = [];
  let line = '';
  for (const word of title.split(' ')) {
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

export function renderSvg(spec: FigureSpec): string {
  const titleLines = wrapTitle(spec.title, spec.width);
  const TITLE_HEIGHT = titleLines.length * TITLE_LINE + 14;
  const items = spec.legend ? legendRows(spec.legend, spec.width) : [];
  const legendHeight = spec.legend ? (Math.max(0, ...items.map((i) => i.row)) + 1) * LEGEND_ROW + 8 : 0;
  const height = TITLE_HEIGHT + spec.height + legendHeight;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${spec.width}" height="${height}" viewBox="0 0 ${spec.width} ${height}" font-family="${FONT_FAMILY}" font-size="${FONT_SIZE}">`,
    `<title>${escapeXml(spec.title)}</title>`,
    `<desc>${escapeXml(spec.caption)}</desc>`,
    `<rect width="${spec.width}" height="${height}" fill="white"/>`,
    ...titleLines.map(
      (l, i) => `<text x="10" y="${20 + i * TITLE_LINE}" font-size="13" font-weight="bold" fill="black">${escapeXml(l)}</text>`,
    ),
    ...spec.panels.map((p) => renderPanel(p, TITLE_HEIGHT)),
  ];
  if (spec.legend) {
    const top = TITLE_HEIGHT + spec.height + 4;
    parts.push(
      `<g aria-label="legend"><text x="10" y="${top + 11}" font-weight="bold" fill="black">${escapeXml(spec.legend.label)}:</text>`,
    );
    for (const it of items) {
      const y = top + it.row * LEGEND_ROW;
      parts.push(
        `<rect x="${it.x.toFixed(1)}" y="${y + 2}" width="10" height="10" fill="${it.colour}"/><text x="${(it.x + 14).toFixed(1)}" y="${y + 11}" fill="black">${escapeXml(it.label)}</text>`,
      );
    }
    parts.push('</g>');
  }
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}

export function renderPng(svg: string, fontFiles: readonly string[] = []): Uint8Array {
  const r = new Resvg(svg, {
    background: 'white',
    fitTo: { mode: 'original' },
    font: { loadSystemFonts: false, fontFiles: [...fontFiles], defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
  });
  return r.render().asPng();
}
