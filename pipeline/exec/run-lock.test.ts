// The run lock (pipeline/store/run-lock.ts) names its holder by pid and process start time, so a
// lock whose pid was reused by a live, unrelated process is taken over instead of refusing forever.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { acquireRunLock, processStartTime, StoreBusyError } from '../store/run-lock.ts';
import { tempDir } from '../testing/temp-dir.ts';

/** A live process that is not a cdp run. */
async function bystander(): Promise<{ pid: number; stop(): void }> {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  await new Promise((r) => child.once('spawn', r));
  return { pid: child.pid!, stop: () => child.kill('SIGKILL') };
}

test('a process start time is read from /proc/<pid>/stat field 22 and tells processes apart', async () => {
  const mine = processStartTime(process.pid);
  assert.match(mine ?? '', /^\d+$/);
  assert.equal(processStartTime(process.pid), mine, 'stable for one process');
  const other = await bystander();
  try {
    const theirs = processStartTime(other.pid);
    assert.match(theirs ?? '', /^\d+$/);
    assert.ok(Number(theirs) >= Number(mine), 'a process started later has a later start time');
  } finally {
    other.stop();
  }
  assert.equal(processStartTime(2 ** 22 + 12345), null, 'no such process');
});

test('the lock records pid and start time; a lock naming a live pid with another start time is taken over', async () => {
  const lockPath = join(tempDir('cdp-lock-'), 'run.lock');
  const lock = await acquireRunLock(lockPath, { command: 'test' });
  const held = JSON.parse(readFileSync(lockPath, 'utf8'));
  assert.equal(held.pid, process.pid);
  assert.equal(held.procStart, processStartTime(process.pid));
  lock.release();
  assert.equal(existsSync(lockPath), false);

  const other = await bystander();
  try {
    // The pid is alive, but the process that wrote the lock started at another time: it is gone.
    writeFileSync(lockPath, JSON.stringify({ pid: other.pid, startedAt: '2020-01-01T00:00:00.000Z', command: 'cdp run', procStart: '1' }));
    const taken = await acquireRunLock(lockPath, { command: 'test' });
    assert.equal(JSON.parse(readFileSync(lockPath, 'utf8')).pid, process.pid);
    taken.release();
  } finally {
    other.stop();
  }
});

test('a lock whose holder is alive with the recorded start time (or an older lock without one) is refused', async () => {
  const lockPath = join(tempDir('cdp-lock-'), 'run.lock');
  const other = await bystander();
  try {
    const holder = { pid: other.pid, startedAt: '2020-01-01T00:00:00.000Z', command: 'cdp run' };
    writeFileSync(lockPath, JSON.stringify({ ...holder, procStart: processStartTime(other.pid) }));
    await assert.rejects(acquireRunLock(lockPath), (e: unknown) => e instanceof StoreBusyError && e.holder.pid === other.pid);
    writeFileSync(lockPath, JSON.stringify(holder));
    await assert.rejects(acquireRunLock(lockPath), StoreBusyError);
    assert.equal(JSON.parse(readFileSync(lockPath, 'utf8')).pid, other.pid, 'a refused run leaves the lock alone');
  } finally {
    other.stop();
  }
});
