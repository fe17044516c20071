/**
 * The runner's shared shapes, in one module every other file of pipeline/exec imports downward:
 * what a run is asked to do and what it reports (RunOptions, RunSummary, StageResult, RunEvent),
 * what a stage's run hands to the commit (StageOutput), and the row stage's plan (Input, Plan,
 * PendingRow, Part). Plain types only, so no two modules of the runner import each other.
 */
import type { Row } from '../dag/define.ts';
import type { StageContext, StageLlm } from '../dag/stage.ts';
import type { ResolvedStage } from '../dag/validate.ts';
import type { ArtifactPart, SegmentRef } from '../store/artifacts.ts';
import type { KeyComponents, LedgerEntry, RowFacts, RowStageRecord } from '../store/ledger.ts';
import type { ThreadPool } from '../threads/pool.ts';

export type StageStatus = 'ran' | 'reused' | 'failed' | 'not-run' | 'would-run';

/** With its facts (RowFacts): the most common reasons of its failure rows and its coverage. */
export interface StageResult extends RowFacts {
  stage: string;
  status: StageStatus;
  rowsComputed: number;
  rowsReused: number;
  rowsFailed: number;
  /** Calls sent to models (cached ones included), not those answered by offline providers. */
  llmCalls: number;
  llmCached: number;
  /** The stage's LLM client counters as the client reports them (calls, offline, cached, failed, tokens, cost). */
  counters: Record<string, number>;
  tokensIn: number;
  tokensOut: number;
  seconds: number;
  /** Why it ran (or would run). */
  reasons?: string[];
  error?: string;
  /** When it ran over an artifact of the same stage: that artifact's failure rows and rows by kind (what a retry cleared). */
  previous?: { rowsFailed: number; failureKinds?: RowFacts['failureKinds'] };
  /** The stage's `requiresRows` sentence, when it has no row but failure rows. */
  empty?: string;
  /** A partitioned table stage's partitions computed and taken from its memo (rowsComputed/rowsReused count their rows). */
  partitions?: { computed: number; reused: number };
}

export interface RunSummary {
  ok: boolean;
  stages: StageResult[];
  /** Problems with the store itself (a corrupt ledger, a warehouse that could not be refreshed), also written to stderr. */
  warnings?: string[];
  /** The worker threads: how many the run may use, how many it started, units and offline answers computed on each side. */
  threads?: ReturnType<ThreadPool['stats']>;
}

/** What the runner needs of an LLM client: a per-stage view whose counters it can read. */
export interface LlmLike {
  forStage(stage: string): StageLlm;
}

export type RunEvent =
  | { type: 'stage-start'; stage: string; total: number | null; reasons: string[] }
  | { type: 'stage-progress'; stage: string; done: number; total: number }
  | { type: 'stage-end'; result: StageResult };

export interface RunOptions {
  /** Stages to bring up to date, with whatever they need; all when empty. */
  targets?: string[];
  force?: boolean;
  dryRun?: boolean;
  /**
   * Compute what is stale but persist nothing: no artifacts, memo, ledger, runs or warehouse.
   * `cdp estimate` runs this way with an LLM client that counts its misses instead of sending them.
   */
  ephemeral?: boolean;
  retryFailed?: boolean;
  /** Failure kinds to ask again besides failure rows (`cdp run --retry-answers`: ['answer']); see StageContext.retrying. */
  retryKinds?: string[];
  jobs?: number;
  /** Worker threads for pure stages' units (DagConfig.workers); ignored when `threads` is given. */
  workers?: number;
  /** A pool shared with the caller (and its LLM client's offline providers); the caller closes it. */
  threads?: ThreadPool;
  waitSeconds?: number;
  /**
   * The run's LLM client, or a factory called when the first stage actually runs, so that a
   * run that reuses everything never loads it.
   */
  llm?: LlmLike | (() => Promise<LlmLike | undefined>);
  /** Extra warehouse views (name → SQL relation), e.g. the LLM call log. */
  extraViews?: () => Record<string, string>;
  onEvent?: (e: RunEvent) => void;
  signal?: AbortSignal;
  /**
   * `cdp verify`: every artifact reused is hashed in full and its ledger entry checked against its
   * segments; what does not match is rebuilt (with `dryRun`, only reported: `cdp status --verify`).
   * A stage stale for another reason is not run, only reported, as in a dry run.
   */
  verify?: boolean;
  /** The joined NDJSON a row stage plans at once, about (join-chunks.ts; tests lower it). */
  joinedBytesPerGroup?: number;
}

/** What a node of the DAG gives its descendants. */
export interface Outcome {
  ok: boolean;
  hash: string;
  /** The artifact's segments in the store; null when its rows are only in memory (an ephemeral run) or not made (a dry run). */
  segments: readonly SegmentRef[] | null;
  /** Set when the node will rerun in a dry run, so descendants know their inputs will change. */
  pending?: boolean;
}

/** An input as a stage reads it: its segments in the store (null: rows only in memory) and all its rows. */
export interface Input {
  from: string;
  segments: readonly SegmentRef[] | null;
  rows: () => Row[];
}

/** What a stage's run hands to the commit: its artifact in parts and what it counted. */
export interface StageOutput {
  parts: Iterable<ArtifactPart>;
  computed: number;
  reused: number;
  /** A partitioned table stage's partitions computed and reused, and the memo keys of all of them (kept by `cdp clean`). */
  partitions?: { computed: number; reused: number };
  partitionKeys?: string[];
  /** A row stage's record of its parts (what the next run plans against); read after the parts are written. */
  record?: () => RowStageRecord;
  /** A row stage's unit keys and rows per unit, by part index (written beside each new segment). */
  units?: Map<number, string[]>;
  unitRows?: Map<number, number[]>;
  /** Settles when the units computed are on disk (their memo file fsynced). */
  durable?: Promise<void>;
}

/** What a row stage needs of the run around it. */
export interface RowStageEnv {
  store: string;
  retryFailed: boolean;
  /** Failure kinds whose units are recomputed too (rows with such a `failure_kind`, failed or not). */
  retryKinds?: readonly string[];
  ephemeral: boolean;
  /** Whether an input's rows are held in memory by this run (then they are read from there). */
  inMemory(from: string): boolean;
  emit(e: RunEvent): void;
  /** A problem of the store worth the user's attention (printed, and kept in the run summary). */
  warn?(message: string): void;
  /** Hash every standing part's files in full instead of comparing their stat (`cdp verify`). */
  fullChecks?: boolean;
  /** The run's worker threads, for the units of stages declared pure (pipeline/threads/row-units.ts). */
  threads?: ThreadPool;
  /** RunOptions.joinedBytesPerGroup. */
  joinedBytesPerGroup?: number;
}

/**
 * One unit of a row stage, planned: its key, driving row, crossed element and joined rows.
 * `joined` is null for a unit whose key was taken from the part it replaces (its rows are taken
 * from there too); `upstreamError` is set when the driving row is itself a failure.
 */
export interface Plan {
  key: string;
  row: Row;
  cross: unknown;
  joined: Record<string, Row[]> | null;
  upstreamError: string | null;
}

/** A part of a row stage's artifact: one standing as the last run made it, or one planned unit by unit. */
export type Part = { reuse: SegmentRef } | { plans: Plan[] };

/**
 * A driving row of a part to plan, with its join values (one per join column). `hash`: the sha256
 * of its line, computed only for a row whose unit key is not known already; `known`: per part of
 * its segment, the unit key taken from the part it replaces (undefined: keyed here).
 */
export interface PendingRow {
  row: Row;
  line: string | null;
  hash?: string;
  values: string[];
  known?: (string | undefined)[];
}

/** The rows of one driving segment to plan, and the parts (index into the artifact, crossed element) they make. */
export interface PendingSegment {
  seg: number;
  rows: PendingRow[];
  parts: { at: number; cross: number }[];
}

/** A stage that will run: what its decision found. */
export interface Go {
  name: string;
  stage: ResolvedStage;
  inputs: { local: string; from: string; segments: readonly SegmentRef[] | null }[];
  started: Date;
  key: string;
  components: KeyComponents;
  prev: LedgerEntry | undefined;
  reasons: string[];
  forced: boolean;
}

/** A stage prepared to run: its LLM view (none without a client), its context and its inputs. */
export interface Ready {
  llm: StageLlm | undefined;
  ctx: StageContext;
  inputs: Record<string, Input>;
}
