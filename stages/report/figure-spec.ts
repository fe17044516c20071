/**
 * A figure as plain data: panels (each Observable Plot options whose marks are listed as
 * {type, data, options}, so tests read marks, scales and counts without rendering), the title
 * and a legend. render-figure.ts turns it into SVG/PNG.
 */

/** The Plot mark functions a figure may use. */
export type MarkType = 'dot' | 'line' | 'text' | 'rectY' | 'barY' | 'ruleY' | 'ruleX' | 'frame';

export interface MarkSpec {
  type: MarkType;
  data: Record<string, unknown>[];
  options: Record<string, unknown>;
}

export interface PanelSpec {
  /** Position and size inside the figure body (below the title). */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Plot options without marks, document, width or height (scales, margins, facets). */
  plot: Record<string, unknown>;
  marks: MarkSpec[];
  /** Draw a white box with a border behind the panel (an inset). */
  boxed?: boolean;
}

export interface FigureSpec {
  /** File stem under figures/. */
  name: string;
  title: string;
  caption: string;
  width: number;
  /** Height of the body (panels); the title and legend are added around it. */
  height: number;
  panels: PanelSpec[];
  legend?: { label: string; domain: string[]; range: string[] };
  /** Why the figure has nothing to show (no file is written; the index says why); absent when it has content. */
  absent?: string;
}

/** Fixed categorical palette (Tableau 10): colours never depend on a library default. */
export const PALETTE = ['#4e79a7', '#f28e2c', '#e15759', '#76b7b2', '#59a14f', '#edc949', '#af7aa1', '#ff9da7', '#9c755f', '#bab0ab'];

/** Colours for a domain, cycling the palette. */
export const colours = (domain: readonly string[]) => domain.map((_, i) => PALETTE[i % PALETTE.length]!);
