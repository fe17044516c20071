/**
 * A full disk as an error message: "no space left on DEVICE while writing FILE", naming the
 * device (its mount) and the file, with what to do; never a stack trace, never mistaken for
 * something else. And the store's writes that must not tear: every write of the store goes
 * through `writeAll` (short writes finished, errors named), and appends through `appendWhole`,
 * which takes a failed append back so a file never ends in half a line.
 *
 * Tests make a write fail as a full disk does through one seam: a function stored under
 * WRITE_FAULT on globalThis (pipeline/testing/full-disk.mjs installs one in a child process) is
 * asked before each write how many of its bytes fit; the rest fails with ENOSPC, after the bytes
 * that fit are written, as a disk that fills up midway does.
 */
import { closeSync, fstatSync, ftruncateSync, openSync, readFileSync, readSync, realpathSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';

export const WRITE_FAULT = Symbol.for('cdp.writeFault');

/** How many of `bytes` fit on the disk (undefined: all). */
type WriteFault = (file: string, bytes: number) => number | undefined;

function fault(): WriteFault | undefined {
  return (globalThis as Record<symbol, WriteFault | undefined>)[WRITE_FAULT];
}

/** Whether an error is the disk (or the user's quota) being full, from Node or from DuckDB. */
export function isDiskFull(err: unknown): boolean {
  const e = err as NodeJS.ErrnoException | undefined;
  if (e?.code === 'ENOSPC' || e?.code === 'EDQUOT') return true;
  return /No space left on device|Disk quota exceeded/i.test(String(e?.message ?? err));
}

function procMounts(): string | null {
  try {
    return readFileSync('/proc/self/mounts', 'utf8');
  } catch {
    return null;
  }
}

/** The mount a path lies on, as "SOURCE (mounted at DIR)", from /proc/self/mounts (or `mounts`); null where unknown. */
export function deviceOf(path: string, mounts: string | null = procMounts()): string | null {
  if (mounts === null) return null;
  // The nearest existing directory resolved (links followed), with the part not created yet after it.
  let dir = resolve(path);
  const tail: string[] = [];
  for (;;) {
    try {
      dir = join(realpathSync(dir), ...tail);
      break;
    } catch {
      const up = dirname(dir);
      if (up === dir) break;
      tail.unshift(basename(dir));
      dir = up;
    }
  }
  let best: { source: string; at: string } | null = null;
  for (const line of mounts.split('\n')) {
    const [source, rawAt] = line.split(' ');
    if (!source || !rawAt) continue;
    // /proc/mounts escapes spaces and the like as octal.
    const at = rawAt.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
    const inside = at === '/' || dir === at || dir.startsWith(at.endsWith(sep) ? at : at + sep);
    if (inside && (!best || at.length >= best.at.length)) best = { source, at };
  }
  return best ? `${best.source} (mounted at ${best.at})` : null;
}

export class DiskFullError extends Error {
  constructor(
    readonly file: string,
    readonly device: string,
    options?: { cause?: unknown },
  ) {
    super(
      `no space left on ${device} while writing ${file}; free space there and run again (everything written before is kept, and the run resumes where it stopped)`,
      options,
    );
    this.name = 'DiskFullError';
  }
}

/** `err` as a DiskFullError naming `file` when it is a full disk; otherwise `err` itself. */
export function asDiskFull(err: unknown, file: string): unknown {
  if (err instanceof DiskFullError || !isDiskFull(err)) return err;
  return new DiskFullError(file, deviceOf(file) ?? `the disk of ${dirname(resolve(file))}`, { cause: err });
}

/**
 * An error's message, a full disk named as one. An error that names no file (a stage's own write)
 * is told by what was being written (`what`) and the device of `dir`.
 */
export function errorMessage(err: unknown, where: { dir: string; what: string }): string {
  const text = (err as Error | undefined)?.message ?? String(err);
  if (err instanceof DiskFullError || !isDiskFull(err)) return text;
  const path = (err as NodeJS.ErrnoException).path;
  if (path) return (asDiskFull(err, path) as Error).message;
  return `no space left on ${deviceOf(where.dir) ?? `the disk of ${where.dir}`} while ${where.what} (${text}); free space there and run again (everything written before is kept, and the run resumes where it stopped)`;
}

/** Writes all of `data` at the file's position (a short write is continued); a failure names the file. */
export function writeAll(fd: number, data: Uint8Array, file: string): void {
  try {
    const fits = Math.min(data.length, fault()?.(file, data.length) ?? data.length);
    for (let done = 0; done < fits;) done += writeSync(fd, data, done, fits - done);
    if (fits < data.length) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
  } catch (err) {
    throw asDiskFull(err, file);
  }
}

/** Whether the file ends in a newline (or is empty); one byte read. */
function endsWithNewline(fd: number, size: number): boolean {
  if (size === 0) return true;
  const b = Buffer.alloc(1);
  readSync(fd, b, 0, 1, size - 1);
  return b[0] === 0x0a;
}

/** Where the file's last complete line ends: after its last newline (0 if it has none). */
function lastLineEnd(fd: number, size: number): number {
  const chunk = Buffer.alloc(64 << 10);
  for (let end = size; end > 0;) {
    const start = Math.max(0, end - chunk.length);
    const n = readSync(fd, chunk, 0, end - start, start);
    const nl = chunk.subarray(0, n).lastIndexOf(0x0a);
    if (nl >= 0) return start + nl + 1;
    end = start;
  }
  return 0;
}

/**
 * Appends whole lines to a log: all of `text` or none of it (a failed write is cut off again). A
 * last line left torn by a process killed mid-write is cut off first, with `onTorn` told, so the
 * lines after it are not glued to it.
 */
export function appendWhole(file: string, text: string, onTorn?: (bytes: number) => void): void {
  let fd: number;
  try {
    fd = openSync(file, 'a+');
  } catch (err) {
    throw asDiskFull(err, file);
  }
  try {
    let size = fstatSync(fd).size;
    if (!endsWithNewline(fd, size)) {
      const end = lastLineEnd(fd, size);
      ftruncateSync(fd, end);
      onTorn?.(size - end);
      size = end;
    }
    try {
      writeAll(fd, Buffer.from(text, 'utf8'), file);
    } catch (err) {
      ftruncateSync(fd, size);
      throw err;
    }
  } finally {
    closeSync(fd);
  }
}
