/**
 * What a stage module exports: its output columns and a function. The runner supplies inputs,
 * params and a context; the stage never sees hashes, files of the store or the warehouse.
 */
import type { Columns, Row } from './define.ts';
import type { CallCounters, LlmStageClient } from '../llm/types.ts';
import type { ParamsDecl } from './params.ts';
import type { InputsDecl } from './inputs.ts';

/** The run's LLM client as one stage sees it: calls are tagged with the stage and counted apart. */
export type StageLlm = LlmStageClient;

export interface StageContext<P = Record<string, unknown>> {
  stage: string;
  params: P;
  /** Project root, for files the stage itself names (fonts, the report folder). */
  root: string;
  /**
   * The absolute file of a path a files-source row names (as the source listed it: relative to its
   * base when it declares one, so moving the data changes no key). The source is one the stage
   * reads, directly or through its inputs; a path none of them lists throws, naming it.
   */
  file(path: string): string;
  /** The run's LLM client seen from this stage; without one, its calls throw saying so. */
  llm: StageLlm;
  log(message: string): void;
  signal: AbortSignal;
  /**
   * False when the run persists nothing (`cdp estimate`): a stage with effects outside the store
   * (report files) computes its rows but writes nothing.
   */
  persist: boolean;
  /**
   * The failure kinds this run asks again (`cdp run --retry-answers`: ['answer']): a unit whose
   * rows carry such a `failure_kind` is recomputed, and the stage may then refuse the stored
   * answer that made it one (`llm.reject`) to get a fresh sample. Empty in an ordinary run.
   */
  retrying?: readonly string[];
  /**
   * In a partitioned table stage, the key of the partition this call computes (see
   * `Partitioning`); absent when the stage runs whole. A stage whose partitions overlap (a pooled
   * 'all' beside each setting) reads it to know which of its groups to report.
   */
  partition?: string;
  /**
   * In a partitioned table stage that declares `Partitioning.common`: what it derived from the
   * inputs every partition takes whole, derived once per run (once per worker) and handed to each
   * partition's call. Absent when the stage runs whole.
   */
  common?: unknown;
}

/** A partition's key for a row: the columns whose values name it, or a function giving one key or several. */
export type PartitionKeyOf<P> = readonly string[] | ((row: Row, params: P) => string | readonly string[]);

/**
 * A table stage whose rows each depend only on the rows of one partition of its inputs (a mean
 * per setting × model, a rank correlation per setting): the runner cuts the inputs into
 * partitions, hashes each partition's rows, computes only the partitions whose hash it has not
 * seen (calling `run` once per partition, with that partition's rows and `ctx.partition`), and
 * takes the others' rows from its memo. The result must be what one call over every row gives.
 */
export interface Partitioning<P> {
  /**
   * Per input, which partition(s) a row belongs to. An input not named goes whole to every
   * partition, so a change to it recomputes them all. A partition exists when a row names it.
   */
  by: Record<string, PartitionKeyOf<P>>;
  /**
   * The order of the result's rows: the partitions' rows are put together in key order, then
   * sorted stably by this, so the artifact is the one a whole run writes. Without it, key order.
   */
  order?: (a: Row, b: Row) => number;
  /** Partitions computed at once (for a run that awaits); default 4. */
  concurrency?: number;
  /**
   * What every partition derives alike from the inputs it takes whole (those `by` does not name)
   * and the params: derived once, not once per partition, and handed to each as `ctx.common`. A
   * pure function of those inputs and params; `run` derives it itself when `ctx.common` is absent.
   */
  common?: (whole: Record<string, Row[]>, params: P) => unknown;
}

export interface TableStage<P = Record<string, unknown>> {
  kind: 'table';
  columns: Columns;
  /** Every input the stage reads: 'whole', or 'optional whole' when the config may leave it out (see inputs.ts). */
  inputs?: InputsDecl;
  /** Every param the stage reads, as a schema with its type, range and default (see params.ts). */
  params?: ParamsDecl<P>;
  /**
   * The columns the stage reads of an input, when not all of them: the runner hands it rows with
   * those members only and never builds the others, so a summary of a wide table holds only what
   * it uses. Under `CDP_CHECK_READS=1` (the test suite) reading an undeclared column throws.
   */
  reads?: Record<string, readonly string[]>;
  /** When its result is a union of per-partition results: the runner then recomputes only partitions whose rows changed. */
  partition?: Partitioning<P>;
  /**
   * Its rows (with a `partition`, each partition's) are a function of its inputs and the params
   * alone, computed without an LLM client or any state (files only those an input's rows name,
   * whose content is in the key): the runner may then compute it (or its partitions) on worker
   * threads (`--workers`), where `run` gets copies of the rows (of a declared `reads`, those
   * columns only) and its logs are printed by the main thread. Results are the same wherever it runs.
   */
  pure?: boolean;
  run(inputs: Record<string, Row[]>, ctx: StageContext<P>): Row[] | Promise<Row[]>;
}

export interface Unit {
  /** The driving row. */
  row: Row;
  /** The element of the cross param for this unit, when the stage crosses one. */
  cross?: unknown;
  /** For each joined input, its rows that share the join column with `row` (none for an absent optional one). */
  joined: Record<string, Row[]>;
  /** Inputs passed whole (neither driving nor joined); an absent optional one is []. */
  whole: Record<string, Row[]>;
}

export interface RowStage<P = Record<string, unknown>> {
  kind: 'row';
  columns: Columns;
  /** Every input the stage reads: the one it 'drives' by, those 'joined' to each unit, those taken 'whole' (see inputs.ts). */
  inputs?: InputsDecl;
  /** Every param the stage reads, as a schema with its type, range and default (see params.ts). */
  params?: ParamsDecl<P>;
  /**
   * When true, `run` is called for a driving row that carries an `error` too (the stage maps the
   * failure itself); by default the runner writes that unit's upstream failure row without calling it.
   */
  seesFailedRows?: boolean;
  /**
   * The unit's rows are a function of the unit and the params alone, computed without an LLM
   * client, files or any state: the runner may then compute units on worker threads (`--workers`),
   * where `run` gets a copy of the unit and its logs are printed by the main thread. Results are
   * the same wherever a unit runs.
   */
  pure?: boolean;
  /** One unit's output rows. Throwing makes a failure row; returning rows with `error` set does too. */
  run(unit: Unit, ctx: StageContext<P>): Row | Row[] | Promise<Row | Row[]>;
}

export type StageImpl<P = Record<string, unknown>> = TableStage<P> | RowStage<P>;

export function tableStage<P = Record<string, unknown>>(def: Omit<TableStage<P>, 'kind'>): TableStage<P> {
  return { kind: 'table', ...def };
}

export function rowStage<P = Record<string, unknown>>(def: Omit<RowStage<P>, 'kind'>): RowStage<P> {
  return { kind: 'row', ...def };
}

const NO_COUNTERS: CallCounters = { calls: 0, offline: 0, cached: 0, failed: 0, inputTokens: 0, outputTokens: 0, estimatedCostUsd: 0 };

/** The `llm` of a run without a client: a stage that never calls a model does not notice it. */
export function missingLlm(stage: string): StageLlm {
  const refuse = (): never => {
    throw new Error(`stage ${stage} calls models but the run has no LLM client; run it through \`cdp run\`, or pass { llm } to runDag`);
  };
  return {
    stage,
    chat: async () => refuse(),
    embed: async () => refuse(),
    blob: refuse,
    reject: async () => refuse(),
    counters: () => ({ ...NO_COUNTERS }),
  };
}
