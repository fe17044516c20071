/** `cdp status [--verify]`: every stage fresh, stale or missing, and why; or the store's full integrity check. */
import { runDag } from '../../exec/executor.ts';
import type { RegisterCommand } from '../config-exports.ts';
import { exitQuietlyOnEpipe } from '../stdout.ts';
import { formatVerify, verifyStore } from '../verify.ts';

export const status: RegisterCommand = (program, project) => {
  program
    .command('status')
    .description('every stage fresh, stale or missing, and why')
    .option('--json', 'print JSON')
    .option(
      '--verify',
      'hash every artifact, memo line and ledger entry in full and say what does not match (exit 1 if any); cdp verify rebuilds it',
    )
    .action(async (o: { json?: boolean; verify?: boolean }) => {
      exitQuietlyOnEpipe();
      const p = await project();
      if (o.verify) {
        const r = await verifyStore(p, { rebuild: false });
        process.stdout.write(o.json ? JSON.stringify(r) + '\n' : formatVerify(r, false));
        process.exitCode = r.ok ? 0 : 1;
        return;
      }
      const plan = await runDag(p.dag, p.ws, { dryRun: true });
      const rows = plan.stages.map((s) => ({
        stage: s.stage,
        state: s.status === 'reused' ? 'fresh' : s.reasons?.includes('never ran') ? 'missing' : 'stale',
        reasons: s.status === 'reused' ? [] : (s.reasons ?? []),
      }));
      if (o.json) process.stdout.write(JSON.stringify(rows) + '\n');
      else
        for (const r of rows)
          process.stdout.write(`${r.state.padEnd(8)} ${r.stage}${r.reasons.length ? `  (${r.reasons.join('; ')})` : ''}\n`);
    });
};
