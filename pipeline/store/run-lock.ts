/**
 * One run per store. The lock is a file created exclusively, holding the owner's pid and, where
 * the system tells it (Linux), the process's start time; a lock whose owner is gone (a killed
 * run) is taken over, including one whose pid now belongs to another process started later. A
 * second run waits for the first, up to a limit, then refuses with a message naming the holder.
 */
import { openSync, writeSync, closeSync, readFileSync, rmSync, mkdirSync, renameSync } from 'node:fs';
import { asDiskFull, writeAll } from './disk-full.ts';
import { dirname } from 'node:path';
import { tempPathFor } from './atomic.ts';

export class StoreBusyError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: { pid: number; startedAt: string; command: string },
  ) {
    super(
      `another cdp run (pid ${holder.pid}, started ${holder.startedAt}: ${holder.command}) holds ${lockPath}; ` +
        `wait for it to finish, or pass --wait <seconds> to queue behind it`,
    );
    this.name = 'StoreBusyError';
  }
}

interface Holder {
  pid: number;
  startedAt: string;
  command: string;
  /** Start time of the process in clock ticks since boot (/proc/<pid>/stat field 22); null where unknown. */
  procStart?: string | null;
}

/** A process's start time, which with its pid names it uniquely; null where /proc does not say. */
export function processStartTime(pid: number): string | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Field 2, the command name, is in parentheses and may itself hold spaces or parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[22 - 3] ?? null;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holder still runs: its pid is alive and, when both are known, was started when the lock says. */
function alive(holder: Holder): boolean {
  if (!Number.isInteger(holder.pid) || holder.pid <= 0 || !pidAlive(holder.pid)) return false;
  if (!holder.procStart) return true;
  const now = processStartTime(holder.pid);
  return now === null || now === holder.procStart;
}

function readHolder(path: string): Holder | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

export interface RunLock {
  release(): void;
}

/** Releases the lock only while this process still holds it (a takeover may have replaced it). */
function heldLock(path: string): RunLock {
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      if (readHolder(path)?.pid === process.pid) rmSync(path, { force: true });
    },
  };
}

export async function acquireRunLock(path: string, opts: { waitSeconds?: number; command?: string } = {}): Promise<RunLock> {
  mkdirSync(dirname(path), { recursive: true });
  const deadline = Date.now() + (opts.waitSeconds ?? 0) * 1000;
  const me = JSON.stringify({
    pid: process.pid,
    startedAt: new Date().toISOString(),
    command: opts.command ?? process.argv.slice(1).join(' '),
    procStart: processStartTime(process.pid),
  } satisfies Holder);
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      try {
        writeAll(fd, Buffer.from(me), path);
      } catch (err) {
        closeSync(fd);
        rmSync(path, { force: true });
        throw err;
      }
      closeSync(fd);
      return heldLock(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw asDiskFull(err, path);
    }
    const holder = readHolder(path);
    if (!holder || !alive(holder)) {
      // Stale (its run was killed) or half-written. Replace it by rename so that two runs
      // racing to take over cannot both succeed: only one rename wins the re-check below.
      const tmp = tempPathFor(path);
      const fd = openSync(tmp, 'w');
      writeSync(fd, me);
      closeSync(fd);
      const again = readHolder(path);
      if (!again || !alive(again)) {
        renameSync(tmp, path);
        await new Promise((r) => setTimeout(r, 20));
        if (readHolder(path)?.pid === process.pid) return heldLock(path);
      } else rmSync(tmp, { force: true });
      continue;
    }
    if (Date.now() >= deadline) throw new StoreBusyError(path, holder);
    await new Promise((r) => setTimeout(r, 200));
  }
}
