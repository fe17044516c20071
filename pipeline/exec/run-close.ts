/**
 * What a run leaves behind once its stages are done: the stat cache, the ledger, the run records
 * and the warehouse's views. Each is written even when an earlier one failed, and a failure is a
 * warning, never lost results: the stages' artifacts are already safe in the store.
 */
import { errorMessage } from '../store/disk-full.ts';
import type { StatCache } from '../hash/stat-cache.ts';
import type { Ledger } from '../store/ledger.ts';
import { appendRunRecords, type RunRecord } from '../store/warehouse.ts';
import type { LedgerWrites } from './ledger-writes.ts';
import { refreshViews, type LazyDuck } from './run-warehouse.ts';
import type { Workspace } from './workspace.ts';

export interface RunLeftovers {
  ws: Workspace;
  stat: StatCache;
  duck: LazyDuck;
  ledger: Ledger;
  ledgerWrites: LedgerWrites;
  records: RunRecord[];
  order: readonly string[];
  extraViews: Record<string, string>;
  /** cdp run --dry-run: the ledger, records and views stay as they are (the stat cache is saved). */
  dryRun: boolean;
  /** cdp estimate: the store is left exactly as it was found, stat cache included. */
  ephemeral: boolean;
  warn(message: string): void;
}

/** Whether the warehouse is up to date: when it is not, the run is not ok (and writes no no-op fingerprint). */
export async function closeRun(r: RunLeftovers): Promise<boolean> {
  if (!r.ephemeral) {
    try {
      r.stat.save();
    } catch (err) {
      // A cache: losing it costs the next run some hashing, nothing else.
      r.warn(`the stat cache was not saved: ${errorMessage(err, { dir: r.ws.statCache, what: `writing ${r.ws.statCache}` })}`);
    }
  }
  await r.duck.close();
  if (r.dryRun || r.ephemeral) return true;
  await r.ledgerWrites.flush();
  appendRunRecords(r.ws.runsLog, r.records, (m) => r.warn(m));
  try {
    await refreshViews(r.order, r.ledger, r.ws, r.extraViews);
    return true;
  } catch (err) {
    // The next run tries the refresh again.
    const why = errorMessage(err, { dir: r.ws.warehouse, what: `writing ${r.ws.warehouse}` });
    r.warn(`the warehouse ${r.ws.warehouse} could not be refreshed (${why}); rerun \`cdp run\` to rebuild it`);
    return false;
  }
}
