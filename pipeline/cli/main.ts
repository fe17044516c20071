/**
 * The `cdp` command line: the configuration named by --config (or the nearest dag.config.ts) is
 * imported first, since it contributes commands; then commander parses the arguments once and
 * the command runs. Errors end with exit code 2 and a message saying what to do.
 */
import { findConfig } from './invocation.mjs';
import { importConfig } from './load.ts';
import { buildProgram } from './program.ts';
import { runnerCommands } from './commands/index.ts';
import type { ConfigModule } from './config-exports.ts';
import { limitHeapGrowth } from './heap-growth.ts';

/** The configuration file of an argument list, before commander parses it; null outside a project. */
function configOf(argv: readonly string[]): string | null {
  const i = argv.findIndex((a) => a === '--config' || a.startsWith('--config='));
  const explicit = i < 0 ? undefined : argv[i] === '--config' ? argv[i + 1] : argv[i]!.slice('--config='.length);
  try {
    return findConfig(process.cwd(), explicit);
  } catch {
    return null; // outside a project only the runner's commands exist (and say so when run)
  }
}

function fail(err: unknown): void {
  process.stderr.write(`cdp: ${(err as Error).message}\n`);
  process.exitCode = 2;
}

// Before any command allocates or starts a worker thread: the flag is the process's.
limitHeapGrowth();
const file = configOf(process.argv.slice(2));
let mod: ConfigModule = {};
try {
  if (file) mod = await importConfig(file);
} catch (err) {
  fail(err);
}
if (!process.exitCode) {
  const program = buildProgram([...runnerCommands, ...(mod.cliCommands ?? [])]);
  program.exitOverride((err) => {
    process.exit(err.exitCode);
  });
  try {
    await program.parseAsync(process.argv);
  } catch (err) {
    fail(err);
  }
}
