/**
 * The benchmark's own `cdp` subcommands: tools a researcher uses without running the DAG.
 *   cdp models [--check]       the run's models, their roles, and whether they answer
 *   cdp ingest <file.pdf>      the Markdown of any PDF, as the guidelines stage would produce it
 *   cdp pathway-metrics        DTW/OT/LNDS for consistency matrices given as JSONL on stdin
 *   cdp notebooks              the Observable notebooks in notebooks/ built into reports/site/
 *   cdp serve [--port N]       a preview of reports/site/ on 127.0.0.1
 *   cdp export benchmark|results DIR   the built benchmark, or a run's results, as Parquet + JSONL with a dataset card
 *   cdp import predictions FILE        predictions made elsewhere (JSONL) into data/imports/, judged by the next `cdp run`
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { RegisterCommand } from '../pipeline/cli/extensions.ts';
// The commands' modules are imported when a command runs: every `cdp` invocation registers
// these, and PDF parsing (mupdf's WebAssembly) is slow to load.

const ingest: RegisterCommand = (program: Command) => {
  program
    .command('ingest')
    .description('print the Markdown extracted from a PDF (warnings on stderr)')
    .argument('<file>', 'a PDF file')
    .option('--language <lang>', 'en or zh (picks the OCR languages; default: from the path, else both)')
    .action(async (file: string, o: { language?: 'en' | 'zh' }) => {
      const { ingestCommand } = await import('./ingest/ingest-command.ts');
      process.exitCode = await ingestCommand(file, process.stdout, { language: o.language });
    });
};

const pathwayMetrics: RegisterCommand = (program: Command) => {
  program
    .command('pathway-metrics')
    .description(
      'read {"id", "C": [[…]], "judge"?, "gamma"?, "beta"?, "lambda"?, "tau_a"?, "tau_b"?} lines on stdin; write DTW/OT/LNDS lines on stdout',
    )
    .action(async () => {
      const { runPathwayMetrics } = await import('./metrics/pathway-metrics.ts');
      const r = await runPathwayMetrics(process.stdin, process.stdout);
      if (r.failed) process.stderr.write(`${r.failed} of ${r.ok + r.failed} lines failed; see their "error" fields\n`);
      process.exitCode = r.failed ? 1 : 0;
    });
};

const notebooks: RegisterCommand = (program: Command, project) => {
  program
    .command('notebooks')
    .description('build the notebooks in notebooks/ over the warehouse into a static site (default reports/site/)')
    .option('--out <dir>', 'output folder (emptied first)')
    .option(
      '--compare <warehouse>',
      "a second run for the compare notebook: another store's warehouse, or a copy of this one taken before a change",
    )
    .option('--compare-store <dir>', "the store the --compare warehouse reads (default: this run's store)")
    .action(async (o: { out?: string; compare?: string; compareStore?: string }) => {
      const p = await project();
      const { buildNotebookSite } = await import('../notebooks/build-site.ts');
      const compare = o.compare ? { warehouse: resolve(o.compare), store: resolve(o.compareStore ?? p.ws.store) } : undefined;
      const site = await buildNotebookSite({
        root: p.ws.root,
        warehouse: p.ws.warehouse,
        store: p.ws.store,
        outDir: o.out,
        compare,
        log: (l) => process.stderr.write(l + '\n'),
      });
      process.stdout.write(`${site.pages.map((f) => join(site.outDir, f)).join('\n')}\npreview: npx cdp serve\n`);
    });
};

const serve: RegisterCommand = (program: Command, project) => {
  program
    .command('serve')
    .description('preview the built notebooks (reports/site/) on 127.0.0.1')
    .option('--port <n>', 'port (0 picks a free one)', '3000')
    .option('--dir <dir>', 'folder to serve (default reports/site)')
    .action(async (o: { port: string; dir?: string }) => {
      const port = Number(o.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer 0–65535, got "${o.port}"`);
      const dir = o.dir ?? join((await project()).ws.root, 'reports', 'site');
      if (!existsSync(join(dir, 'index.html'))) throw new Error(`no site in ${dir}; run \`cdp notebooks\` first`);
      const { serveSite } = await import('../notebooks/serve-site.ts');
      const { url } = await serveSite(dir, port);
      process.stdout.write(`serving ${dir} at ${url} (Ctrl-C stops)\n`);
    });
};

const models: RegisterCommand = (program: Command, project) => {
  program
    .command('models')
    .description('the models of this run: roles, used or why not, endpoint, context window, price (keys are never shown)')
    .option('--json', 'print {"models": [{"name", "roles", "active", "reason", …}], "roles", "warnings", "problems"}')
    .option('--check', "send one tiny request to every model the run uses, and read the server's context window")
    .action(async (o: { json?: boolean; check?: boolean }) => {
      const { modelsCommand } = await import('./models/models-command.ts');
      const p = await project();
      process.exitCode = await modelsCommand(p.ws.root, { ...o, store: p.ws.store }, (s) => process.stdout.write(s));
    });
};

const exportData: RegisterCommand = (program: Command, project) => {
  program
    .command('export')
    .description("write the built benchmark (guidelines, cases) or the run's results as Parquet and JSONL with a dataset card (README.md)")
    .argument('<kind>', 'benchmark or results')
    .argument('<dir>', 'output folder (new, empty, or an earlier export)')
    .action(async (kind: string, dir: string) => {
      if (kind !== 'benchmark' && kind !== 'results') throw new Error(`cdp export: kind must be benchmark or results, got "${kind}"`);
      const p = await project();
      const { exportCommand } = await import('./export/export-command.ts');
      const r = await exportCommand(kind, dir, { root: p.ws.root, warehouse: p.ws.warehouse, store: p.ws.store });
      for (const [t, n] of Object.entries(r.counts)) process.stdout.write(`${t}: ${n} rows\n`);
      process.stdout.write(`wrote ${r.files.length} files to ${r.dir}\n`);
    });
};

const importData: RegisterCommand = (program: Command, project) => {
  program
    .command('import')
    .description('import predictions made elsewhere: JSONL lines {setting, model, cdp_id, steps | questions, outcome, transcript?}')
    .argument('<kind>', 'predictions')
    .argument('<file>', 'a JSONL file')
    .action(async (kind: string, file: string) => {
      if (kind !== 'predictions') throw new Error(`cdp import: only "predictions" can be imported, got "${kind}"`);
      const p = await project();
      const { importPredictions, importSummary } = await import('./evaluate/import-command.ts');
      const r = await importPredictions(file, { root: p.ws.root, warehouse: p.ws.warehouse, store: p.ws.store });
      process.stderr.write(importSummary(r));
      process.exitCode = r.single + r.multi ? 0 : 1;
    });
};

export const cliCommands: RegisterCommand[] = [models, ingest, pathwayMetrics, notebooks, serve, exportData, importData];
