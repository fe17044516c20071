/**
 * The `cdp` command line. Each command is a thin shell over a function of its own module;
 * this file only parses arguments and maps outcomes to output and exit codes.
 */
import { Command, Option } from 'commander';
import { loadProject, type Project } from './load.ts';
import { runDag, type RunSummary, type StageResult } from '../exec/executor.ts';
import { progressSink } from './progress.ts';
import { renderDag, type DagFormat } from './render-dag.ts';
import { explainStage } from './explain.ts';
import { streamWarehouseQuery } from './sql.ts';
import { DEFAULT_MEMORY_LIMIT, DEFAULT_TIMEOUT, sqlBounds } from './sql-bounds.ts';
import { jsonArraySink, tableSink } from './sql-output.ts';
import { exitQuietlyOnEpipe, pacedWriter } from './stdout.ts';
import { cleanStore } from './clean.ts';
import { formatVerify, registerVerify, verifyStore } from './verify.ts';
import { extensionCommands, type RunLlm } from './extensions.ts';
import { startRecordingEnv, stopRecordingEnv } from './env-reads.ts';
import { writeNoopFingerprint } from './noop-fingerprint.ts';
import { applyConfigOptions, readConfigOptions, registerConfigOptions } from './config-options.ts';
import { configProblems, outstandingKinds, runReport } from './run-report.ts';
import { runExitCode } from './exit-code.ts';
import { estimateJson } from '../llm/estimate-report.ts';
import { estimateFacts } from './estimate-plan.ts';
import { configFromArgv } from './load.ts';
import { dirname } from 'node:path';

// Which environment variables the configuration reads while it loads decides when the no-op
// fast path may answer (see noop-fingerprint.ts): record them from the start.
startRecordingEnv();

// The project's configuration options (--models, --limit, …) must be in the environment before
// the configuration is first imported, which registering its subcommands below does.
const configOptions = readConfigOptions(projectRoot());
try {
  applyConfigOptions(configOptions, process.argv.slice(2));
} catch (err) {
  process.stderr.write(`cdp: ${(err as Error).message}\n`);
  process.exit(2);
}

function projectRoot(): string | null {
  const config = configFromArgv();
  return config ? dirname(config) : null;
}

const program = new Command();
program
  .name('cdp')
  .description('Run and inspect the MEGA-CDP pipeline DAG')
  .option('--config <file>', 'path to dag.config.ts (default: nearest one above the current directory)')
  .option(
    '--set <stage.param=value>',
    "a stage param's value for this command, over dag.config.ts's (repeatable; JSON when it parses, else a string), e.g. --set outcome_scores.cutoff=3",
    (v: string, prev: string[]) => [...prev, v],
    [] as string[],
  );
registerConfigOptions(program, configOptions);

function out(s: string): void {
  process.stdout.write(s);
}

async function project(): Promise<Project> {
  const o = program.opts<{ config?: string; set: string[] }>();
  return loadProject({ config: o.config, set: o.set });
}

/** Configuration problems stop run and estimate before anything runs; warnings are printed. */
function refuseOnProblems(p: Project): boolean {
  const text = configProblems(p.dag.config);
  if (text.warnings) process.stderr.write(text.warnings);
  if (!text.problems) return false;
  process.stderr.write(text.problems);
  process.exitCode = 2;
  return true;
}

function jsonSummary(s: RunSummary): string {
  const stages = s.stages.map((r: StageResult) => ({
    stage: r.stage,
    status: r.status,
    rowsComputed: r.rowsComputed,
    rowsReused: r.rowsReused,
    rowsFailed: r.rowsFailed,
    llmCalls: r.llmCalls,
    llmCached: r.llmCached,
    counters: r.counters,
    seconds: r.seconds,
    ...(r.reasons ? { reasons: r.reasons } : {}),
    ...(r.error ? { error: r.error } : {}),
    ...(r.failureReasons ? { failureReasons: r.failureReasons } : {}),
    ...(r.failureKinds ? { failureKinds: r.failureKinds } : {}),
    ...(r.covered ? { covered: r.covered } : {}),
    ...(r.empty ? { empty: r.empty } : {}),
    ...(r.partitions ? { partitions: r.partitions } : {}),
  }));
  return JSON.stringify({ stages, ok: s.ok, outstanding: outstandingKinds(s.stages), exitCode: runExitCode(s) }) + '\n';
}

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
  .option('--wait <seconds>', 'wait this long for another run on the same store to finish', (v) => parseFloat(v), 0)
  .action(
    async (
      stages: string[],
      o: { force?: boolean; dryRun?: boolean; retryFailed?: boolean; retryAnswers?: boolean; json?: boolean; jobs?: number; wait: number },
    ) => {
      const p = await project();
      const envKeys = stopRecordingEnv();
      // A dry run says what `cdp run` would do, and `cdp run` would refuse: so does it.
      if (refuseOnProblems(p)) return;
      const startedAt = Date.now();
      const retryKinds = o.retryAnswers ? ['answer'] : [];
      const progress = progressSink();
      const controller = new AbortController();
      const onSigint = (): void => {
        if (controller.signal.aborted) process.exit(130);
        process.stderr.write('\ninterrupt: finishing the rows in flight and keeping them (press Ctrl-C again to quit now)\n');
        controller.abort();
      };
      process.on('SIGINT', onSigint);
      const extras = await extensionCommands();
      // Created only when a stage runs: a run that reuses everything never loads the client.
      let llm: RunLlm | undefined;
      const makeLlm = extras.llmClient ? async () => (llm ??= await extras.llmClient!(p))?.client : undefined;
      let summary: RunSummary;
      try {
        summary = await runDag(p.dag, p.ws, {
          targets: stages,
          force: o.force,
          dryRun: o.dryRun,
          retryFailed: o.retryFailed,
          retryKinds,
          jobs: o.jobs,
          waitSeconds: o.wait,
          llm: makeLlm,
          extraViews: () => llm?.views() ?? extras.llmViews?.(p) ?? {},
          onEvent: progress.sink,
          signal: controller.signal,
        });
      } finally {
        progress.stop();
        await llm?.close();
        process.off('SIGINT', onSigint);
      }
      if (!o.dryRun && summary.ok) {
        try {
          writeNoopFingerprint(p, p.configFile, summary, { targets: stages, envKeys, startedAt, sets: p.sets });
        } catch (err) {
          // Only the next no-op's speed depends on it.
          process.stderr.write(`warning: the no-op fingerprint was not written: ${(err as Error).message}\n`);
        }
      }
      if (o.json) out(jsonSummary(summary));
      const failed = summary.stages.filter((s) => s.status === 'failed');
      if (!o.json) {
        const counts = new Map<string, number>();
        for (const s of summary.stages) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
        process.stderr.write(`${summary.ok ? 'ok' : 'FAILED'}: ${[...counts].map(([k, v]) => `${v} ${k}`).join(', ')}\n`);
      }
      for (const f of failed) process.stderr.write(`failed: ${f.stage}: ${f.error}\n`);
      if (!o.dryRun) process.stderr.write(runReport(summary, { retryFailed: o.retryFailed, retryKinds }));
      process.exitCode = o.dryRun ? (summary.ok ? 0 : 1) : runExitCode(summary);
    },
  );

program
  .command('estimate')
  .description(
    'a plan of what the named stages (all when none) would send to LLMs: requests missing from the cache, tokens, cost and prompts over a window, per stage and model, with what it assumes; nothing is sent or stored',
  )
  .argument('[stages...]', 'stages to estimate')
  .option(
    '--json',
    'print {"stages", "models", "total", "rows", "assumptions", "windows"}: the plan with requests, tokens, cost and overflows, what it assumes, each model\'s window and its source',
  )
  .action(async (stages: string[], o: { json?: boolean }) => {
    const p = await project();
    if (refuseOnProblems(p)) return;
    const extras = await extensionCommands();
    if (!extras.llmClient) throw new Error('this project defines no LLM client (export llmClient from dag.config.ts)');
    const llm = await extras.llmClient(p, { mode: 'estimate' });
    if (!llm?.estimate) throw new Error('the project LLM client cannot estimate');
    let summary: RunSummary;
    try {
      // Stale stages are computed without persisting anything: offline (simulated) models
      // answer as usual, real models' cache misses are counted instead of sent. No progress
      // lines: what is printed is a plan, not a run.
      summary = await runDag(p.dag, p.ws, { targets: stages, ephemeral: true, llm: llm.client });
    } finally {
      await llm.close();
    }
    const rows = llm.estimateRows?.() ?? [];
    const facts = estimateFacts(p.dag, summary, rows);
    if (o.json) {
      const assumptions = llm.estimateAssumptions?.(facts) ?? [];
      out(JSON.stringify({ ...estimateJson(rows), assumptions, windows: llm.windows?.() ?? [] }) + '\n');
      return;
    }
    out(llm.estimate(facts) + '\n');
  });

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
      out(o.json ? JSON.stringify(r) + '\n' : formatVerify(r, false));
      process.exitCode = r.ok ? 0 : 1;
      return;
    }
    const plan = await runDag(p.dag, p.ws, { dryRun: true });
    const rows = plan.stages.map((s) => ({
      stage: s.stage,
      state: s.status === 'reused' ? 'fresh' : s.reasons?.includes('never ran') ? 'missing' : 'stale',
      reasons: s.status === 'reused' ? [] : (s.reasons ?? []),
    }));
    if (o.json) out(JSON.stringify(rows) + '\n');
    else for (const r of rows) out(`${r.state.padEnd(8)} ${r.stage}${r.reasons.length ? `  (${r.reasons.join('; ')})` : ''}\n`);
  });

program
  .command('dag')
  .description('print the DAG')
  .addOption(new Option('--format <format>', 'output format').choices(['text', 'mermaid', 'dot']).default('text'))
  .action(async (o: { format: DagFormat }) => {
    out(renderDag((await project()).dag, o.format));
  });

program
  .command('explain')
  .description('the components of a stage key and their hashes')
  .argument('<stage>')
  .action(async (stage: string) => {
    out(await explainStage(await project(), stage));
  });

program
  .command('sql')
  .description('one read-only query on the warehouse (one view per stage), streamed')
  .argument('<query>')
  .option('--json', 'print a JSON array of row objects, one per line')
  .option('--memory-limit <size>', "DuckDB's memory limit for the query, e.g. 512MB, 8GB", DEFAULT_MEMORY_LIMIT)
  .option('--timeout <duration>', 'stop the query after this much DuckDB time, e.g. 30s, 5m, or none', DEFAULT_TIMEOUT)
  .action(async (query: string, o: { json?: boolean; memoryLimit: string; timeout: string }) => {
    exitQuietlyOnEpipe();
    const bounds = sqlBounds(o);
    const p = await project();
    const write = pacedWriter(process.stdout);
    await streamWarehouseQuery(p.ws, query, o.json ? jsonArraySink(write) : tableSink(write), bounds);
  });

program
  .command('clean')
  .description('remove artifacts that no current key references')
  .action(async () => {
    const p = await project();
    const r = await cleanStore(p.ws);
    const temp = r.tempFilesRemoved ? `, ${r.tempFilesRemoved} temporary files left by killed runs` : '';
    const mb = (r.bytesFreed / 1e6).toFixed(1);
    out(`removed ${r.artifactsRemoved} artifact files${temp} (${mb} MB) and ${r.unitsDropped} stale unit results\n`);
  });

registerVerify(program, project);

for (const register of (await extensionCommands()).commands) register(program, project);

program.exitOverride((err) => {
  process.exit(err.exitCode);
});

try {
  await program.parseAsync(process.argv);
} catch (err) {
  process.stderr.write(`cdp: ${(err as Error).message}\n`);
  process.exitCode = 2;
}
