// A partitioned table stage whose module declares `pure: true` computes its partitions on the
// run's worker pool: counted there, the same bytes as one worker, a memo hit never sent, a failing
// partition named in the stage's error while the others are kept; too little work stays inline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveDag } from '../dag/validate.ts';
import type { DagConfig, Row } from '../dag/define.ts';
import { runDag, type StageResult } from './executor.ts';
import { workspaceFor } from './workspace.ts';
import { readLedger } from '../store/ledger.ts';
import { readRows } from '../store/artifacts.ts';
import { ThreadPool } from '../threads/pool.ts';
import { THREADED_ROWS } from '../threads/partition-calls.ts';

const pipelineDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 *   numbers.txt ─► seed (g, id, v) ─► stats (pure, partitioned by g; reads g and v only)
 * A value below zero is data the stage refuses: its group's partition throws.
 */
function project(numbers: string[], total = false) {
  const root = mkdtempSync(join(tmpdir(), 'cdp-part-threads-'));
  mkdirSync(join(root, 'stages'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  const stageTs = JSON.stringify(join(pipelineDir, 'stage.ts'));
  writeFileSync(
    join(root, 'stages', 'seed.ts'),
    `import { tableStage } from ${stageTs};
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
export default tableStage({
  inputs: { src: 'whole' },
  columns: { g: 'VARCHAR', id: 'INTEGER', v: 'DOUBLE' },
  run(inputs, ctx) {
    const lines = readFileSync(join(ctx.root, inputs.src[0].path as string), 'utf8').split('\\n').filter(Boolean);
    return lines.map((l, id) => ({ g: l.split(' ')[0], id, v: Number(l.split(' ')[1]) }));
  },
});
`,
  );
  writeFileSync(
    join(root, 'stages', 'stats.ts'),
    `import { tableStage } from ${stageTs};
export default tableStage({
  inputs: { seed: 'whole' },
  reads: { seed: ['g', 'v'] },
  pure: true,
  partition: { by: { seed: ['g'] } },
  columns: { g: 'VARCHAR', n: 'INTEGER', sum: 'DOUBLE', mean: 'DOUBLE' },
  run({ seed }, ctx) {
    const g = seed[0].g as string;
    const vs = seed.map((r) => r.v as number);
    if (vs.some((v) => v < 0)) throw new RangeError('a negative value in group ' + g);
    const sum = vs.reduce((a, b) => a + b, 0);
    ctx.log('group ' + g + ': ' + vs.length + ' values');
    return [{ g, n: vs.length, sum, mean: sum / vs.length }];
  },
});
`,
  );
  // With `total`: a pure whole-table stage beside it, with the run's context as it saw it.
  writeFileSync(
    join(root, 'stages', 'total.ts'),
    `import { tableStage } from ${stageTs};
import { isMainThread } from 'node:worker_threads';
export default tableStage({
  inputs: { seed: 'whole' },
  reads: { seed: ['v'] },
  pure: true,
  columns: { n: 'INTEGER', sum: 'DOUBLE', partition: 'VARCHAR' },
  run({ seed }, ctx) {
    ctx.log('total over ' + seed.length + ' rows');
    if (!isMainThread) ctx.log('on a worker');
    return [{ n: seed.length, sum: seed.reduce((a, r) => a + (r.v as number), 0), partition: String(ctx.partition) }];
  },
});
`,
  );
  const config: DagConfig = {
    sources: { src: { kind: 'files', patterns: ['numbers.txt'] } },
    stages: [
      { name: 'seed', module: 'stages/seed.ts', inputs: { src: 'src' } },
      { name: 'stats', module: 'stages/stats.ts', inputs: { seed: 'seed' } },
      ...(total ? [{ name: 'total', module: 'stages/total.ts', inputs: { seed: 'seed' } }] : []),
    ],
  };
  const write = (lines: string[]) => writeFileSync(join(root, 'numbers.txt'), lines.join('\n') + '\n');
  write(numbers);
  return { root, config, write };
}

type P = ReturnType<typeof project>;

/** 100 rows over groups a–e: row i is in group i mod 5 with value i. */
const NUMBERS = Array.from({ length: 100 }, (_, i) => `${'abcde'[i % 5]} ${i}`);

/** A pool that moves work to its workers at once (no threshold), or one with the default threshold. */
const eager = () => new ThreadPool({ size: 2, tuning: { coldMs: 0, warmMs: 0 } });

async function run(p: P, threads: ThreadPool) {
  const logs: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => (logs.push(String(chunk)), true)) as typeof write;
  try {
    const s = await runDag(await resolveDag(p.config, p.root), workspaceFor(p.root), { threads });
    const stages = Object.fromEntries(s.stages.map((x) => [x.stage, x])) as Record<string, StageResult>;
    return {
      ok: s.ok,
      stages,
      pool: threads.stats(),
      logs: logs
        .join('')
        .split('\n')
        .filter((l) => l.startsWith('[stats]') || l.startsWith('[total]')),
    };
  } finally {
    process.stderr.write = write;
    await threads.close();
  }
}

function artifact(p: P, stage = 'stats'): { hash: string; text: string; rows: Row[] } {
  const ws = workspaceFor(p.root);
  const e = readLedger(ws.ledger).entries[stage]!;
  const text = e.segments!.map((s) => readFileSync(join(ws.store, 'artifacts', stage, `${s.hash}.ndjson`), 'utf8')).join('');
  return { hash: e.artifact!, text, rows: readRows(ws.store, stage, e.segments!) };
}

test('a pure partitioned stage computes its partitions on the workers: counted there, the bytes one worker writes', async () => {
  const [one, two] = [project(NUMBERS), project(NUMBERS)];
  try {
    const a = await run(one, new ThreadPool({ size: 1 }));
    const b = await run(two, eager());
    assert.equal(a.ok && b.ok, true, JSON.stringify([a.stages.stats, b.stages.stats]));
    assert.deepEqual(a.pool, { workers: 1, started: 0, restarts: 0, inline: 0, threaded: 0 });
    assert.deepEqual(b.stages.stats!.partitions, { computed: 5, reused: 0 });
    assert.equal(b.pool.threaded, 5, 'each of the 5 partitions went to a worker');
    assert.equal(b.pool.inline, 0);
    assert.ok(b.pool.started >= 1, `workers started: ${JSON.stringify(b.pool)}`);
    const [x, y] = [artifact(one), artifact(two)];
    assert.equal(y.hash, x.hash, 'the same artifact');
    assert.equal(y.text, x.text, 'byte for byte');
    // Group a holds 0, 5, …, 95: 20 values summing to 5 · (0 + 1 + … + 19) = 950.
    assert.deepEqual(y.rows[0], { g: 'a', n: 20, sum: 950, mean: 47.5 });
    assert.deepEqual(
      y.rows.map((r) => [r.g, r.sum]),
      [
        ['a', 950],
        ['b', 970],
        ['c', 990],
        ['d', 1010],
        ['e', 1030],
      ],
    );
    // What a partition logs on a worker is printed by the main thread, as inline.
    assert.deepEqual([...b.logs].sort(), [...a.logs].sort());
    assert.deepEqual(b.logs.length, 5);
    assert.ok(b.logs.includes('[stats] group c: 20 values'), b.logs.join('\n'));
  } finally {
    rmSync(one.root, { recursive: true, force: true });
    rmSync(two.root, { recursive: true, force: true });
  }
});

test('a partition the memo holds is not sent to a worker: one changed group, one partition on the pool', async () => {
  const p = project(NUMBERS);
  try {
    await run(p, eager());
    const changed = [...NUMBERS];
    changed[1] = 'b 1000';
    p.write(changed);
    const second = await run(p, eager());
    assert.deepEqual(second.stages.stats!.partitions, { computed: 1, reused: 4 });
    assert.equal(second.pool.threaded, 1, 'only b went to a worker');
    assert.deepEqual(second.logs, ['[stats] group b: 20 values']);
    assert.deepEqual(artifact(p).rows[1], { g: 'b', n: 20, sum: 970 - 1 + 1000, mean: (970 - 1 + 1000) / 20 });
  } finally {
    rmSync(p.root, { recursive: true, force: true });
  }
});

for (const [side, pool] of [
  ['on a worker', eager],
  ['inline', () => new ThreadPool({ size: 1 })],
] as const) {
  test(`a failing partition (${side}) fails the stage naming it; the others are kept, so the rerun computes only it`, async () => {
    const bad = [...NUMBERS];
    bad[2] = 'c -4';
    const p = project(bad);
    try {
      const failed = await run(p, pool());
      assert.equal(failed.ok, false);
      assert.equal(failed.stages.stats!.status, 'failed');
      assert.match(
        failed.stages.stats!.error ?? '',
        /stage 'stats': 1 of 5 partitions computed failed \(partition \["c"\]: a negative value in group c\); the others computed are kept in its memo/,
      );
      p.write(NUMBERS);
      const fixed = await run(p, pool());
      assert.equal(fixed.ok, true);
      assert.deepEqual(fixed.stages.stats!.partitions, { computed: 1, reused: 4 });
      assert.deepEqual(fixed.logs, ['[stats] group c: 20 values']);
    } finally {
      rmSync(p.root, { recursive: true, force: true });
    }
  });
}

test('on a worker too, a column the stage does not declare in `reads` is refused (CDP_CHECK_READS, as the suite sets it)', async () => {
  assert.equal(process.env.CDP_CHECK_READS, '1', 'scripts/run-tests.mjs sets it');
  const p = project(NUMBERS);
  try {
    const module = join(p.root, 'stages', 'stats.ts');
    writeFileSync(
      module,
      readFileSync(module, 'utf8').replace('const g = seed[0].g as string;', 'const g = String(seed[0].g) + seed[0].id;'),
    );
    const r = await run(p, eager());
    assert.equal(r.pool.threaded, 5);
    assert.match(
      r.stages.stats!.error ?? '',
      /5 of 5 partitions computed failed \(partition \["a"\]: stage 'stats' read column 'id' of input 'seed', which its `reads` does not declare/,
    );
  } finally {
    rmSync(p.root, { recursive: true, force: true });
  }
});

test('partitions too small to be worth the workers stay on the main thread (the pool’s threshold)', async () => {
  const p = project(NUMBERS);
  try {
    const r = await run(p, new ThreadPool({ size: 2 }));
    assert.deepEqual(r.stages.stats!.partitions, { computed: 5, reused: 0 });
    assert.deepEqual(r.pool, { workers: 2, started: 0, restarts: 0, inline: 5, threaded: 0 });
  } finally {
    rmSync(p.root, { recursive: true, force: true });
  }
});

test('partitions of THREADED_ROWS rows or more go to the workers with the default threshold, none timed inline first', async () => {
  const p = project(Array.from({ length: THREADED_ROWS }, (_, i) => `${'abcde'[i % 5]} ${i % 1000}`));
  try {
    const r = await run(p, new ThreadPool({ size: 2 }));
    assert.deepEqual(r.stages.stats!.partitions, { computed: 5, reused: 0 });
    assert.equal(r.pool.inline, 0, JSON.stringify(r.pool));
    assert.equal(r.pool.threaded, 5);
    // Group a: i ≡ 0 (mod 5), so i mod 1000 runs over the 200 values 0, 5, …, 995, 100 times each.
    assert.deepEqual(artifact(p).rows[0], { g: 'a', n: THREADED_ROWS / 5, sum: 100 * 5 * ((199 * 200) / 2), mean: 497.5 });
  } finally {
    rmSync(p.root, { recursive: true, force: true });
  }
});

test('what the partitions derive alike from a whole input (`common`) is derived once per run inline and once per worker', async () => {
  for (const [side, pool] of [
    ['inline', () => new ThreadPool({ size: 1 })],
    ['on workers', eager],
  ] as const) {
    const p = project(NUMBERS);
    try {
      // share: each group's sum over the total of the whole input, the total derived in `common`.
      writeFileSync(
        join(p.root, 'stages', 'share.ts'),
        `import { tableStage } from ${JSON.stringify(join(pipelineDir, 'stage.ts'))};
let derivations = 0;
const total = ({ all }) => ({ total: all.reduce((s, r) => s + r.v, 0), derivation: ++derivations });
export default tableStage({
  inputs: { seed: 'whole', all: 'whole' },
  reads: { seed: ['g', 'v'], all: ['v'] },
  pure: true,
  partition: { by: { seed: ['g'] }, common: total },
  columns: { g: 'VARCHAR', share: 'DOUBLE', derivation: 'INTEGER' },
  run({ seed, all }, ctx) {
    const c = ctx.common ?? total({ all });
    return [{ g: seed[0].g, share: seed.reduce((s, r) => s + r.v, 0) / c.total, derivation: c.derivation }];
  },
});
`,
      );
      p.config.stages.push({ name: 'share', module: 'stages/share.ts', inputs: { seed: 'seed', all: 'seed' } });
      const r = await run(p, pool());
      assert.equal(r.ok, true, JSON.stringify(r.stages.share));
      assert.deepEqual(r.stages.share!.partitions, { computed: 5, reused: 0 });
      const ws = workspaceFor(p.root);
      const rows = readRows(ws.store, 'share', readLedger(ws.ledger).entries.share!.segments!);
      // 0 + 1 + … + 99 = 4950; group a sums 950.
      assert.deepEqual(
        rows.map((x) => [x.g, x.share]),
        [950, 970, 990, 1010, 1030].map((s, i) => ['abcde'[i], s / 4950]),
        side,
      );
      assert.deepEqual(new Set(rows.map((x) => x.derivation)), new Set([1]), `${side}: derived once where the partitions ran`);
    } finally {
      rmSync(p.root, { recursive: true, force: true });
    }
  }
});

test('a pure whole-table stage runs on a worker as one call without a partition, the bytes one worker writes', async () => {
  const [one, two] = [project(NUMBERS, true), project(NUMBERS, true)];
  try {
    const a = await run(one, new ThreadPool({ size: 1 }));
    const b = await run(two, eager());
    assert.equal(a.ok && b.ok, true, JSON.stringify([a.stages.total, b.stages.total]));
    assert.equal(b.pool.threaded, 5 + 1, "the 5 partitions of stats and total's one call");
    assert.equal(b.pool.inline, 0);
    const [x, y] = [artifact(one, 'total'), artifact(two, 'total')];
    assert.equal(y.text, x.text, 'byte for byte');
    // 0 + 1 + … + 99; no partition in its context.
    assert.deepEqual(y.rows, [{ n: 100, sum: 4950, partition: 'undefined' }]);
    assert.ok(b.logs.includes('[total] total over 100 rows') && b.logs.includes('[total] on a worker'), b.logs.join('\n'));
    assert.ok(!a.logs.includes('[total] on a worker'), 'one worker: on the main thread');
  } finally {
    rmSync(one.root, { recursive: true, force: true });
    rmSync(two.root, { recursive: true, force: true });
  }
});
