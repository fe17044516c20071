/** `cdp clean`: removes artifacts that no current key references. */
import type { RegisterCommand } from '../config-exports.ts';
import { cleanStore } from '../clean.ts';

export const clean: RegisterCommand = (program, project) => {
  program
    .command('clean')
    .description('remove artifacts that no current key references')
    .action(async () => {
      const r = await cleanStore((await project()).ws);
      const temp = r.tempFilesRemoved ? `, ${r.tempFilesRemoved} temporary files left by killed runs` : '';
      const mb = (r.bytesFreed / 1e6).toFixed(1);
      process.stdout.write(`removed ${r.artifactsRemoved} artifact files${temp} (${mb} MB) and ${r.unitsDropped} stale unit results\n`);
    });
};
