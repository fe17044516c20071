/** `cdp status`: every stage fresh, stale or missing, and why. */
import { runDag } from '../../exec/executor.ts';
import type { RegisterCommand } from '../extensions.ts';
import { exitQuietlyOnEpipe } from '../stdout.ts';

export const status: RegisterCommand = (program, project) => {
  program
    .command('status')
    .description('every stage fresh, stale or missing, and why')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      exitQuietlyOnEpipe();
      const p = await project();
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
