/** Writes that are all-or-nothing: a temporary file in the same directory, fsynced, then renamed over the target. */
import { openSync, fsyncSync, closeSync, renameSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { asDiskFull, writeAll } from './disk-full.ts';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** `<target>.<pid>.<8 hex>.tmp`: every temporary file of the store is named so (see TEMP_FILE). */
export function tempPathFor(target: string): string {
  return `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/**
 * A temporary file of tempPathFor, or one DuckDB keeps beside it (`….tmp.wal`). A process
 * killed between writing one and renaming it leaves it behind; nothing ever reads it.
 */
export const TEMP_FILE = /\.\d+\.[0-9a-f]{8}\.tmp(\.wal)?$/;

/** Temporary files under `dir` (recursively), for `cdp clean` to remove while it holds the run lock. */
export function findTempFiles(dir: string, opts: { recursive?: boolean; prefix?: string } = {}): string[] {
  const out: string[] = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (opts.recursive) out.push(...findTempFiles(p, opts));
    } else if (TEMP_FILE.test(e.name) && (!opts.prefix || e.name.startsWith(opts.prefix))) out.push(p);
  }
  return out;
}

/**
 * A failed write (a full disk) leaves the target as it was and no temporary file. `sync: false`
 * for a cache, which is checked when read, so that losing it to a crash costs only a recompute.
 */
export function writeFileAtomic(target: string, data: string | Uint8Array, opts: { sync?: boolean } = {}): void {
  const tmp = tempPathFor(target);
  try {
    mkdirSync(dirname(target), { recursive: true });
    const fd = openSync(tmp, 'w');
    try {
      writeAll(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data, target);
      if (opts.sync !== false) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw asDiskFull(err, target);
  }
}
