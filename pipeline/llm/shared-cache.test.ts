// One call cache shared by processes: two runs (on different stores) append to it at the same
// time, each to a segment of its own, and a reader opening it meanwhile sees every complete
// entry and never a torn one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { CallStore } from './call-store.ts';
import { llmCallsRelation } from './call-log.ts';
import { startFakeOpenAIServer } from './testing/fake-openai-server.ts';
import { tempDir } from '../testing/temp-dir.ts';

const burst = join(dirname(fileURLToPath(import.meta.url)), 'testing', 'call-burst.ts');

function runBurst(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', burst, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', () =>
      out.includes('finished') ? resolve(out.split('\n').filter((l) => l.startsWith('done')).length) : reject(new Error(out)),
    );
  });
}

/** Every segment's complete lines (those ending in a newline) and whether each parses. */
function completeLines(cacheDir: string): { n: number; torn: number } {
  const dir = join(cacheDir, 'calls');
  if (!existsSync(dir)) return { n: 0, torn: 0 };
  let n = 0;
  let torn = 0;
  for (const f of readdirSync(dir)) {
    const text = readFileSync(join(dir, f), 'utf8');
    const lines = text.split('\n');
    lines.pop(); // after the last newline: empty, or a line being written
    for (const l of lines) {
      n++;
      try {
        JSON.parse(l);
      } catch {
        torn++;
      }
    }
  }
  return { n, torn };
}

test('two processes append to one cache at once; a reader meanwhile sees every complete entry, no torn one', async () => {
  const srv = await startFakeOpenAIServer({ latencyMs: 3 });
  const cacheDir = tempDir('llm-shared-');
  const N = 80;
  try {
    const runs = Promise.all([runBurst([cacheDir, srv.url, String(N), '8', 'a-']), runBurst([cacheDir, srv.url, String(N), '8', 'b-'])]);
    let finished = false;
    void runs.finally(() => (finished = true));
    let last = 0;
    let reads = 0;
    const warnings: string[] = [];
    while (!finished) {
      const seen = completeLines(cacheDir);
      assert.equal(seen.torn, 0, 'no complete line is torn');
      assert.ok(seen.n >= last, 'entries only grow');
      last = seen.n;
      // The store opened meanwhile indexes exactly the complete answers.
      const reader = CallStore.open(cacheDir, { readOnly: true, warn: (l) => warnings.push(l) });
      assert.ok(reader.size <= completeLines(cacheDir).n);
      assert.ok(reader.size >= seen.n, `${reader.size} indexed of ${seen.n} complete`);
      await reader.close();
      reads++;
      await new Promise((r) => setTimeout(r, 10));
    }
    const done = await runs;
    assert.deepEqual(done, [N, N]);
    assert.ok(reads > 3, `the reader looked ${reads} times while they wrote`);
    assert.deepEqual(warnings, []);
    assert.equal(srv.counters.chat, 2 * N);
    assert.equal(readdirSync(join(cacheDir, 'calls')).length, 2, 'a segment per process');
    const store = CallStore.open(cacheDir, { readOnly: true });
    assert.equal(store.size, 2 * N);
    await store.close();
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const rows = (
      await con.runAndReadAll(`select count(*)::int as n, count(distinct key)::int as k from ${llmCallsRelation(cacheDir)!}`)
    ).getRowObjects();
    assert.deepEqual(rows, [{ n: 2 * N, k: 2 * N }]);
    con.closeSync();

    // A third run of either burst is served whole from the shared cache.
    srv.resetCounters();
    assert.equal(await runBurst([cacheDir, srv.url, String(N), '8', 'b-']), N);
    assert.equal(srv.counters.chat, 0);
  } finally {
    await srv.close();
  }
});
