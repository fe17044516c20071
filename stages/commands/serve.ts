/** `cdp serve [--port N]`: a preview of the built notebooks on 127.0.0.1 (one per benchmark: serveCommand). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RegisterCommand } from '../../pipeline/cli/config-exports.ts';

/** `description`: the command's help line; `build`: the command that builds the site, named when there is none. */
export function serveCommand(o: { description: string; build: string }): RegisterCommand {
  return (program, project) => {
    program
      .command('serve')
      .description(o.description)
      .option('--port <n>', 'port (0 picks a free one)', '3000')
      .option('--dir <dir>', "folder to serve (default: the reports' site/)")
      .action(async (flags: { port: string; dir?: string }) => {
        const port = Number(flags.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer 0–65535, got "${flags.port}"`);
        const dir = flags.dir ?? join((await project()).options.reports, 'site');
        if (!existsSync(join(dir, 'index.html'))) throw new Error(`no site in ${dir}; run \`${o.build}\` first`);
        const { serveSite } = await import('../../notebooks/serve-site.ts');
        const { url } = await serveSite(dir, port);
        process.stdout.write(`serving ${dir} at ${url} (Ctrl-C stops)\n`);
      });
  };
}

export const serve = serveCommand({
  description: "preview the built notebooks (the reports' site/, e.g. reports/site/) on 127.0.0.1",
  build: 'cdp notebooks',
});
