/**
 * What a project adds to `cdp` beyond the runner's commands: its own subcommands (such as
 * `cdp ingest`) and the LLM client its stages use. Both are named exports of the configuration
 * module, so the runner itself stays free of anything the benchmark is about.
 */
import type { Command } from 'commander';
import type { CommandOptions, Project } from './load.ts';
import type { LlmLike } from '../exec/executor.ts';
import type { ThreadPool } from '../threads/pool.ts';

/**
 * One command: registered on the program, given a way to load the command's project (its DAG
 * built and validated) and one to load only its options (for commands that need no DAG).
 */
export type RegisterCommand = (program: Command, project: () => Promise<Project>, options: () => Promise<CommandOptions>) => void;

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

/** A configuration module: its DAG (default export) and what it adds. */
export interface ConfigModule {
  default?: unknown;
  cliCommands?: RegisterCommand[];
  llmClient?: Extensions['llmClient'];
  llmViews?: Extensions['llmViews'];
}

export function projectExtensions(mod: ConfigModule): Extensions {
  return { commands: mod.cliCommands ?? [], llmClient: mod.llmClient, llmViews: mod.llmViews };
}
