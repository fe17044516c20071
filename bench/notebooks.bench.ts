// The notebooks over the sample warehouse: exporting their data, building the site with
// Notebook Kit, and how long each page takes in headless Chromium until its tables are drawn.
// Needs `npm start` first (the sample warehouse) and Debian's chromium.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchReport, BenchRow } from './report.ts';
import { exportNotebookData, NOTEBOOK_DATA } from '../notebooks/export-data.ts';
import { buildNotebookSite } from '../notebooks/build-site.ts';
import { serveSite } from '../notebooks/serve-site.ts';
import { openWarehouse } from '../pipeline/store/warehouse.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const warehouse = process.env.CDP_WAREHOUSE ? resolve(process.env.CDP_WAREHOUSE) : join(repo, 'data', 'warehouse.duckdb');
const store = process.env.CDP_STORE ? resolve(process.env.CDP_STORE) : join(repo, 'data', 'store');

async function seconds(f: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await f();
  return (performance.now() - t0) / 1000;
}

/** DuckDB's own JSON writer on the same queries: what the export costs without JavaScript serialisation. */
async function duckdbCopy(dir: string): Promise<void> {
  const w = await openWarehouse(warehouse, store, { readOnly: true });
  try {
    for (const [name, sql] of Object.entries(NOTEBOOK_DATA)) {
      await w.con.run(`copy (${sql}) to '${join(dir, name + '.json')}' (format json, array true)`);
    }
  } finally {
    w.close();
  }
}

export default async function (): Promise<BenchReport> {
  if (!existsSync(warehouse)) throw new Error(`no warehouse at ${warehouse}; run \`npm start\` first`);
  const tmp = mkdtempSync(join(tmpdir(), 'cdp-bench-notebooks-'));
  const rows: BenchRow[] = [];
  try {
    let counts: Record<string, number> = {};
    const exportS = await seconds(async () => {
      counts = await exportNotebookData(warehouse, store, join(tmp, 'export'));
    });
    const copyS = await seconds(() => duckdbCopy(tmp));
    rows.push({
      name: 'export notebook data (JSON)',
      value: exportS,
      unit: 's',
      reference: { name: 'DuckDB COPY … (format json)', value: copyS },
    });

    const buildS = await seconds(() => buildNotebookSite({ root: repo, warehouse, store, outDir: join(tmp, 'site') }));
    rows.push({ name: 'cdp notebooks (export + Notebook Kit build, 4 pages)', value: buildS, unit: 's' });

    const { server, url } = await serveSite(join(tmp, 'site'), 0);
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      // Warm the browser first so no page pays for Chromium's first navigation.
      const warm = await browser.newPage();
      await warm.goto(url + 'index.html');
      await warm.close();
      const ready: Record<string, string> = {
        'index.html': 'a[href="./overview.html"]',
        'overview.html': 'table[data-name="tables5_7"]',
        'metric-explorer.html': 'table[data-name="metric_breakdown"]',
        'case-viewer.html': 'g[aria-label="cell"] rect',
      };
      const times: Record<string, number> = {};
      for (const [page, selector] of Object.entries(ready)) {
        const p = await browser.newPage();
        times[page] = await seconds(async () => {
          await p.goto(url + page);
          await p.waitForSelector(selector, { timeout: 30000 });
        });
        await p.close();
      }
      for (const page of Object.keys(ready).slice(1)) {
        rows.push({
          name: `${page} until drawn`,
          value: times[page] * 1000,
          unit: 'ms',
          reference: { name: 'index.html (static page)', value: times['index.html'] * 1000 },
        });
      }
    } finally {
      await browser.close();
      server.close();
    }
    return {
      title: 'Notebooks: export, build, page render',
      rows,
      notes: [
        `Warehouse: ${warehouse}; rows exported: ${Object.entries(counts)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')}.`,
        "No targets: the issue sets none. The export serialises through @duckdb/node-api's row objects; DuckDB's own writer is the floor.",
        "Page times: after one warm-up navigation, navigation until the page's last table or heatmap is in the DOM, in a fresh tab of headless Chromium (Debian), served from 127.0.0.1.",
      ],
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
