/**
 * `cdp notebooks`: the Observable notebooks in notebooks/ built into a static site. The notebooks
 * and their helpers are copied into a staging folder inside the project (so Vite resolves
 * @observablehq/plot from node_modules and bundles it), the warehouse tables are exported there
 * as data/*.arrow (Arrow IPC), and Notebook Kit's build writes the pages and every asset they load.
 */
import { cpSync, mkdirSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { exportNotebookData, type CompareSource } from './export-data.ts';

export interface BuildOptions {
  /** Project root (holds node_modules and notebooks/). */
  root: string;
  /** The DuckDB warehouse to read. */
  warehouse: string;
  /** The store its views' relative paths resolve in. */
  store: string;
  /** Output folder; emptied first. Default: <root>/reports/site. */
  outDir?: string;
  /** A second run for the compare notebook (another store, or this one's warehouse copied before a change). */
  compare?: CompareSource;
  /** The notebooks' folder (default <root>/notebooks; CPGBench's: <root>/notebooks/cpgbench). */
  source?: string;
  /** The helpers' folder copied beside them as lib/ (default <source>/lib). */
  lib?: string;
  /** What exports the warehouse tables the pages read (default MEGA-CDP's, export-data.ts). */
  exportData?: (warehouse: string, store: string, outDir: string) => Promise<Record<string, number>>;
  log?: (line: string) => void;
}

export interface BuiltSite {
  outDir: string;
  pages: string[];
  rows: Record<string, number>;
}

/** The notebook pages in a folder: every top-level .html file. */
export function notebookPages(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.html'))
    .sort();
}

export async function buildNotebookSite(opts: BuildOptions): Promise<BuiltSite> {
  const root = resolve(opts.root);
  const source = resolve(opts.source ?? join(root, 'notebooks'));
  const outDir = resolve(opts.outDir ?? join(root, 'reports', 'site'));
  const log = opts.log ?? (() => {});
  if (!existsSync(opts.warehouse)) throw new Error(`no warehouse at ${opts.warehouse}; run \`cdp run\` first`);
  const pages = notebookPages(source);
  if (!pages.length) throw new Error(`no notebooks (*.html) in ${source}`);

  const stage = join(root, '.cdp-tmp', `notebooks-${process.pid}-${Date.now()}`);
  mkdirSync(stage, { recursive: true });
  try {
    for (const p of pages) cpSync(join(source, p), join(stage, p));
    cpSync(opts.lib ?? join(source, 'lib'), join(stage, 'lib'), { recursive: true });
    const exportData = opts.exportData ?? ((w: string, s: string, o: string) => exportNotebookData(w, s, o, { compare: opts.compare }));
    const rows = await exportData(opts.warehouse, opts.store, join(stage, 'data'));
    log(
      `exported ${Object.entries(rows)
        .map(([k, n]) => `${k} (${n})`)
        .join(', ')}`,
    );
    await runNotebookKitBuild(stage, outDir, pages);
    log(`built ${pages.length} pages into ${outDir}`);
    return { outDir, pages, rows };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Notebook Kit's own CLI, in a child process: Vite's build is best kept out of the caller's process. */
async function runNotebookKitBuild(stage: string, outDir: string, pages: string[]): Promise<void> {
  // The package exports no bin path; its vite entry sits at dist/src/vite/index.js.
  const cli = fileURLToPath(new URL('../../bin/notebooks.js', import.meta.resolve('@observablehq/notebook-kit/vite')));
  const args = [cli, 'build', '--root', stage, '--out', outDir, '--empty', '--', ...pages];
  const output: string[] = [];
  const code = await new Promise<number | null>((ok, fail) => {
    const child = spawn(process.execPath, args, { cwd: stage, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
    child.on('error', fail);
    child.on('exit', ok);
  });
  if (code !== 0) throw new Error(`notebooks build exited with ${code}:\n${output.join('').slice(-4000)}`);
  const warnings = output
    .join('')
    .split('\n')
    .filter((l) => /warning/i.test(l));
  if (warnings.length) throw new Error(`notebooks build warned (a missing asset breaks a page):\n${warnings.join('\n')}`);
}
