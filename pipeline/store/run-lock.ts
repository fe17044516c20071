/**
 * One run per store. The lock is a file created exclusively, holding the owner's pid; a lock
 * whose owner is gone (a killed run) is taken over. A second run waits for the first, up to a
 * limit, then refuses with a message naming the holder.
 */
import { openSync, writeSync, closeSync, readFileSync, rmSync, mkdirSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { tempPathFor } from './atomic.ts';

export class StoreBusyError extends Error {
  constructor(readonly lockPath: string, readonly holder: { pid: number; startedAt: string; command: string }) {
    super(
      `another cdp run (pid ${holder.pid}, started ${holder.startedAt}: ${holder.command}) holds ${lockPath}; ` +
        `wait for it to finish, or pass --wait <seconds> to queue behind it`,
    );
    this.name = 'StoreBusyError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): { pid: number; startedAt: string; command: string } | null {
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
  const me = JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString(), command: opts.command ?? process.argv.slice(1).join(' ') });
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, me);
      closeSync(fd);
      return heldLock(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(path);
    if (!holder || !alive(holder.pid)) {
      // Stale (its run was killed) or half-written. Replace it by rename so that two runs
      // racing to take over cannot both succeed: only one rename wins the re-check below.
      const tmp = tempPathFor(path);
      const fd = openSync(tmp, 'w');
      writeSync(fd, me);
      closeSync(fd);
      const again = readHolder(path);
      if (!again || !alive(again.pid)) {
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
