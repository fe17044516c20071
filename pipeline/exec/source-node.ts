/**
 * A source's node in the run: its files listed and hashed (through the stat cache), reused when
 * they hash as before, rewritten otherwise. A source's key is its artifact's hash, a function of
 * its files alone, so rewriting it changes nothing downstream unless a file did.
 */
import { FILE_SOURCE_COLUMNS, type FileSource } from '../dag/define.ts';
import type { StatCache } from '../hash/stat-cache.ts';
import { hashRows, type ArtifactCheck, type ArtifactPart } from '../store/artifacts.ts';
import { errorMessage } from '../store/disk-full.ts';
import type { Ledger, LedgerEntry } from '../store/ledger.ts';
import type { CommitEntry, Committed } from './artifact-commit.ts';
import { decideReuse } from './reuse-decision.ts';
import type { Outcome, StageResult, StageStatus } from './runner-types.ts';
import { sourceDir, sourceRows } from './sources.ts';

/** What a source's node needs of the run: the executor's checks, commit and record of results. */
export interface SourceRun {
  root: string;
  store: string;
  stat: StatCache;
  ledger: Ledger;
  dryRun: boolean;
  /** cdp verify / status --verify: say what would be rebuilt instead of rebuilding a changed source. */
  verifying: boolean;
  ephemeral: boolean;
  verify(name: string, entry: LedgerEntry | undefined): ArtifactCheck;
  commit(
    name: string,
    parts: ArtifactPart[],
    columns: typeof FILE_SOURCE_COLUMNS,
    prev: LedgerEntry | undefined,
    entry: CommitEntry,
  ): Promise<Committed>;
  finish(name: string, r: Partial<StageResult> & { status: StageStatus }, started: Date, key?: string): void;
}

const FAILED: Outcome = { ok: false, hash: '', segments: null };

export async function runSource(r: SourceRun, name: string, src: FileSource): Promise<Outcome> {
  const started = new Date();
  try {
    const rows = sourceRows(r.root, src, r.stat);
    const { hash } = hashRows(rows, FILE_SOURCE_COLUMNS, name);
    const prev = r.ledger.entries[name];
    const sameKey = prev?.artifact === hash;
    const stale = prev ? 'files changed' : 'never ran';
    const check: ArtifactCheck = sameKey ? r.verify(name, prev) : { ok: false, reason: stale };
    const decision = decideReuse({ sameKey, check, staleness: () => [stale] });
    if (r.dryRun || (r.verifying && decision.run && !decision.rebuildOnly)) {
      // Rewriting a source's artifact changes nothing downstream, so a dry run has no pending hash.
      const reasons = decision.run ? decision.reasons : undefined;
      r.finish(name, { status: decision.run ? 'would-run' : 'reused', rowsReused: rows.length, reasons }, started, hash);
      return { ok: true, hash, segments: sameKey && check.ok ? prev!.segments! : null };
    }
    if (!rows.length) {
      const under = src.base === undefined ? '' : ` under ${sourceDir(r.root, src)}`;
      throw new Error(`source '${name}' matches no files (patterns: ${src.patterns.join(', ')}${under})`);
    }
    if (!decision.run) {
      r.finish(name, { status: 'reused', rowsReused: rows.length }, started, hash);
      return { ok: true, hash, segments: prev!.segments! };
    }
    const done = await r.commit(name, [{ rows, chunk: true }], FILE_SOURCE_COLUMNS, prev, { key: hash, components: null });
    // An ephemeral run of a source states no reason (as before): nothing is written.
    const shown = r.ephemeral ? {} : { reasons: decision.reasons };
    r.finish(name, { status: 'ran', rowsComputed: rows.length, ...shown }, started, hash);
    return { ok: true, hash: done.hash, segments: done.segments };
  } catch (err) {
    const error = errorMessage(err, { dir: r.store, what: `source '${name}' was written` });
    r.finish(name, { status: 'failed', error }, started);
    return FAILED;
  }
}
