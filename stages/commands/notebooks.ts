/** `cdp notebooks`: the Observable notebooks in notebooks/ built over the warehouse into a static site. */
import { join, resolve } from 'node:path';
import type { RegisterCommand } from '../../pipeline/cli/config-exports.ts';

export const notebooks: RegisterCommand = (program, project) => {
  program
    .command('notebooks')
    .description(
      "build the notebooks in notebooks/ over the warehouse into a static site (default: the reports' site/, e.g. reports/site/)",
    )
    .option('--out <dir>', 'output folder (emptied first)')
    .option(
      '--compare <warehouse>',
      "a second run for the compare notebook: another store's warehouse, or a copy of this one taken before a change",
    )
    .option('--compare-store <dir>', "the store the --compare warehouse reads (default: this run's store)")
    .action(async (o: { out?: string; compare?: string; compareStore?: string }) => {
      const p = await project();
      const { buildNotebookSite } = await import('../../notebooks/build-site.ts');
      const compare = o.compare ? { warehouse: resolve(o.compare), store: resolve(o.compareStore ?? p.ws.store) } : undefined;
      const site = await buildNotebookSite({
        root: p.ws.root,
        warehouse: p.ws.warehouse,
        store: p.ws.store,
        outDir: o.out ?? join(p.options.reports, 'site'),
        compare,
        log: (l) => process.stderr.write(l + '\n'),
      });
      process.stdout.write(`${site.pages.map((f) => join(site.outDir, f)).join('\n')}\npreview: npx cdp serve\n`);
    });
};
