// PDF -> Markdown throughput (stages/ingest) on the six sample guidelines, in pages per second,
// against `pdftotext -layout` (poppler-utils) on the same files in the same run. pdftotext only
// dumps positioned text; our pipeline also does layout analysis, so the ratio is the price of
// reading order, headings, lists and tables.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { BenchReport, BenchRow } from './report.ts';
import { pdfToMarkdown } from '../stages/ingest/pdf-to-markdown.ts';
import { readSample, SAMPLE_DIR, SAMPLE_PDFS } from '../stages/ingest/testing/sample-corpus.ts';
import { findExecutable } from '../stages/ingest/ocr.ts';

function pdftotextSeconds(path: string): number {
  const t0 = performance.now();
  const r = spawnSync('pdftotext', ['-layout', path, '-'], { stdio: ['ignore', 'ignore', 'ignore'] });
  if (r.status !== 0) throw new Error(`pdftotext failed on ${path} (exit ${r.status})`);
  return (performance.now() - t0) / 1000;
}

export default async (): Promise<BenchReport> => {
  const havePoppler = findExecutable('pdftotext') !== null;
  const files = await Promise.all(SAMPLE_PDFS.map(async (rel) => ({ rel, bytes: await readSample(rel) })));
  // Warm-up: load the WASM module and JIT the layout code on the smallest document.
  await pdfToMarkdown(files[4]!.bytes, { name: 'warm-up' });
  const rows: BenchRow[] = [];
  let pagesAll = 0,
    oursAll = 0,
    popplerAll = 0;
  for (const { rel, bytes } of files) {
    const t0 = performance.now();
    const r = await pdfToMarkdown(bytes, { name: rel, language: rel.startsWith('zh/') ? 'zh' : 'en' });
    const ours = (performance.now() - t0) / 1000;
    if (!r.ok) throw new Error(r.error);
    const poppler = havePoppler ? pdftotextSeconds(join(SAMPLE_DIR, rel)) : NaN;
    pagesAll += r.pages;
    oursAll += ours;
    popplerAll += poppler;
    rows.push({
      name: `${rel} (${r.pages} p)`,
      value: r.pages / ours,
      unit: 'pages/s',
      ...(havePoppler ? { reference: { name: 'pdftotext -layout', value: r.pages / poppler } } : {}),
    });
  }
  rows.push({
    name: `all six (${pagesAll} p)`,
    value: pagesAll / oursAll,
    unit: 'pages/s',
    ...(havePoppler ? { reference: { name: 'pdftotext -layout', value: pagesAll / popplerAll } } : {}),
    note: `${oursAll.toFixed(2)} s vs ${popplerAll.toFixed(2)} s`,
  });
  return {
    title: 'PDF to Markdown (stages/ingest) vs pdftotext -layout',
    rows,
    notes: [
      'Workload: the six sample guidelines in data/sample/guidelines, each converted once, text layer only (no page needs OCR). ' +
        'Ratio = our pages/s ÷ pdftotext pages/s (higher is better; < 1 means slower than pdftotext). ' +
        'pdftotext runs as a separate process, so its time includes process start-up (~tens of ms per file).',
      havePoppler ? '' : 'pdftotext is not installed (apt-get install poppler-utils): no reference column.',
    ].filter(Boolean),
  };
};
