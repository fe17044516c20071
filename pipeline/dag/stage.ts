/**
 * What a stage module exports: its output columns and a function. The runner supplies inputs,
 * params and a context; the stage never sees hashes, files of the store or the warehouse.
 */
import type { Columns, Row } from './define.ts';

export interface StageContext<P = Record<string, unknown>> {
  stage: string;
  params: P;
  /** Project root, for stages that read source files named by their rows. */
  root: string;
  /** The run's LLM client seen from this stage (undefined when the run has none). */
  llm: unknown;
  log(message: string): void;
  signal: AbortSignal;
  /**
   * False when the run persists nothing (`cdp estimate`): a stage with effects outside the store
   * (report files) computes its rows but writes nothing.
   */
  persist: boolean;
}

export interface TableStage<P = Record<string, unknown>> {
  kind: 'table';
  columns: Columns;
  run(inputs: Record<string, Row[]>, ctx: StageContext<P>): Row[] | Promise<Row[]>;
}

export interface Unit {
  /** The driving row. */
  row: Row;
  /** The element of the cross param for this unit, when the stage crosses one. */
  cross?: unknown;
  /** For each joined input, its rows that share the join column with `row`. */
  joined: Record<string, Row[]>;
  /** Inputs passed whole (neither driving nor joined). */
  whole: Record<string, Row[]>;
}

export interface RowStage<P = Record<string, unknown>> {
  kind: 'row';
  columns: Columns;
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
