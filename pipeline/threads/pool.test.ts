import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { profilerArgs, ThreadPool } from './pool.ts';
import { MAX_REFS } from './protocol.ts';

const fixture = fileURLToPath(new URL('./testing/pool-fixture.ts', import.meta.url));

async function settled<T>(ps: Promise<T>[]): Promise<({ ok: true; value: T } | { ok: false; error: Error })[]> {
  return (await Promise.allSettled(ps)).map((s) =>
    s.status === 'fulfilled' ? { ok: true, value: s.value } : { ok: false, error: s.reason },
  );
}

describe('thread pool', () => {
  test('results come back in order, computed on the workers, the shared value with every item', async () => {
    const pool = new ThreadPool({ size: 2, tuning: { coldMs: 0 } });
    try {
      const task = pool.task<number, { value: number; thread: number }>({ module: fixture, fn: 'square', shared: { offset: 5 } });
      const xs = Array.from({ length: 300 }, (_, i) => i);
      const out = await Promise.all(xs.map((x) => task.run(x)));
      assert.deepEqual(
        out.map((o) => o.value),
        xs.map((x) => x * x + 5),
      );
      const threads = new Set(out.map((o) => o.thread));
      assert.equal(threads.has(0), false, 'nothing ran on the main thread');
      assert.equal(threads.size, 2, 'both workers computed');
      assert.deepEqual(task.counts, { inline: 0, threaded: 300 });
      task.close();
    } finally {
      await pool.close();
    }
  });

  test('one worker means inline on the main thread: same results, no worker started', async () => {
    const pool = new ThreadPool({ size: 1, tuning: { coldMs: 0 } });
    const task = pool.task<number, { value: number; thread: number }>({ module: fixture, fn: 'square', shared: { offset: 5 } });
    const out = await Promise.all([1, 2, 3].map((x) => task.run(x)));
    assert.deepEqual(out, [
      { value: 6, thread: 0 },
      { value: 9, thread: 0 },
      { value: 14, thread: 0 },
    ]);
    assert.equal(pool.started, false);
    await pool.close();
  });

  test("an item that throws fails alone, with its message and code; its batch's other items are computed", async () => {
    const pool = new ThreadPool({ size: 2, tuning: { coldMs: 0 } });
    try {
      const task = pool.task<number, number>({ module: fixture, fn: 'failOnThree' });
      const out = await settled([1, 2, 3, 4, 5].map((x) => task.run(x)));
      assert.deepEqual(
        out.map((o) => (o.ok ? o.value : `${o.error.message} (${(o.error as { code?: string }).code})`)),
        [1, 2, 'three is not allowed (EBADTHREE)', 4, 5],
      );
    } finally {
      await pool.close();
    }
  });

  test('an item that kills its worker fails alone with the reason; the worker is replaced and the rest computed', async () => {
    const pool = new ThreadPool({ size: 2, tuning: { coldMs: 0 } });
    try {
      const task = pool.task<string, string>({ module: fixture, fn: 'crashOnPoison' });
      const items = ['a', 'b', 'poison', 'c', 'd', 'e', 'f', 'g'];
      const out = await settled(items.map((x) => task.run(x)));
      assert.deepEqual(
        out.map((o) => (o.ok ? o.value : 'failed')),
        ['A', 'B', 'failed', 'C', 'D', 'E', 'F', 'G'],
      );
      const failure = out[2]! as { ok: false; error: Error };
      assert.match(failure.error.message, /worker thread computing it died \(it exited with code 7\)/);
      // The pool still works after the crash.
      assert.deepEqual(await Promise.all(['x', 'y'].map((x) => task.run(x))), ['X', 'Y']);
    } finally {
      await pool.close();
    }
  });

  test('past its restarts the pool gives up: every pending item fails saying how to rerun', async () => {
    const pool = new ThreadPool({ size: 2, maxRestarts: 0, tuning: { coldMs: 0 } });
    try {
      const task = pool.task<string, string>({ module: fixture, fn: 'crashOnPoison' });
      const out = await settled(['poison', 'a', 'b'].map((x) => task.run(x)));
      assert.ok(out.some((o) => !o.ok));
      for (const o of out) if (!o.ok) assert.match(o.error.message, /died 1 times \(last: it exited with code 7\).*--workers 1/);
      await assert.rejects(task.run('later'), /--workers 1/);
    } finally {
      await pool.close();
    }
  });

  test('a function the module does not export fails each item saying which', async () => {
    const pool = new ThreadPool({ size: 2, tuning: { coldMs: 0 } });
    try {
      const task = pool.task<number, number>({ module: fixture, fn: 'nothingHere' });
      await assert.rejects(task.run(1), /pool-fixture\.ts has no exported function 'nothingHere'/);
    } finally {
      await pool.close();
    }
  });

  test('little work stays inline (no worker starts); enough work moves to the workers after the probe', async () => {
    const pool = new ThreadPool({ size: 2 });
    try {
      const cheap = pool.task<number, { value: number; thread: number }>({
        module: fixture,
        fn: 'square',
        shared: { offset: 0 },
        expected: 50,
      });
      await Promise.all(Array.from({ length: 50 }, (_, i) => cheap.run(i)));
      assert.deepEqual(cheap.counts, { inline: 50, threaded: 0 });
      assert.equal(pool.started, false);
      // 8 probed items of 5 ms of CPU project 92 × 5 ms = 460 ms; the bar is 200 ms here.
      const costly = pool.task<{ ms: number; v: number }, number>({ module: fixture, fn: 'spin', expected: 100 }, { coldMs: 200 });
      const xs = Array.from({ length: 100 }, (_, v) => ({ ms: 5, v }));
      const out = await Promise.all(xs.map((x) => costly.run(x)));
      assert.deepEqual(
        out,
        xs.map((x) => x.v),
      );
      assert.deepEqual(costly.counts, { inline: 8, threaded: 92 });
      assert.equal(pool.started, true);
    } finally {
      await pool.close();
    }
  });

  test('items of unequal weight project the task from the weight timed, not the count (a stage’s partitions)', async () => {
    const pool = new ThreadPool({ size: 2 });
    try {
      // One item of weight 1 timed at 5 ms of CPU, 99 more to come: 495 ms projected, past the 200 ms bar.
      const heavy = pool.task<{ ms: number; v: number }, number>(
        { module: fixture, fn: 'spin', expected: 2, weight: 100 },
        { coldMs: 200, probe: 1 },
      );
      assert.equal(await heavy.run({ ms: 5, v: 1 }, 1), 1);
      assert.equal(await heavy.run({ ms: 5, v: 2 }, 99), 2);
      assert.deepEqual(heavy.counts, { inline: 1, threaded: 1 });
      heavy.close();
      // Counted by items alone, the same two project 5 ms: both stay inline.
      const counted = pool.task<{ ms: number; v: number }, number>({ module: fixture, fn: 'spin', expected: 2 }, { coldMs: 200, probe: 1 });
      assert.equal(await counted.run({ ms: 5, v: 1 }), 1);
      assert.equal(await counted.run({ ms: 5, v: 2 }), 2);
      assert.deepEqual(counted.counts, { inline: 2, threaded: 0 });
    } finally {
      await pool.close();
    }
  });

  test('a process whose pool is left open still exits once its work is done (workers do not hold it)', () => {
    const script = `
      import { ThreadPool } from ${JSON.stringify(new URL('./pool.ts', import.meta.url).href)};
      const pool = new ThreadPool({ size: 2, tuning: { coldMs: 0 } });
      const t = pool.task({ module: ${JSON.stringify(fixture)}, fn: 'square', shared: { offset: 1 } });
      const out = await Promise.all([1, 2, 3].map((x) => t.run(x)));
      console.log(out.map((o) => o.value).join(','));
    `;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.signal, null, 'the process exited by itself, not killed at the timeout');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), '2,5,10');
  });
});

test("workers inherit the profiler's flags with their values, and nothing else", () => {
  assert.deepEqual(
    profilerArgs([
      '--import',
      'tsx',
      '--cpu-prof',
      '--cpu-prof-interval',
      '2000',
      '--cpu-prof-dir=/tmp/p',
      '--heap-prof-name',
      'h.heapprofile',
      '--test',
    ]),
    ['--cpu-prof', '--cpu-prof-interval', '2000', '--cpu-prof-dir=/tmp/p', '--heap-prof-name', 'h.heapprofile'],
  );
  assert.deepEqual(profilerArgs(['--import', 'tsx']), []);
});

describe('values items share (refs)', () => {
  test('each crosses once per worker, the function gets them with every item; inline the same', async () => {
    const a = { v: 1000 };
    const b = { v: 20000 };
    const expected = Array.from({ length: 400 }, (_, i) => i + (i % 2 ? a.v + b.v : a.v));
    for (const size of [2, 1]) {
      const pool = new ThreadPool({ size, tuning: { coldMs: 0 } });
      try {
        const task = pool.task<number, { value: number; thread: number }>({ module: fixture, fn: 'sumRefs' });
        const out = await Promise.all(expected.map((_, i) => task.run(i, 1, i % 2 ? [a, b] : [a])));
        assert.deepEqual(
          out.map((o) => o.value),
          expected,
        );
        // Two values, each needed on each worker at most once.
        if (size === 2) assert.ok(pool.refsSent >= 2 && pool.refsSent <= 4, `sent ${pool.refsSent}`);
        else assert.equal(pool.refsSent, 0);
      } finally {
        await pool.close();
      }
    }
  });

  test('more distinct values than a worker keeps: the oldest are dropped and sent again when needed', async () => {
    const pool = new ThreadPool({ size: 2, tuning: { coldMs: 0 } });
    try {
      const task = pool.task<number, { value: number; thread: number }>({ module: fixture, fn: 'sumRefs' });
      const values = Array.from({ length: MAX_REFS + 500 }, (_, i) => ({ v: i * 10 }));
      // Two passes over every value, in waves so batches stay small: the second pass finds the first values dropped.
      for (const pass of [0, 1]) {
        for (let at = 0; at < values.length; at += 200) {
          const wave = values.slice(at, at + 200);
          const out = await Promise.all(wave.map((v, k) => task.run(at + k, 1, [v, values[0]!])));
          assert.deepEqual(
            out.map((o) => o.value),
            wave.map((v, k) => at + k + v.v + 0),
            `pass ${pass}, values ${at}…`,
          );
        }
      }
      assert.ok(pool.refsSent > values.length, `dropped values are sent again (${pool.refsSent} sent)`);
    } finally {
      await pool.close();
    }
  });

  test('a worker that dies takes its values with it: the items sent again bring them to its replacement', async () => {
    const pool = new ThreadPool({ size: 2, tuning: { coldMs: 0 } });
    try {
      const task = pool.task<number | 'poison', { value: number; thread: number }>({ module: fixture, fn: 'sumRefs' });
      const shared = { v: 7 };
      const items: (number | 'poison')[] = [1, 2, 3, 'poison', 4, 5, 6, 7, 8, 9];
      const out = await settled(items.map((x) => task.run(x, 1, [shared])));
      assert.deepEqual(
        out.map((o) => (o.ok ? o.value.value : 'failed')),
        [8, 9, 10, 'failed', 11, 12, 13, 14, 15, 16],
      );
    } finally {
      await pool.close();
    }
  });
});
