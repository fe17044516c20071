/**
 * The figures' Vega-Lite specs: compiled by vega-lite (no warnings) and run by vega (the runtime
 * Jupyter and Observable render them with), each drawn item counted and placed; their data are
 * the rows the SVG was drawn from, their title and caption the SVG's.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { compile, type TopLevelSpec } from 'vega-lite';
import * as vega from 'vega';
import type { FigureSpec } from './figure-spec.ts';
import { deviationFigure, figure1c, figure4, figure5 } from './figures.ts';
import { renderSvg } from './render-figure.ts';
import { JUDGES, SUMMARY } from './testing/report-rows.ts';
import { figureFiles } from './figure-files.ts';
import { vegaLiteJson, vegaLiteSpec } from './vega-lite-spec.ts';

const REPORTS = new URL('../../reports/', import.meta.url).pathname;

/** vega-lite's compile with every warning collected (an error throws). */
function compileSpec(spec: unknown): { vega: vega.Spec; warnings: string[] } {
  const warnings: string[] = [];
  const logger = {
    level: () => logger,
    warn: (...a: unknown[]) => (warnings.push(a.map(String).join(' ')), logger),
    info: () => logger,
    debug: () => logger,
    error: (...a: unknown[]) => {
      throw new Error(a.map(String).join(' '));
    },
  };
  const out = compile(spec as TopLevelSpec, { logger: logger as never });
  return { vega: out.spec as vega.Spec, warnings };
}

type Item = { datum: Record<string, unknown>; x?: number; y?: number; y2?: number; height?: number };

/** The data marks' items by mark type, as vega lays them out (no renderer: the scenegraph only). */
async function scene(spec: unknown): Promise<Record<string, Item[]>> {
  const view = new vega.View(vega.parse(compileSpec(spec).vega), { renderer: 'none' });
  await view.runAsync();
  const out: Record<string, Item[]> = {};
  const walk = (node: { marktype?: string; role?: string; items?: unknown[] }) => {
    if (node.marktype && node.marktype !== 'group' && node.role === 'mark') (out[node.marktype] ??= []).push(...(node.items as Item[]));
    for (const child of node.items ?? []) walk(child as typeof node);
  };
  walk((view.scenegraph() as unknown as { root: never }).root);
  view.finalize();
  return out;
}

/** The spec's rows of one mark, without the tags that say where they are drawn. */
function rowsOf(spec: Record<string, unknown>, panel: number, mark: number): Record<string, unknown>[] {
  return (spec.data as { values: Record<string, unknown>[] }).values
    .filter((r) => r._panel === panel && r._mark === mark)
    .map(({ _panel, _mark, ...r }) => r);
}

/** The layer that draws a (panel, mark)'s rows: the one whose first transform filters to them. */
function layerOf(spec: Record<string, unknown>, panel: number, mark: number): { mark?: unknown } | undefined {
  const views = (spec.vconcat as Record<string, unknown>[] | undefined) ?? [spec];
  const layers = views.flatMap((v) => (v.layer ?? (v.spec as { layer?: unknown[] } | undefined)?.layer ?? []) as Record<string, unknown>[]);
  const own = `datum._panel === ${panel} && datum._mark === ${mark}`;
  return layers.find((l) => (l.transform as { filter?: string }[])[0]?.filter === own) as { mark?: unknown } | undefined;
}

const DEVIATIONS = [
  { setting: 'single', model: 'simulated-a', source: 'simulated-plan', cases: 4, omission: 4, redundancy: 2, skipping: 0, reversal: 1 },
  { setting: 'multi', model: 'simulated-a', source: 'simulated-plan', cases: 2, omission: 1, redundancy: 0, skipping: 1, reversal: 0 },
];

const CDPS = [
  ['test', 1],
  ['test', 2],
  ['test', 2],
  ['non-test', 2],
  ['non-test', 3],
  ['test', 10],
].map(([split, length], i) => ({ cdp_id: `c${i}`, split, length }));

const THRESHOLD = [0, 0.5, 1].flatMap((t, i) =>
  [null, 'm1'].map((model) => ({
    source: 'simulated-plan',
    simulated: true,
    setting: 'all',
    judge: 'simulated-token-f1',
    model,
    t,
    f1: [0.6, 0.9, 0.2][i]! - (model ? 0.1 : 0),
    best_t: 0.5,
    best_f1: 0.9,
  })),
);

function paperFigures(): FigureSpec[] {
  return [figure1c(SUMMARY, JUDGES), figure4(THRESHOLD, JUDGES), figure5(CDPS), deviationFigure(DEVIATIONS)];
}

describe('Vega-Lite specs of the figures', () => {
  test('every paper figure compiles without warnings; its rows are the rows of each mark the SVG draws; title and caption are the SVG’s', () => {
    for (const fig of paperFigures()) {
      const spec = vegaLiteSpec(fig);
      assert.deepEqual(compileSpec(spec).warnings, [], fig.name);
      fig.panels.forEach((p, pi) =>
        p.marks.forEach((m, mi) => {
          if (m.type !== 'frame') assert.deepEqual(rowsOf(spec, pi, mi), m.data, `${fig.name} panel ${pi} mark ${mi} (${m.type})`);
        }),
      );
      const svg = renderSvg(fig);
      const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
      assert.ok(svg.includes(`<title>${esc(fig.title)}</title>`) && svg.includes(`<desc>${esc(fig.caption)}</desc>`));
      assert.deepEqual([(spec.title as { text: string }).text, spec.description], [fig.title, fig.caption]);
      assert.deepEqual(JSON.parse(vegaLiteJson(fig)), spec, 'the file is the spec');
    }
  });

  test('figure files: SVG, PNG and .vl.json per figure, the spec titled as the figure', () => {
    const files = figureFiles([figure5(CDPS)]);
    assert.deepEqual(
      files.map((f) => [f.path, f.kind]),
      [
        ['figures/figure5_cdp_lengths.svg', 'figure'],
        ['figures/figure5_cdp_lengths.png', 'figure-png'],
        ['figures/figure5_cdp_lengths.vl.json', 'figure-vega-lite'],
      ],
    );
    assert.equal(new Set(files.map((f) => f.title)).size, 1);
  });

  test('vega draws Figure 5: one stacked bar per (split, length), test below non-test, and the inset’s tail', async () => {
    const items = await scene(vegaLiteSpec(figure5(CDPS)));
    // Main panel: test 1, test 2 (2 CDPs), non-test 2 on top of it, non-test 3, test 10; inset (lengths ≥ ⌈P95⌉ = 10): test 10.
    const bars = items.rect!.map((r) => [r.datum.split, r.datum.length, r.datum._y1, r.datum._y2]);
    assert.deepEqual(bars, [
      ['test', 1, 0, 1],
      ['test', 2, 0, 2],
      ['non-test', 2, 2, 3],
      ['non-test', 3, 0, 1],
      ['test', 10, 0, 1],
      ['test', 10, 0, 1],
    ]);
  });

  test('vega draws the deviation profile: per facet a bar per type stacked in the fixed order, and the 0 rule in each facet', async () => {
    const items = await scene(vegaLiteSpec(deviationFigure(DEVIATIONS)));
    const single = items.rect!.filter((r) => r.datum.setting === 'single-turn').map((r) => [r.datum.type, r.datum._y1, r.datum._y2]);
    // Per case: omission 4/4, redundancy 2/4, skipping 0, reversal 1/4, stacked in that order.
    assert.deepEqual(single, [
      ['omission', 0, 1],
      ['redundancy', 1, 1.5],
      ['skipping', 1.5, 1.5],
      ['reversal', 1.5, 1.75],
    ]);
    assert.equal(items.rect!.length, 8);
    assert.deepEqual(
      items.rule!.map((r) => r.datum._fx),
      ['single-turn', 'multi-turn'],
      'the rule at 0, which Plot draws in every facet',
    );
  });

  test('vega draws Figure 1(c) and Figure 4: a point and two whiskers per model and setting, a line point per row', async () => {
    const f1c = figure1c(SUMMARY, JUDGES);
    const points = f1c.panels[0]!.marks[3]!.data.length + f1c.panels[0]!.marks[4]!.data.length;
    const a = await scene(vegaLiteSpec(f1c));
    assert.equal(a.symbol!.length, points);
    assert.equal(a.rule!.length, 2 * points);
    assert.equal(a.text!.length, points);
    const b = await scene(vegaLiteSpec(figure4(THRESHOLD, JUDGES)));
    assert.equal(b.line!.length, 6, 'three thresholds × (pooled, m1)');
    assert.deepEqual(
      b.symbol!.map((s) => [s.datum.t, s.datum.f1]),
      [[0.5, 0.9]],
      'the pooled best threshold',
    );
  });

  test('a hand-made figure: two panels, a nominal y in a given order, a constant x, hollow and filled points', async () => {
    const pts = [
      { label: 'b', v: 10, kind: 'real' },
      { label: 'a', v: 30, kind: 'sim' },
    ];
    const panel = (y: number) => ({
      x: 0,
      y,
      width: 400,
      height: 120,
      plot: {
        x: { domain: [0, 100], label: 'v' },
        y: { domain: ['b', 'a'], label: null },
        color: { domain: ['real', 'sim'], range: ['#111111', '#999999'] },
      },
      marks: [
        { type: 'dot' as const, data: pts.slice(0, 1), options: { x: 'v', y: 'label', fill: 'kind' } },
        { type: 'dot' as const, data: pts.slice(1), options: { x: 'v', y: 'label', stroke: 'kind', fill: 'white', symbol: 'square' } },
        { type: 'text' as const, data: pts, options: { x: 100, y: 'label', text: 'kind', textAnchor: 'end' } },
      ],
    });
    const fig: FigureSpec = { name: 'hand', title: 'T', caption: 'C', width: 400, height: 260, panels: [panel(0), panel(130)] };
    const spec = vegaLiteSpec(fig);
    assert.deepEqual(compileSpec(spec).warnings, []);
    const items = await scene(spec);
    // Two panels × two points; 'b' above 'a' as the domain orders them; the text at x = 100 (the right edge).
    assert.equal(items.symbol!.length, 4);
    const [b, a] = items.symbol!;
    assert.ok(b!.y! < a!.y!, 'b is drawn above a');
    const texts = items.text!;
    assert.equal(texts.length, 4);
    assert.ok(texts.every((t) => t.x === texts[0]!.x && t.x! > b!.x! && t.x! > a!.x!));
    const hollow = (spec.vconcat as { layer: { mark: { filled: boolean; fill?: string } }[] }[])[0]!.layer[1]!.mark;
    assert.deepEqual([hollow.filled, hollow.fill], [false, 'white']);
  });

  for (const [reports, label] of [
    [REPORTS, 'the sample’s reports'],
    [join(REPORTS, 'cpgbench'), 'CPGBench’s sample reports'],
  ] as const)
    test(`${label}: each figure’s .vl.json beside its SVG and PNG, compiling without warnings, drawn by vega, titled as the SVG, linked from the index`, async () => {
      const dir = join(reports, 'figures');
      const svgs = readdirSync(dir).filter((f) => f.endsWith('.svg'));
      assert.ok(svgs.length >= 3);
      const index = readFileSync(join(reports, 'index.md'), 'utf8');
      for (const svgFile of svgs) {
        const stem = svgFile.replace(/\.svg$/, '');
        assert.ok(existsSync(join(dir, `${stem}.png`)), stem);
        const spec = JSON.parse(readFileSync(join(dir, `${stem}.vl.json`), 'utf8')) as Record<string, unknown>;
        assert.deepEqual(compileSpec(spec).warnings, [], stem);
        const svg = readFileSync(join(dir, svgFile), 'utf8');
        const unesc = (s: string) =>
          s
            .replace(/&quot;/g, '"')
            .replace(/&lt;/g, '<')
            .replace(/&gt;/g, '>')
            .replace(/&amp;/g, '&');
        assert.equal((spec.title as { text: string }).text, unesc(/<title>(.*)<\/title>/.exec(svg)![1]!), stem);
        assert.equal(spec.description, unesc(/<desc>(.*)<\/desc>/.exec(svg)![1]!), stem);
        assert.ok(index.includes(`[Vega-Lite](figures/${stem}.vl.json)`), `index links ${stem}.vl.json`);
        // Every bar the SVG stacks or dodges is one rect vega draws (bars are never repeated across facets).
        const items = await scene(spec);
        const barRows = (spec.data as { values: { _panel: number; _mark: number }[] }).values.filter((r) =>
          new RegExp(`"type":"(bar|rect)"`).test(JSON.stringify(layerOf(spec, r._panel, r._mark)?.mark ?? {})),
        ).length;
        assert.equal(items.rect?.length ?? 0, barRows, `${stem}: one rect per bar row`);
      }
    });
});
