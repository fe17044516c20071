/**
 * The one commit path of sources and stages in a run that persists: the artifact, then its
 * ledger entry. The stage counts as done only once the units it computed are on disk too, so the
 * ledger never names an artifact whose memo a kill could still lose.
 */
import { writeArtifact, type ArtifactPart, type SegmentRef } from '../store/artifacts.ts';
import type { Ledger, LedgerEntry, KeyComponents, RowFacts, RowStageRecord } from '../store/ledger.ts';
import type { ResolvedStage } from '../dag/validate.ts';
import type { LedgerWrites } from './ledger-writes.ts';
import type { LazyDuck } from './run-warehouse.ts';
import { artifactFacts } from './row-summary.ts';

export interface CommitEntry {
  key: string;
  components: KeyComponents | null;
  covers?: string;
  record?: RowStageRecord;
  /** Settles when the units behind the artifact are durable (the memo's fsync in flight). */
  durable?: Promise<void>;
  partitionKeys?: string[];
}

export interface Committed {
  hash: string;
  /** null: nothing was written (an ephemeral run keeps the rows in memory). */
  segments: SegmentRef[] | null;
  failed: number;
  facts: RowFacts;
}

/** Where a commit writes: the store, the run's ledger and its writes, DuckDB for the Parquet copies. */
export interface CommitTarget {
  store: string;
  ledger: Ledger;
  ledgerWrites: LedgerWrites;
  duck: LazyDuck;
  /** cdp verify / status --verify: hash every reused segment in full. */
  fullChecks: boolean;
}

export async function commitArtifact(
  t: CommitTarget,
  name: string,
  parts: Iterable<ArtifactPart>,
  columns: ResolvedStage['columns'],
  prev: LedgerEntry | undefined,
  entry: CommitEntry,
): Promise<Committed> {
  const artifact = await writeArtifact(t.store, name, parts, columns, t.duck.connection, prev?.segments, {
    covers: entry.covers,
    fullChecks: t.fullChecks,
  });
  await entry.durable;
  // Summed from what each segment recorded when it was written: a reused segment is not read.
  const { failed, facts } = artifactFacts(t.store, name, artifact.segments, entry.covers);
  const record = entry.record;
  t.ledger.entries[name] = {
    key: entry.key,
    components: entry.components,
    artifact: artifact.hash,
    segments: artifact.segments,
    ...(record ? { rowStage: record } : {}),
    ...(entry.partitionKeys ? { partitionKeys: entry.partitionKeys } : {}),
    rows: artifact.rows,
    failed,
    facts,
    finishedAt: new Date().toISOString(),
  };
  await t.ledgerWrites.save();
  return { hash: artifact.hash, segments: artifact.segments, failed, facts };
}
