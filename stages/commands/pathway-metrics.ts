/** `cdp pathway-metrics`: DTW/OT/LNDS for consistency matrices given as JSONL on stdin. */
import type { RegisterCommand } from '../../pipeline/cli/config-exports.ts';

export const pathwayMetrics: RegisterCommand = (program) => {
  program
    .command('pathway-metrics')
    .description(
      'read {"id", "C": [[…]], "judge"?, "gamma"?, "beta"?, "lambda"?, "tau_a"?, "tau_b"?} lines on stdin; write DTW/OT/LNDS lines on stdout',
    )
    .action(async () => {
      const { runPathwayMetrics } = await import('../metrics/pathway-metrics.ts');
      const r = await runPathwayMetrics(process.stdin, process.stdout);
      if (r.failed) process.stderr.write(`${r.failed} of ${r.ok + r.failed} lines failed; see their "error" fields\n`);
      process.exitCode = r.failed ? 1 : 0;
    });
};
