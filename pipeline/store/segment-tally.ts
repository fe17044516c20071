/**
 * What the run summary says of an artifact's rows — its failure rows, their most common reasons,
 * the distinct values of one column ("covered 5 cdp_id") — tallied one segment at a time as the
 * segment is written, so that an artifact made mostly of reused segments is summed from what they
 * recorded, never read again. Failure counts and reasons live in the segment's ledger record; the
 * covered values, too many for the ledger, in a file beside the segment (`<hash>.covers-<column>`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LineWriter, readLines } from './lines.ts';
import { tempPathFor } from './atomic.ts';
import { renameSync, rmSync } from 'node:fs';
import type { Row } from '../dag/define.ts';

export interface Reason {
  reason: string;
  count: number;
  example: string;
}

/**
 * Rows of one `failure_kind` (a stage's own label of a failure, a generic column): `failed` with
 * an `error` (failure rows, which `--retry-failed` recomputes), `results` without one (a failure
 * the stage keeps as its result, which only a retry of that kind recomputes).
 */
export interface KindCount {
  failed: number;
  results: number;
}

export type FailureKinds = Record<string, KindCount>;

/** The kind failure rows without a `failure_kind` are counted under. */
export const UNLABELLED_KIND = 'other';
/** The kind of a failure row made for a row that failed upstream (the runner's, and stages' own): counted where it failed. */
export const UPSTREAM_KIND = 'upstream';

export function addKinds(into: FailureKinds, from: FailureKinds | undefined): void {
  for (const [k, c] of Object.entries(from ?? {})) {
    const t = (into[k] ??= { failed: 0, results: 0 });
    t.failed += c.failed;
    t.results += c.results;
  }
}

/** The distinct reasons a segment keeps (beyond them, only the count grows). */
const MAX_REASONS = 20;

/** "context overflow (120345 tokens > window 32768)" and its siblings are one reason. */
export function foldReason(error: unknown): { reason: string; example: string } {
  const example = String(error);
  return { reason: example.replace(/\d+(\.\d+)?/g, 'N'), example };
}

export class FactTally {
  failed = 0;
  readonly reasons = new Map<string, Reason>();
  readonly covered = new Set<string>();
  readonly kinds: FailureKinds = {};

  constructor(readonly covers?: string) {}

  add(r: Row): void {
    const kind = r.failure_kind == null ? null : String(r.failure_kind);
    if (kind !== null || r.error != null) {
      const k = (this.kinds[kind ?? UNLABELLED_KIND] ??= { failed: 0, results: 0 });
      if (r.error != null) k.failed++;
      else k.results++;
    }
    if (r.error != null) {
      this.failed++;
      const { reason, example } = foldReason(r.error);
      const g = this.reasons.get(reason);
      if (g) g.count++;
      else if (this.reasons.size < MAX_REASONS) this.reasons.set(reason, { reason, count: 1, example });
    } else if (this.covers && r[this.covers] != null) this.covered.add(String(r[this.covers]));
  }

  /** Adds what a segment recorded. */
  merge(failed: number, reasons: readonly Reason[] | undefined, covered: Iterable<string>, kinds?: FailureKinds): void {
    this.failed += failed;
    // A segment written before kinds were recorded: its failure rows count as unlabelled.
    addKinds(this.kinds, kinds ?? (failed ? { [UNLABELLED_KIND]: { failed, results: 0 } } : undefined));
    for (const r of reasons ?? []) {
      const g = this.reasons.get(r.reason);
      if (g) g.count += r.count;
      else this.reasons.set(r.reason, { ...r });
    }
    for (const v of covered) this.covered.add(v);
  }

  /** The most common reasons, most frequent first (ties by reason), at most `n`. */
  top(n = 3): Reason[] {
    return [...this.reasons.values()].sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : 1)).slice(0, n);
  }
}

export function coversPath(storeDir: string, stage: string, hash: string, column: string): string {
  return join(storeDir, 'artifacts', stage, `${hash}.covers-${encodeURIComponent(column)}`);
}

/** Writes a segment's covered values beside it, once (a segment's content, and so they, never change). */
export function writeCovered(path: string, values: ReadonlySet<string>): void {
  if (existsSync(path)) return;
  const tmp = tempPathFor(path);
  try {
    const out = new LineWriter(tmp);
    try {
      for (const v of values) out.write(JSON.stringify(v));
    } finally {
      out.close();
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** A segment's covered values, or null when the file was never written (a segment of an older cdp). */
export function* readCovered(path: string): Generator<string> {
  for (const { line } of readLines(path)) yield JSON.parse(line) as string;
}
