/**
 * A FigureSpec as a Vega-Lite spec (`<figure>.vl.json` beside its SVG and PNG) that Jupyter,
 * Observable and the Vega editor render natively, so a reader can explore the figure. It is
 * made from the same FigureSpec the SVG is drawn from: the same title and caption, and the rows
 * of every mark inline (`data.values`, each row tagged with its `_panel` and `_mark`).
 *
 * Layout: one view per panel (several panels, such as an inset, are concatenated vertically);
 * Plot's fx/fy facets become a facet of columns/rows. A mark Plot draws in every facet (a mark
 * without fx) has its rows repeated into each facet by a flatten transform, not in the data.
 */
import type { FigureSpec, PanelSpec } from './figure-spec.ts';
import { FONT_FAMILY, FONT_SIZE } from './render-figure.ts';
import { LAYERS, markLayer, type Json, type Obj, type PanelScales } from './vega-lite-marks.ts';

export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

type Facet = { channel: 'fx' | 'fy'; as: '_fx' | '_fy'; domain: Json[]; header: Obj };

/** The panel's facets: the domain from the plot options, else the sorted values of the marks' facet column. */
function facets(panel: PanelSpec): Facet[] {
  return (['fx', 'fy'] as const).flatMap((channel) => {
    const fields = new Set(panel.marks.flatMap((m) => (typeof m.options[channel] === 'string' ? [m.options[channel] as string] : [])));
    if (!fields.size) return [];
    const opts = (panel.plot[channel] ?? {}) as Record<string, unknown>;
    const seen = panel.marks.flatMap((m) =>
      typeof m.options[channel] === 'string' ? m.data.map((r) => r[m.options[channel] as string]) : [],
    );
    const domain = (opts.domain as Json[] | undefined) ?? ([...new Set(seen)].sort() as Json[]);
    const header: Obj = { title: typeof opts.label === 'string' ? opts.label : null };
    if (typeof opts.tickRotate === 'number') header.labelAngle = opts.tickRotate;
    return [{ channel, as: channel === 'fx' ? '_fx' : '_fy', domain, header }];
  });
}

/** Each row's facet values as a list (its own value, or every facet for a mark drawn in all), then one row per value. */
function facetTransforms(panel: PanelSpec, index: number, fs: Facet[]): Obj[] {
  return fs.flatMap((f) => {
    const cases = panel.marks.flatMap((m, i) => {
      if (!LAYERS[m.type] || !m.data.length) return [];
      const field = m.options[f.channel];
      const list = typeof field === 'string' ? `[datum[${JSON.stringify(field)}]]` : JSON.stringify(f.domain);
      return [`datum._panel === ${index} && datum._mark === ${i} ? ${list} : `];
    });
    return [{ calculate: `${cases.join('')}[]`, as: f.as } as Obj, { flatten: [f.as] } as Obj];
  });
}

function scales(panel: PanelSpec, fig: FigureSpec): PanelScales {
  const colour = (panel.plot.color ?? {}) as { domain?: Json[]; range?: Json[] };
  return {
    x: { plot: (panel.plot.x ?? {}) as Record<string, unknown> },
    y: { plot: (panel.plot.y ?? {}) as Record<string, unknown> },
    color: {
      domain: colour.domain ?? fig.legend?.domain,
      range: colour.range ?? fig.legend?.range,
      legendTitle: fig.legend?.label ?? null,
    },
  };
}

function panelView(panel: PanelSpec, index: number, fig: FigureSpec): Obj {
  const fs = facets(panel);
  const layers = panel.marks.flatMap((mark, i) => {
    const layer = markLayer({ mark, index: { panel: index, mark: i }, scales: scales(panel, fig), facetFields: fs.map((f) => f.as) });
    return layer && mark.data.length ? [layer] : [];
  });
  const margin = (k: string, d: number) => (typeof panel.plot[k] === 'number' ? (panel.plot[k] as number) : d);
  const columns = fs.find((f) => f.channel === 'fx')?.domain.length ?? 1,
    rows = fs.find((f) => f.channel === 'fy')?.domain.length ?? 1;
  const width = Math.max(40, Math.floor((panel.width - margin('marginLeft', 40) - margin('marginRight', 20)) / columns) - 10);
  const height = Math.max(40, Math.floor((panel.height - margin('marginTop', 20) - margin('marginBottom', 30)) / rows) - 10);
  if (!fs.length) return { width, height, layer: layers };
  const facet: Obj = {};
  for (const f of fs) facet[f.channel === 'fx' ? 'column' : 'row'] = { field: f.as, type: 'nominal', sort: f.domain, header: f.header };
  return { transform: facetTransforms(panel, index, fs), facet, spec: { width, height, layer: layers } };
}

/** The figure's rows, one per (panel, mark, row) of every drawn mark, tagged with where they are drawn. */
export function figureValues(fig: FigureSpec): Obj[] {
  return fig.panels.flatMap((p, panel) =>
    p.marks.flatMap((m, mark) => (LAYERS[m.type] ? m.data.map((r) => ({ ...(r as Obj), _panel: panel, _mark: mark })) : [])),
  );
}

export function vegaLiteSpec(fig: FigureSpec): Obj {
  const views = fig.panels.map((p, i) => panelView(p, i, fig));
  const body: Obj = views.length === 1 ? views[0]! : { vconcat: views, resolve: { scale: { x: 'independent', y: 'independent' } } };
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: { text: fig.title, anchor: 'start' },
    description: fig.caption,
    data: { values: figureValues(fig) },
    ...body,
    config: {
      font: FONT_FAMILY,
      view: { stroke: '#999' },
      // No label limit: model names are long and a cut name is a different model.
      axis: { labelFontSize: FONT_SIZE, titleFontSize: FONT_SIZE, labelLimit: 0 },
      header: { labelFontSize: FONT_SIZE, labelLimit: 0 },
      legend: { labelFontSize: FONT_SIZE, titleFontSize: FONT_SIZE, labelLimit: 0 },
    },
  };
}

/** The spec as the file's text: two-space JSON, one line per data row, so a diff shows which rows moved. */
export function vegaLiteJson(fig: FigureSpec): string {
  const spec = vegaLiteSpec(fig);
  const rows = (spec.data as { values: Obj[] }).values;
  const text = JSON.stringify({ ...spec, data: { values: '\u0000ROWS\u0000' } }, null, 2);
  const inline = rows.length ? `[\n${rows.map((r) => `      ${JSON.stringify(r)}`).join(',\n')}\n    ]` : '[]';
  return text.replace('"\\u0000ROWS\\u0000"', () => inline) + '\n';
}
