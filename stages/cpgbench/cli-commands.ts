/**
 * CPGBench's own `cdp` subcommands (cpgbench.config.ts exports them):
 *   cdp --config cpgbench.config.ts notebooks [--out DIR]   its notebooks (notebooks/cpgbench/) built into reports/cpgbench/site/
 *   cdp --config cpgbench.config.ts serve [--port N]        a preview of that site on 127.0.0.1
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { RegisterCommand } from '../../pipeline/cli/extensions.ts';

const siteOf = (root: string) => join(root, 'reports', 'cpgbench', 'site');

const notebooks: RegisterCommand = (program: Command, project) => {
  program
    .command('notebooks')
    .description("build CPGBench's notebooks (notebooks/cpgbench/) over its warehouse into a static site (default reports/cpgbench/site/)")
    .option('--out <dir>', 'output folder (emptied first)')
    .action(async (o: { out?: string }) => {
      const p = await project();
      const { buildNotebookSite } = await import('../../notebooks/build-site.ts');
      const { exportCpgNotebookData } = await import('../../notebooks/cpgbench-data.ts');
      const root = p.ws.root;
      const site = await buildNotebookSite({
        root,
        warehouse: p.ws.warehouse,
        store: p.ws.store,
        outDir: o.out ?? siteOf(root),
        source: join(root, 'notebooks', 'cpgbench'),
        lib: join(root, 'notebooks', 'lib'),
        exportData: exportCpgNotebookData,
        log: (l) => process.stderr.write(l + '\n'),
      });
      process.stdout.write(
        `${site.pages.map((f) => join(site.outDir, f)).join('\n')}\npreview: npx cdp --config cpgbench.config.ts serve\n`,
      );
    });
};

const serve: RegisterCommand = (program: Command, project) => {
  program
    .command('serve')
    .description("preview CPGBench's built notebooks (reports/cpgbench/site/) on 127.0.0.1")
    .option('--port <n>', 'port (0 picks a free one)', '3000')
    .option('--dir <dir>', 'folder to serve (default reports/cpgbench/site)')
    .action(async (o: { port: string; dir?: string }) => {
      const port = Number(o.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer 0–65535, got "${o.port}"`);
      const dir = o.dir ?? siteOf((await project()).ws.root);
      if (!existsSync(join(dir, 'index.html')))
        throw new Error(`no site in ${dir}; run \`cdp --config cpgbench.config.ts notebooks\` first`);
      const { serveSite } = await import('../../notebooks/serve-site.ts');
      const { url } = await serveSite(dir, port);
      process.stdout.write(`serving ${dir} at ${url} (Ctrl-C stops)\n`);
    });
};

export const cpgCliCommands: RegisterCommand[] = [notebooks, serve];
