/** `cdp --config cpgbench.config.ts notebooks [--out DIR]`: CPGBench's notebooks (notebooks/cpgbench/) built over its warehouse. */
import { join } from 'node:path';
import type { RegisterCommand } from '../../../pipeline/cli/config-exports.ts';

export const notebooks: RegisterCommand = (program, project) => {
  program
    .command('notebooks')
    .description(
      "build CPGBench's notebooks (notebooks/cpgbench/) over its warehouse into a static site (default: the reports' site/, e.g. reports/cpgbench/site/)",
    )
    .option('--out <dir>', 'output folder (emptied first)')
    .action(async (o: { out?: string }) => {
      const p = await project();
      const { buildNotebookSite } = await import('../../../notebooks/build-site.ts');
      const { exportCpgNotebookData } = await import('../../../notebooks/cpgbench-data.ts');
      const root = p.ws.root;
      const site = await buildNotebookSite({
        root,
        warehouse: p.ws.warehouse,
        store: p.ws.store,
        outDir: o.out ?? join(p.options.reports, 'site'),
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
