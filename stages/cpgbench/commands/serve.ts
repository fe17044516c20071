/** `cdp --config cpgbench.config.ts serve [--port N]`: a preview of CPGBench's built notebooks on 127.0.0.1. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RegisterCommand } from '../../../pipeline/cli/config-exports.ts';

export const serve: RegisterCommand = (program, project) => {
  program
    .command('serve')
    .description("preview CPGBench's built notebooks (the reports' site/, e.g. reports/cpgbench/site/) on 127.0.0.1")
    .option('--port <n>', 'port (0 picks a free one)', '3000')
    .option('--dir <dir>', "folder to serve (default: the reports' site/)")
    .action(async (o: { port: string; dir?: string }) => {
      const port = Number(o.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer 0–65535, got "${o.port}"`);
      const dir = o.dir ?? join((await project()).options.reports, 'site');
      if (!existsSync(join(dir, 'index.html')))
        throw new Error(`no site in ${dir}; run \`cdp --config cpgbench.config.ts notebooks\` first`);
      const { serveSite } = await import('../../../notebooks/serve-site.ts');
      const { url } = await serveSite(dir, port);
      process.stdout.write(`serving ${dir} at ${url} (Ctrl-C stops)\n`);
    });
};
