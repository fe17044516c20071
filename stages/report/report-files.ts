/**
 * The side effect of the report stages: files written under the output directory. Each write
 * is atomic (temporary file, fsync, rename) and skipped when the file already holds the same
 * bytes, so a rerun leaves modification times alone. The returned rows (relative path, sha256,
 * size) are the stage's output, which is how the runner tracks the files. A table or figure with
 * nothing to show is a row with `absent` (the reason) and no file: an earlier run's file of that
 * name is removed, so nothing links to a picture of nothing or of another run.
 */
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export interface ReportFile {
  /** Path relative to the output directory, with "/" separators. */
  path: string;
  kind: string;
  title: string;
  /** null: nothing to show, see `absent`. */
  content: string | Uint8Array | null;
  /** Why there is no file (when content is null). */
  absent?: string;
}

export const REPORT_FILE_COLUMNS = {
  file: 'VARCHAR',
  kind: 'VARCHAR',
  title: 'VARCHAR',
  sha256: 'VARCHAR',
  bytes: 'INTEGER',
  absent: 'VARCHAR',
} as const;

export interface WrittenFile {
  /** Path relative to the project root, with "/" separators. */
  file: string;
  kind: string;
  title: string;
  sha256: string | null;
  bytes: number | null;
  absent: string | null;
  [k: string]: unknown;
}

export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The output directory param resolved against the project root. */
export function resolveOutDir(root: string, outDir: string | undefined): string {
  return resolve(root, outDir ?? 'reports');
}

export function writeIfChanged(absPath: string, bytes: Uint8Array): boolean {
  try {
    const old = readFileSync(absPath);
    if (old.length === bytes.length && old.equals(bytes)) return false;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  mkdirSync(dirname(absPath), { recursive: true });
  const tmp = `${absPath}.tmp-${process.pid}`;
  try {
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, absPath);
  } catch (e) {
    rmSync(tmp, { force: true });
    // A failed write names no file; the runner's message ("no space left on … while writing …") needs it.
    if (e && typeof e === 'object' && !('path' in e)) Object.assign(e, { path: absPath });
    throw e;
  }
  return true;
}

/**
 * Writes the files under `outAbs` and returns one row per file, in the given order. With `write`
 * false (`cdp estimate`, ctx.persist) the rows are the same and nothing touches the disk.
 */
export function writeReportFiles(root: string, outAbs: string, files: readonly ReportFile[], write = true): WrittenFile[] {
  return files.map((f) => {
    if (isAbsolute(f.path) || f.path.split('/').includes('..'))
      throw new RangeError(`report file "${f.path}" must be a relative path inside the output directory`);
    const abs = join(outAbs, ...f.path.split('/'));
    const file = relative(root, abs).split(sep).join('/');
    if (f.content === null) {
      if (write) rmSync(abs, { force: true });
      const absent = f.absent ?? 'nothing to show';
      return { file, kind: f.kind, title: f.title, sha256: null, bytes: null, absent };
    }
    const bytes = typeof f.content === 'string' ? Buffer.from(f.content, 'utf8') : Buffer.from(f.content);
    if (write) writeIfChanged(abs, bytes);
    return { file, kind: f.kind, title: f.title, sha256: sha256(bytes), bytes: bytes.length, absent: null };
  });
}

/**
 * Files listed in a report stage's rows that are missing or differ on disk. The runner reuses a
 * stage whose key did not change without running it, so a deleted or hand-edited report is not
 * rewritten by `cdp run`; this says which (rewrite with `cdp run --force <stage>`).
 */
export function staleReportFiles(
  root: string,
  rows: readonly { file: unknown; sha256: unknown; absent?: unknown }[],
): { file: string; problem: 'missing' | 'changed' }[] {
  const out: { file: string; problem: 'missing' | 'changed' }[] = [];
  for (const r of rows) {
    if (r.absent != null) continue; // nothing was written

    const file = String(r.file);
    let bytes: Buffer;
    try {
      bytes = readFileSync(resolve(root, file));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      out.push({ file, problem: 'missing' });
      continue;
    }
    if (sha256(bytes) !== r.sha256) out.push({ file, problem: 'changed' });
  }
  return out;
}
