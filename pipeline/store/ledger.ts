/**
 * The record of what ran (DVC's lock file, kept in the store): for each stage, the key it ran
 * under, the components of that key, and the artifact it produced. `cdp status` compares the
 * current components against it to explain why a stage is stale.
 */
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from './atomic.ts';
import type { SegmentRef } from './segments.ts';
import type { FailureKinds } from './segment-tally.ts';

export interface KeyComponents {
  code: { hash: string; files: Record<string, string>; packages: Record<string, string> };
  params: { hash: string; value: unknown };
  /** Local input name → the producing source/stage and its artifact hash. */
  inputs: Record<string, { from: string; hash: string }>;
  /** Hash of the stage's declared shape: columns and row mapping. */
  shape: string;
  /**
   * A row-mapped stage's crossed param: its elements key the stage (a new model reruns it) but
   * not its units, which each carry their own element. Absent for other stages, and in ledgers
   * written before it was recorded.
   */
  cross?: { param: string; hash: string; value: unknown[] };
}

export interface LedgerEntry {
  key: string;
  components: KeyComponents | null;
  artifact: string;
  /** The artifact's segments, in order, with their files' size, mtime and sha256; absent in ledgers of an older cdp. */
  segments?: SegmentRef[];
  /** A row-mapped stage's record of where each output segment came from (see RowStageRecord). */
  rowStage?: RowStageRecord;
  /** A partitioned table stage's partition keys (its memo's units that made the artifact; `cdp clean` keeps them). */
  partitionKeys?: string[];
  rows: number;
  /** Rows carrying an error (failure rows); `--retry-failed` reruns stages that have any. */
  failed: number;
  /** What the run summary says of the rows, tallied when they were written, so a reuse reads no artifact. */
  facts?: RowFacts;
  finishedAt: string;
}

/**
 * What a row-mapped stage keeps of its last run so that its next run can reuse output segments
 * without reading the inputs they came from: an output segment is the rows of the units of one
 * driving segment × one crossed element, and stays valid while what every unit shares, that
 * driving segment and the rows its units joined are unchanged.
 */
export interface RowStageRecord {
  /** Hash of what every unit shares: code, params but the crossed one, whole inputs, shape. */
  common: string;
  /** Per output segment (parallel to `segments`): the driving segment, the crossed element's hash, its units. */
  from: { drive: string; cross: string; units: number }[];
  /** Each joined input's segment hashes, in order, as the units joined them. */
  joins: Record<string, string[]>;
  /**
   * The smallest and largest join values (canonical JSON, by string order; null: no rows) of the
   * input segments, by segment hash and column: a segment none of whose values is looked for is not read.
   */
  zones?: Record<string, Record<string, [string, string] | null>>;
}

/**
 * A stage's most common failure reasons (numbers folded to N), its rows by `failure_kind` (see
 * segment-tally.ts) and the distinct values of its `covers` column.
 */
export interface RowFacts {
  failureReasons?: { reason: string; count: number; example: string }[];
  failureKinds?: FailureKinds;
  covered?: { column: string; count: number };
}

export interface Ledger {
  version: 1;
  entries: Record<string, LedgerEntry>;
}

/**
 * The ledger, or an empty one when none exists yet. A file that exists but cannot be read as a
 * ledger is not "never ran" in silence: `warning` says so, naming the file.
 */
export function loadLedger(path: string): { ledger: Ledger; warning: string | null } {
  const empty = (): Ledger => ({ version: 1, entries: {} });
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ledger: empty(), warning: null };
    return { ledger: empty(), warning: `cannot read the ledger ${path} (${(err as Error).message})` };
  }
  let problem: string;
  try {
    const l = JSON.parse(text) as Ledger;
    if (l && l.version === 1 && l.entries && typeof l.entries === 'object') return { ledger: l, warning: null };
    problem = `not a version 1 ledger`;
  } catch (err) {
    problem = (err as Error).message;
  }
  return { ledger: empty(), warning: `the ledger ${path} is corrupt (${problem})` };
}

/** The ledger for readers that only inspect it (explain, the fingerprint); a corrupt one reads as empty. */
export function readLedger(path: string): Ledger {
  return loadLedger(path).ledger;
}

export function writeLedger(path: string, ledger: Ledger): void {
  writeFileAtomic(path, JSON.stringify(ledger, null, 1));
}
