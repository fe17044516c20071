/** `cdp clean`: removes artifacts and unit memos that no current ledger entry references. */
import { readdirSync, rmSync, statSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Workspace } from '../exec/workspace.ts';
import { readLedger } from '../store/ledger.ts';
import { RowStore } from '../store/row-store.ts';
import { acquireRunLock } from '../store/run-lock.ts';

export interface CleanReport {
  artifactsRemoved: number;
  bytesFreed: number;
  unitsDropped: number;
}

export async function cleanStore(ws: Workspace): Promise<CleanReport> {
  const lock = await acquireRunLock(ws.lock);
  try {
    const ledger = readLedger(ws.ledger);
    const report: CleanReport = { artifactsRemoved: 0, bytesFreed: 0, unitsDropped: 0 };
    const artifactsDir = join(ws.store, 'artifacts');
    for (const stage of existsSync(artifactsDir) ? readdirSync(artifactsDir) : []) {
      const current = ledger.entries[stage]?.artifact;
      for (const f of readdirSync(join(artifactsDir, stage))) {
        if (current && f.startsWith(current + '.')) continue;
        const p = join(artifactsDir, stage, f);
        report.bytesFreed += statSync(p).size;
        rmSync(p, { force: true });
        report.artifactsRemoved++;
      }
      if (!current) rmSync(join(artifactsDir, stage), { recursive: true, force: true });
    }
    const unitsDir = join(ws.store, 'units');
    for (const stage of existsSync(unitsDir) ? readdirSync(unitsDir) : []) {
      const current = ledger.entries[stage]?.artifact;
      const unitsFile = current ? join(artifactsDir, stage, `${current}.units`) : null;
      const keep = new Set(unitsFile && existsSync(unitsFile) ? readFileSync(unitsFile, 'utf8').split('\n').filter(Boolean) : []);
      report.unitsDropped += new RowStore(join(unitsDir, stage)).compact(keep).dropped;
      if (!keep.size) rmSync(join(unitsDir, stage), { recursive: true, force: true });
    }
    return report;
  } finally {
    lock.release();
  }
}
