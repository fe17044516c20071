/**
 * What a project adds to `cdp` beyond the generic commands: its own subcommands (such as
 * `cdp ingest`) and the LLM client its stages use. Both are named exports of dag.config.ts,
 * so the runner itself stays free of anything the benchmark is about.
 */
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import type { Project } from './load.ts';
import { configFromArgv } from './load.ts';
import type { LlmLike } from '../exec/executor.ts';
import type { ThreadPool } from '../threads/pool.ts';

export type RegisterCommand = (program: Command, project: () => Promise<Project>) => void;

export interface RunLlm {
  client: LlmLike;
  /**
   * In estimate mode: the plan (the calls the run would send, per stage and model) and, given what
   * the estimate computed (`facts`), what it assumes.
   */
  estimate?(facts?: import('./estimate-plan.ts').EstimateFacts): string;
  /** The same as rows (per stage × model), for `cdp estimate --json`. */
  estimateRows?(): import('../llm/types.ts').EstimateRow[];
  /** What the estimate assumes, one sentence each, for `cdp estimate --json`. */
  estimateAssumptions?(facts: import('./estimate-plan.ts').EstimateFacts): string[];
  /** Each server-backed model's context window and its source, for `cdp estimate --json`. */
  windows?(): import('../llm/server-windows.ts').WindowFact[];
  /** Warehouse views the client contributes (name → SQL relation), e.g. llm_calls. */
  views(): Record<string, string>;
  close(): Promise<void>;
}

export interface Extensions {
  commands: RegisterCommand[];
  /** `threads`: the run's worker pool, for in-process providers that can answer on it. */
  llmClient?: (project: Project, opts?: { mode?: 'live' | 'estimate'; threads?: ThreadPool }) => Promise<RunLlm | undefined>;
  /** The views the client would contribute, without creating it (for runs that do not call it). */
  llmViews?: (project: Project) => Record<string, string>;
}

let loaded: Promise<Extensions> | null = null;

export function extensionCommands(): Promise<Extensions> {
  loaded ??= (async () => {
    const file = configFromArgv();
    if (!file) return { commands: [] }; // outside a project only the generic commands exist
    const mod = (await import(pathToFileURL(file).href)) as {
      cliCommands?: RegisterCommand[];
      llmClient?: Extensions['llmClient'];
      llmViews?: Extensions['llmViews'];
    };
    return { commands: mod.cliCommands ?? [], llmClient: mod.llmClient, llmViews: mod.llmViews };
  })();
  return loaded;
}
