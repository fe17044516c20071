/**
 * The messages between the pool (main thread) and its workers. A task names a module and one of
 * its exports, `(item, shared) => result`; `shared` is what every item of a task has in common
 * (a stage's params and whole inputs), sent to a worker once, before its first batch, and
 * released when the task ends. Items travel in batches: one message carries many items, because
 * a message costs about as much as a small unit's work. Values many items share (a dialogue's case
 * and tree across its turns) may travel beside an item as its `refs`: each crosses to a worker
 * once, by identity, and the worker hands it to the function with every item that refers to it.
 */

/** Batches a worker holds at once: one running, one waiting, so it never waits for a message. */
export const IN_FLIGHT = 2;
/** The largest batch: what is in flight is at most workers × IN_FLIGHT × MAX_BATCH items. */
export const MAX_BATCH = 64;
/** Shared values a worker keeps per task, the least recently sent dropped first: its memory for them is bounded. */
export const MAX_REFS = 2048;

/** An item waiting for, or on, a worker (main thread). */
export interface Pending {
  task: number;
  item: unknown;
  resolve(v: unknown): void;
  reject(e: Error): void;
  /** Sent alone: it was in a batch whose worker died. */
  alone?: boolean;
  /** Objects the item shares with others, sent to each worker once (by identity) and handed to the function as its third argument. */
  refs?: readonly object[];
}

/** What a task needs of its pool. */
export interface Submitter {
  readonly threaded: boolean;
  readonly started: boolean;
  submit(p: Pending): void;
  release(task: number): void;
}

/** Main → worker. */
export type ToWorker =
  | { type: 'shared'; task: number; module: string; fn: string; shared: unknown }
  | {
      type: 'batch';
      id: number;
      task: number;
      items: unknown[];
      /** Each item's shared values by id (null for an item without); `values` brings the ids the worker lacks, after it drops `drop`. */
      refs?: { of: (number[] | null)[]; values: [number, unknown][]; drop: number[] };
    }
  | { type: 'release'; task: number };

/** One item's outcome: its value, or the error it threw (as plain data: an Error does not cross whole). */
export type ItemOutcome = { ok: true; value: unknown } | { ok: false; error: ThrownError };

export interface ThrownError {
  message: string;
  name?: string;
  code?: string;
  stack?: string;
}

/** Worker → main. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'done'; id: number; outcomes: ItemOutcome[] }
  /** The task's module could not be loaded or has no such export: every batch of it fails with this. */
  | { type: 'task-error'; id: number; error: ThrownError };

export function thrown(err: unknown): ThrownError {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return { message: err.message, name: err.name, stack: err.stack, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { message: String(err) };
}

/** The error again on this side, with its code (errorMessage reads ENOSPC from it) and the worker's stack. */
export function rethrown(e: ThrownError): Error {
  const err = new Error(e.message) as Error & { code?: string };
  if (e.name) err.name = e.name;
  if (e.code) err.code = e.code;
  if (e.stack) err.stack = e.stack;
  return err;
}
