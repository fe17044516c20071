/**
 * `cdp clean`: removes artifacts and unit memos that no current ledger entry references, and the
 * temporary files of atomic writes that a killed process never renamed into place.
 */
import { readdirSync, rmSync, statSync, existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Workspace } from '../exec/workspace.ts';
import { loadLedger } from '../store/ledger.ts';
import { RowStore } from '../store/row-store.ts';
import { acquireRunLock } from '../store/run-lock.ts';
import { findTempFiles } from '../store/atomic.ts';
import { unitsPath, readUnitKeys } from '../store/unit-keys.ts';

export interface CleanReport {
  artifactsRemoved: number;
  bytesFreed: number;
  unitsDropped: number;
  tempFilesRemoved: number;
}

/**
 * Every temporary file a store's writers leave when killed between write and rename: anywhere in
 * the store (the no-op fingerprint among them), beside the warehouse (a refresh's new database and
 * its WAL) and in the project's .cdp folder (where earlier versions kept the fingerprint).
 */
export function orphanedTempFiles(ws: Workspace): string[] {
  return [
    ...findTempFiles(ws.store, { recursive: true }),
    ...findTempFiles(dirname(ws.warehouse), { prefix: basename(ws.warehouse) + '.' }),
    ...findTempFiles(join(ws.root, '.cdp')),
  ].filter((f, i, all) => all.indexOf(f) === i);
}

export async function cleanStore(ws: Workspace): Promise<CleanReport> {
  const lock = await acquireRunLock(ws.lock);
  try {
    const { ledger, warning } = loadLedger(ws.ledger);
    // Against an empty ledger every artifact would look unreferenced and be deleted.
    if (warning) throw new Error(`${warning}; clean removes nothing without it: run \`cdp run\` first, which rebuilds the ledger`);
    const report: CleanReport = { artifactsRemoved: 0, bytesFreed: 0, unitsDropped: 0, tempFilesRemoved: 0 };
    // Held lock: no writer is running, so every temporary file is a dead one's. Removed first,
    // so that a temporary copy of a current artifact is not kept as if it were the artifact.
    for (const f of orphanedTempFiles(ws)) {
      report.bytesFreed += statSync(f).size;
      rmSync(f, { force: true });
      report.tempFilesRemoved++;
    }
    const artifactsDir = join(ws.store, 'artifacts');
    // A current segment's files (its NDJSON, Parquet, covered values and unit keys) all start with its hash.
    const currentSegments = (stage: string) => new Set((ledger.entries[stage]?.segments ?? []).map((seg) => seg.hash));
    for (const stage of existsSync(artifactsDir) ? readdirSync(artifactsDir) : []) {
      const current = currentSegments(stage);
      for (const f of readdirSync(join(artifactsDir, stage))) {
        if (current.has(f.slice(0, f.indexOf('.')))) continue;
        const p = join(artifactsDir, stage, f);
        report.bytesFreed += statSync(p).size;
        rmSync(p, { force: true });
        report.artifactsRemoved++;
      }
      if (!current.size) rmSync(join(artifactsDir, stage), { recursive: true, force: true });
    }
    const unitsDir = join(ws.store, 'units');
    for (const stage of existsSync(unitsDir) ? readdirSync(unitsDir) : []) {
      const e = ledger.entries[stage];
      const keep = new Set<string>();
      (e?.rowStage?.from ?? []).forEach((part, i) => {
        const file = unitsPath(ws.store, stage, e!.segments![i].hash, part);
        if (existsSync(file)) for (const u of readUnitKeys(file)) keep.add(u.key);
      });
      for (const k of e?.partitionKeys ?? []) keep.add(k);
      report.unitsDropped += new RowStore(join(unitsDir, stage)).compact(keep).dropped;
      if (!keep.size) rmSync(join(unitsDir, stage), { recursive: true, force: true });
    }
    return report;
  } finally {
    lock.release();
  }
}
