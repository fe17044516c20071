/** `cdp verify`: every artifact, memo line and ledger entry hashed in full, and what does not match rebuilt. */
import type { RegisterCommand } from '../config-exports.ts';
import { formatVerify, verifyStore } from '../verify.ts';

export const verify: RegisterCommand = (program, project) => {
  program
    .command('verify')
    .description('hash every artifact, memo line and ledger entry in full, and rebuild what does not match')
    .option('--json', 'print the report as JSON')
    .action(async (o: { json?: boolean }) => {
      const r = await verifyStore(await project(), { rebuild: true });
      process.stdout.write(o.json ? JSON.stringify(r) + '\n' : formatVerify(r, true));
      process.exitCode = r.ok ? 0 : 1;
    });
};
