/**
 * A figure's files: the SVG (render-figure.ts), the PNG drawn from it and the Vega-Lite spec
 * (vega-lite-spec.ts), all from one FigureSpec; a figure with nothing to show (`absent`) has three
 * rows without content, each saying why. Every benchmark's figure stages write through this.
 */
import type { FigureSpec } from './figure-spec.ts';
import { renderPng, renderSvg } from './render-figure.ts';
import type { ReportFile } from './report-files.ts';
import { vegaLiteJson } from './vega-lite-spec.ts';

export function figureFiles(specs: readonly FigureSpec[], fontFiles: readonly string[] = []): ReportFile[] {
  return specs.flatMap((s): ReportFile[] => {
    if (s.absent) {
      return [
        { path: `figures/${s.name}.svg`, kind: 'figure', title: s.title, content: null, absent: s.absent },
        { path: `figures/${s.name}.png`, kind: 'figure-png', title: s.title, content: null, absent: s.absent },
        { path: `figures/${s.name}.vl.json`, kind: 'figure-vega-lite', title: s.title, content: null, absent: s.absent },
      ];
    }
    const svg = renderSvg(s);
    return [
      { path: `figures/${s.name}.svg`, kind: 'figure', title: s.title, content: svg },
      { path: `figures/${s.name}.png`, kind: 'figure-png', title: s.title, content: renderPng(svg, fontFiles) },
      { path: `figures/${s.name}.vl.json`, kind: 'figure-vega-lite', title: s.title, content: vegaLiteJson(s) },
    ];
  });
}
