/**
 * The JavaScript of a notebook page (notebooks/*.html): the bodies of its `<script type="module">`
 * cells, which the layer rules read as code. Its markdown cells are prose, which may say
 * "simulated" freely. A test-side tool, like layers.ts.
 */
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const MODULE = /\btype\s*=\s*["']module["']/i;

export function pageScripts(html: string): string {
  const cells: string[] = [];
  for (const m of html.matchAll(SCRIPT)) if (MODULE.test(m[1]!)) cells.push(m[2]!);
  // A statement break between cells, so one cell's last line never runs into the next one's first.
  return cells.join('\n;\n');
}
