/**
 * One Observable Plot mark of a FigureSpec as one Vega-Lite layer, one function per mark type
 * (as Plot has one module per mark). A layer reads the figure's shared inline rows filtered to
 * its own (`_panel`, `_mark`), so the spec carries each mark's rows exactly as the SVG drew them.
 *
 * Plot reads a string option as a column when the rows have that column and as a constant
 * (a colour, say) otherwise; numbers are constants. Plot stacks rectY and barY; the layers
 * stack likewise with Vega-Lite's stack transform, in the rows' order or Plot's `order` list.
 */
import type { MarkSpec, MarkType } from './figure-spec.ts';

export type Json = string | number | boolean | null | Json[] | { [k: string]: Json };
export type Obj = { [k: string]: Json };

/** Scale facts a layer's encodings need: per position channel, the field type, domain, title and axis. */
export interface PanelScales {
  x: ChannelScale;
  y: ChannelScale;
  color: { domain?: Json[]; range?: Json[]; legendTitle: string | null };
}

export interface ChannelScale {
  /** Plot's scale options for the channel (domain, label, grid, tickRotate, axis). */
  plot: Record<string, unknown>;
}

export interface LayerContext {
  mark: MarkSpec;
  index: { panel: number; mark: number };
  scales: PanelScales;
  /** The facet fields the layer's rows are split by (fx, fy), for stacking within a facet. */
  facetFields: string[];
}

const isField = (m: MarkSpec, v: unknown): v is string => typeof v === 'string' && m.data.some((r) => v in r);

/** A position channel: a column, a constant (a number Plot draws at that value), or absent. */
function position(c: LayerContext, channel: 'x' | 'y', value: unknown, withAxis = true): Obj | undefined {
  const s = c.scales[channel].plot;
  if (value === undefined) return undefined;
  const domain = s.domain as Json[] | undefined;
  const discrete = Array.isArray(domain)
    ? typeof domain[0] === 'string'
    : isField(c.mark, value) && typeof c.mark.data[0]?.[value] === 'string';
  const type = discrete ? 'nominal' : 'quantitative';
  const enc: Obj = isField(c.mark, value) ? { field: value, type } : { datum: value as Json, type };
  if (domain) enc.scale = { domain };
  if (discrete && domain) enc.sort = domain;
  else if (discrete) enc.sort = null;
  if (withAxis) {
    enc.title = s.label === undefined ? (isField(c.mark, value) ? value : null) : (s.label as Json);
    enc.axis =
      s.axis === null ? null : { grid: s.grid === true, ...(typeof s.tickRotate === 'number' ? { labelAngle: s.tickRotate } : {}) };
  }
  return enc;
}

/** The second end of a range (x2, y2): Vega-Lite shares the first channel's scale and axis. */
const end = (m: MarkSpec, value: unknown): Obj | undefined =>
  value === undefined ? undefined : isField(m, value) ? { field: value } : { datum: value as Json };

/** A colour option: a column (one colour scale and legend for the figure) or a constant. */
function colour(c: LayerContext, value: unknown): { encoding?: Obj; constant?: string } {
  if (value === undefined) return {};
  if (!isField(c.mark, value)) return { constant: String(value) };
  const { domain, range, legendTitle } = c.scales.color;
  const scale: Obj = {};
  if (domain) scale.domain = domain;
  if (range) scale.range = range;
  return { encoding: { field: value, type: 'nominal', scale, legend: { title: legendTitle } } };
}

const compact = (o: Record<string, Json | undefined>): Obj =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Obj;

const ANCHOR: Record<string, string> = { start: 'left', middle: 'center', end: 'right' };

function dot(c: LayerContext): Obj {
  const o = c.mark.options;
  const fill = colour(c, o.fill),
    stroke = colour(c, o.stroke);
  const hollow = stroke.encoding !== undefined;
  const r = typeof o.r === 'number' ? o.r : 3;
  return {
    mark: compact({
      type: 'point',
      shape: o.symbol === 'square' ? 'square' : 'circle',
      size: Math.round(Math.PI * r * r),
      filled: !hollow,
      opacity: 1,
      fill: hollow ? fill.constant : undefined,
      color: hollow ? stroke.constant : fill.constant,
    }),
    encoding: compact({ x: position(c, 'x', o.x), y: position(c, 'y', o.y), color: hollow ? stroke.encoding : fill.encoding }),
  };
}

function line(c: LayerContext): Obj {
  const o = c.mark.options;
  const stroke = colour(c, o.stroke);
  return {
    mark: compact({ type: 'line', strokeWidth: o.strokeWidth as Json, color: stroke.constant }),
    encoding: compact({
      x: position(c, 'x', o.x),
      y: position(c, 'y', o.y),
      color: stroke.encoding,
      detail: isField(c.mark, o.z) ? { field: o.z, type: 'nominal' } : undefined,
    }),
  };
}

function text(c: LayerContext): Obj {
  const o = c.mark.options;
  return {
    mark: compact({
      type: 'text',
      dx: o.dx as Json,
      dy: o.dy as Json,
      fontSize: o.fontSize as Json,
      align: ANCHOR[String(o.textAnchor ?? 'middle')] ?? 'center',
    }),
    encoding: compact({ x: position(c, 'x', o.x), y: position(c, 'y', o.y), text: { field: String(o.text), type: 'nominal' } }),
  };
}

/**
 * Plot's implicit stackY: rows with the same x (and facet) stack from 0 in the rows' order, or in
 * the order of the `order` list of the fill's values.
 */
function stackY(c: LayerContext, groupBy: string): { transform: Obj[]; y: Obj; y2: Obj } {
  const o = c.mark.options;
  const fill = String(o.fill);
  const transform: Obj[] = Array.isArray(o.order)
    ? [{ calculate: `indexof(${JSON.stringify(o.order)}, datum[${JSON.stringify(fill)}])`, as: '_order' }]
    : // An explicit (empty) groupby: vega-lite adds the facet's fields to it when the facet moves below the window.
      [{ window: [{ op: 'row_number', as: '_order' }], groupby: [] }];
  transform.push({
    stack: String(o.y),
    groupby: [groupBy, ...c.facetFields],
    sort: [{ field: '_order', order: 'ascending' }],
    as: ['_y1', '_y2'],
  });
  const y = position(c, 'y', o.y)!;
  return { transform, y: { ...y, field: '_y1' }, y2: { field: '_y2' } };
}

function rectY(c: LayerContext): Obj {
  const o = c.mark.options;
  const { transform, y, y2 } = stackY(c, String(o.x1));
  const fill = colour(c, o.fill);
  return {
    transform,
    mark: compact({ type: 'rect', color: fill.constant }),
    encoding: compact({ x: position(c, 'x', o.x1), x2: end(c.mark, o.x2), y, y2, color: fill.encoding }),
  };
}

function barY(c: LayerContext): Obj {
  const o = c.mark.options;
  const { transform, y, y2 } = stackY(c, String(o.x));
  const fill = colour(c, o.fill);
  return {
    transform,
    mark: compact({ type: 'bar', color: fill.constant }),
    encoding: compact({ x: position(c, 'x', o.x), y, y2, color: fill.encoding }),
  };
}

function rule(c: LayerContext, across: 'x' | 'y'): Obj {
  const o = c.mark.options;
  const stroke = colour(c, o.stroke);
  const along = across === 'y' ? 'x' : 'y';
  return {
    mark: compact({ type: 'rule', strokeWidth: o.strokeWidth as Json, strokeOpacity: o.strokeOpacity as Json, color: stroke.constant }),
    encoding: compact({
      [across]: position(c, across, o[across]),
      [along]: position(c, along, o[`${along}1`]),
      [`${along}2`]: end(c.mark, o[`${along}2`]),
      color: stroke.encoding,
    }),
  };
}

/** Each mark type as a layer; `frame` has none (the view's border draws it). */
export const LAYERS: Record<MarkType, ((c: LayerContext) => Obj) | null> = {
  dot,
  line,
  text,
  rectY,
  barY,
  ruleY: (c) => rule(c, 'y'),
  ruleX: (c) => rule(c, 'x'),
  frame: null,
};

/** The mark's layer with the filter to its own rows first. */
export function markLayer(c: LayerContext): Obj | null {
  const make = LAYERS[c.mark.type];
  if (!make) return null;
  const layer = make(c);
  const own: Obj = { filter: `datum._panel === ${c.index.panel} && datum._mark === ${c.index.mark}` };
  return { ...layer, transform: [own, ...((layer.transform as Obj[] | undefined) ?? [])] };
}
