/** `cdp run [stage…]`: brings the named stages (all when none is named) and what they need up to date. */
import { runDag, type RunSummary } from '../../exec/executor.ts';
import type { Project } from '../load.ts';
import type { RegisterCommand, RunLlm } from '../config-exports.ts';
import { progressSink } from '../progress.ts';
import { refuseOnProblems } from '../refuse.ts';
import { runReport } from '../run-report.ts';
import { runExitCode } from '../exit-code.ts';
import { jsonSummary } from '../run-json.ts';
import { rememberStore } from '../store-record.ts';
import { writeNoopFingerprint } from '../noop-fingerprint.ts';
import { runThreads, thresholdOption, workersOption } from '../workers-option.ts';

interface RunFlags {
  force?: boolean;
  dryRun?: boolean;
  retryFailed?: boolean;
  retryAnswers?: boolean;
  json?: boolean;
  jobs?: number;
  workers?: number;
  workersThreshold?: number;
  wait: number;
}

export const run: RegisterCommand = (program, project) => {
  program
    .command('run')
    .description('bring the named stages (all when none is named) and whatever they need up to date')
    .argument('[stages...]', 'stages to run')
    .option('--force', 'rerun the selected stages even when their keys are unchanged')
    .option('--dry-run', 'say what would run and why, without running anything')
    .option('--retry-failed', 'recompute the rows that failed last time (server and patient failures, timeouts, every failure row)')
    .option(
      '--retry-answers',
      'ask again, as fresh samples, the answers kept as answer failures (unreadable, cut off); labelled in their rows',
    )
    .option('--json', 'print one JSON object with the per-stage outcome on stdout')
    .option('--jobs <n>', 'stages running at once', (v) => parseInt(v, 10))
    .option(
      '--workers <n>',
      "worker threads for the units of pure stages and the simulated models (default: the machine's cores; 1: all on the main thread)",
      (v) => workersOption(v),
    )
    .option(
      '--workers-threshold <ms>',
      "milliseconds of CPU a stage's work must be projected to take to start the worker threads (default 5000; 0: use them for any work)",
      (v) => thresholdOption(v),
    )
    .option('--wait <seconds>', 'wait this long for another run on the same store to finish', (v) => parseFloat(v), 0)
    .action(async (stages: string[], o: RunFlags) => {
      const p = await project();
      // A dry run says what `cdp run` would do, and `cdp run` would refuse: so does it.
      if (refuseOnProblems(p)) return;
      // Recorded before anything runs, so that a run killed half-way still says what its store is.
      if (!o.dryRun) rememberStore(p.options);
      const startedAt = Date.now();
      const retryKinds = o.retryAnswers ? ['answer'] : [];
      const summary = await runWithInterrupt(p, stages, o, retryKinds);
      if (!o.dryRun && summary.ok) fingerprint(p, summary, stages, startedAt);
      if (o.json) process.stdout.write(jsonSummary(summary));
      else {
        const counts = new Map<string, number>();
        for (const s of summary.stages) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
        process.stderr.write(`${summary.ok ? 'ok' : 'FAILED'}: ${[...counts].map(([k, v]) => `${v} ${k}`).join(', ')}\n`);
      }
      for (const f of summary.stages.filter((s) => s.status === 'failed')) process.stderr.write(`failed: ${f.stage}: ${f.error}\n`);
      if (!o.dryRun) process.stderr.write(runReport(summary, { retryFailed: o.retryFailed, retryKinds }));
      process.exitCode = o.dryRun ? (summary.ok ? 0 : 1) : runExitCode(summary);
    });
};

/** The next no-op's fingerprint; only that no-op's speed depends on it, so a failure to write it is a warning. */
function fingerprint(p: Project, summary: RunSummary, targets: string[], startedAt: number): void {
  try {
    writeNoopFingerprint(p, summary, { targets, startedAt });
  } catch (err) {
    process.stderr.write(`warning: the no-op fingerprint was not written: ${(err as Error).message}\n`);
  }
}

/** The run itself: progress shown, Ctrl-C finishing the units in flight, the LLM client made only when a stage needs it. */
async function runWithInterrupt(p: Project, targets: string[], o: RunFlags, retryKinds: string[]): Promise<RunSummary> {
  const progress = progressSink();
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\ninterrupt: finishing the rows in flight and keeping them (press Ctrl-C again to quit now)\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  const { llmClient, llmViews } = p.extensions;
  // Created only when a stage runs: a run that reuses everything never loads the client (and
  // the pool starts no thread until a stage's work is worth it).
  const threads = runThreads(o, p.dag.config.workers);
  let llm: RunLlm | undefined;
  const makeLlm = llmClient ? async () => (llm ??= await llmClient(p, { threads }))?.client : undefined;
  try {
    return await runDag(p.dag, p.ws, {
      targets,
      force: o.force,
      dryRun: o.dryRun,
      retryFailed: o.retryFailed,
      retryKinds,
      jobs: o.jobs,
      threads,
      waitSeconds: o.wait,
      llm: makeLlm,
      extraViews: () => llm?.views() ?? llmViews?.(p) ?? {},
      onEvent: progress.sink,
      signal: controller.signal,
    });
  } finally {
    progress.stop();
    await llm?.close();
    await threads.close();
    process.off('SIGINT', onSigint);
  }
}
