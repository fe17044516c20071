import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAIServer } from './testing/fake-openai-server.ts';
import { CallStore } from './call-store.ts';
import { tempDir } from '../testing/temp-dir.ts';

const here = dirname(fileURLToPath(import.meta.url));
const burst = join(here, 'testing', 'call-burst.ts');

/** Runs the burst child; with `killAfter`, SIGKILLs it once that many answers were reported. */
function runChild(args: string[], killAfter?: number): Promise<{ done: number; finished: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', burst, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let done = 0;
    let finished = false;
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith('done')) done++;
        if (line === 'finished') finished = true;
        if (line.startsWith('failed')) reject(new Error(line));
        if (killAfter !== undefined && done === killAfter) child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('exit', () => resolve({ done, finished }));
  });
}

function durableAnswers(cacheDir: string): number {
  const dir = join(cacheDir, 'calls');
  let n = 0;
  for (const f of readdirSync(dir))
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) if (line.includes('"status":"ok"')) n++;
  return n;
}

test('a run killed mid-stage loses only the calls in flight; the rerun asks for exactly the rest', async () => {
  const srv = await startFakeOpenAIServer({ latencyMs: 25 });
  try {
    const cacheDir = tempDir('llm-kill-');
    const N = 40;
    const C = 4;
    const killed = await runChild([cacheDir, srv.url, String(N), String(C)], 12);
    assert.equal(killed.finished, false, 'the child was killed before finishing');
    assert.ok(killed.done >= 12);
    const sentBeforeKill = srv.counters.chat;
    const durable = durableAnswers(cacheDir);
    // Everything reported done was durable; what was lost is at most what was in flight.
    assert.ok(durable >= killed.done, `${durable} durable < ${killed.done} reported`);
    assert.ok(sentBeforeKill - durable <= C, `lost ${sentBeforeKill - durable} > ${C} in flight`);
    assert.ok(durable < N);

    srv.resetCounters();
    const rerun = await runChild([cacheDir, srv.url, String(N), String(C)]);
    assert.equal(rerun.finished, true);
    assert.equal(rerun.done, N);
    assert.equal(srv.counters.chat, N - durable, 'the rerun requests exactly the calls that had not completed');

    // After the torn run and its repair every call is answered once in the store, so a third
    // run would make no request (the zero-request rerun itself is tested in client.test.ts).
    const store = CallStore.open(cacheDir);
    assert.equal(store.size, N);
    await store.close();
  } finally {
    await srv.close();
  }
});
