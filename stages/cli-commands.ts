/**
 * The benchmark's own `cdp` subcommands: tools a researcher uses without running the DAG.
 *   cdp ingest <file.pdf>      the Markdown of any PDF, as the guidelines stage would produce it
 *   cdp pathway-metrics        DTW/OT/LNDS for consistency matrices given as JSONL on stdin
 */
import type { Command } from 'commander';
import type { RegisterCommand } from '../pipeline/cli/extensions.ts';
// The commands' modules are imported when a command runs: every `cdp` invocation registers
// these, and PDF parsing (mupdf's WebAssembly) is slow to load.

const ingest: RegisterCommand = (program: Command) => {
  program
    .command('ingest')
    .description('print the Markdown extracted from a PDF (warnings on stderr)')
    .argument('<file>', 'a PDF file')
    .option('--language <lang>', 'en or zh (picks the OCR languages; default: from the path, else both)')
    .action(async (file: string, o: { language?: 'en' | 'zh' }) => {
      const { ingestCommand } = await import('./ingest/ingest-command.ts');
      process.exitCode = await ingestCommand(file, process.stdout, { language: o.language });
    });
};

const pathwayMetrics: RegisterCommand = (program: Command) => {
  program
    .command('pathway-metrics')
    .description('read {"id", "C": [[…]], "judge"?, "gamma"?, "beta"?, "lambda"?, "tau_a"?, "tau_b"?} lines on stdin; write DTW/OT/LNDS lines on stdout')
    .action(async () => {
      const { runPathwayMetrics } = await import('./metrics/pathway-metrics.ts');
      const r = await runPathwayMetrics(process.stdin, process.stdout);
      if (r.failed) process.stderr.write(`${r.failed} of ${r.ok + r.failed} lines failed; see their "error" fields\n`);
      process.exitCode = r.failed ? 1 : 0;
    });
};

export const cliCommands: RegisterCommand[] = [ingest, pathwayMetrics];
