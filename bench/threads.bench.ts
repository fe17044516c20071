// Worker threads (pipeline/threads): a CPU-bound DAG run by `cdp run --workers 1` and `--workers 2`
// in fresh processes on fresh stores, measured with /usr/bin/time (wall, user + system CPU, peak
// RSS), and the pool's start-up. The DAG's one pure row stage scores pathways with the real
// metric code (stages/metrics/pathway-metrics.ts: DTW, OT, LNDS) on seeded random score
// matrices of the long half of the paper's path lengths, under four calibrations per unit.
// CDP_BENCH_UNITS overrides the 20,000 units.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchReport, BenchRow } from './report.ts';
import { ThreadPool } from '../pipeline/threads/pool.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cdpBin = join(repo, 'bin', 'cdp.mjs');

function writeProject(units: number): string {
  const root = mkdtempSync(join(tmpdir(), 'cdp-threads-bench-'));
  mkdirSync(join(root, 'stages'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(root, 'units.txt'), `${units}\n`);
  const stageTs = JSON.stringify(join(repo, 'pipeline', 'stage.ts'));
  const metricsTs = JSON.stringify(join(repo, 'stages', 'metrics', 'pathway-metrics.ts'));
  writeFileSync(
    join(root, 'stages', 'seed.ts'),
    `import { tableStage } from ${stageTs};
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// One small row per unit: the unit draws its own matrix, so the main thread's share stays small.
export default tableStage({
  inputs: { src: 'whole' },
  columns: { id: 'VARCHAR', seed: 'INTEGER' },
  run(inputs, ctx) {
    const units = Number(readFileSync(join(ctx.root, inputs.src[0].path as string), 'utf8'));
    return Array.from({ length: units }, (_, i) => ({ id: 'u' + i, seed: i + 1 }));
  },
});
`,
  );
  writeFileSync(
    join(root, 'stages', 'score.ts'),
    `import { rowStage } from ${stageTs};
import { scorePathway } from ${metricsTs};
// An m × n matrix of step scores in [0, 1] (m, n from 8 to 27, the long half of the paper's path
// lengths) drawn from the unit's seed, scored under four (γ, β) calibrations: a sensitivity sweep.
export default rowStage({
  inputs: { seed: 'drives' },
  pure: true,
  columns: { id: 'VARCHAR', dtw_pcc: 'DOUBLE', ot_pcc: 'DOUBLE', lnds_pcs: 'DOUBLE' },
  run({ row }) {
    let s = row.seed as number;
    const r = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
    const m = 8 + Math.floor(r() * 20), n = 8 + Math.floor(r() * 20);
    const C = Array.from({ length: m }, () => Array.from({ length: n }, () => Math.round(r() * 100) / 100));
    let dtw = 0, ot = 0, lnds = 0;
    for (const [gamma, beta] of [[0.3, 0.3], [0.5, 0.5], [0.7, 0.5], [0.5, 0.9]]) {
      const p = scorePathway({ id: row.id, C, gamma, beta });
      dtw += p.dtw_pcc / 4; ot += p.ot_pcc / 4; lnds += p.lnds_pcs / 4;
    }
    return { id: row.id, dtw_pcc: dtw, ot_pcc: ot, lnds_pcs: lnds };
  },
});
`,
  );
  writeFileSync(
    join(root, 'dag.config.ts'),
    `import { defineDag, stage, files } from ${JSON.stringify(join(repo, 'pipeline', 'index.ts'))};
export default defineDag({
  sources: { src: files('units.txt') },
  stages: [
    stage('seed', { module: 'stages/seed.ts', inputs: { src: 'src' } }),
    stage('score', { module: 'stages/score.ts', inputs: { seed: 'seed' }, forEach: 'seed', commitEvery: 2000 }),
  ],
});
`,
  );
  return root;
}

interface Timed {
  wall: number;
  cpu: number;
  rssMiB: number;
  threads: { started: number; inline: number; threaded: number };
}

function cdpRun(root: string, workers: number, extra: string[] = []): Timed {
  rmSync(join(root, 'data'), { recursive: true, force: true });
  rmSync(join(root, '.cdp'), { recursive: true, force: true });
  const r = spawnSync(
    '/usr/bin/time',
    ['-f', 'TIME %e %U %S %M', process.execPath, cdpBin, 'run', '--json', '--workers', String(workers), ...extra],
    { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`cdp run --workers ${workers} failed in ${root}:\n${r.stderr.slice(-2000)}`);
  const threads = (JSON.parse(r.stdout) as { threads: Timed['threads'] }).threads;
  return { wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), rssMiB: Number(m[4]) / 1024, threads };
}

/** The pool's start-up: wall time to a first answer from each of two workers, and the process's CPU for it. */
async function startup(): Promise<{ wallMs: number; cpuMs: number }> {
  const fixture = join(repo, 'pipeline', 'threads', 'testing', 'pool-fixture.ts');
  const pool = new ThreadPool({ size: 2, tuning: { coldMs: 0 } });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const task = pool.task<number, { value: number }>({ module: fixture, fn: 'square', shared: { offset: 0 } });
  await Promise.all(Array.from({ length: 256 }, (_, i) => task.run(i)));
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  await pool.close();
  return { wallMs, cpuMs: (c.user + c.system) / 1000 };
}

function best(n: number, f: () => Timed): Timed {
  let b: Timed | null = null;
  for (let i = 0; i < n; i++) {
    const t = f();
    if (!b || t.wall < b.wall) b = t;
  }
  return b!;
}

export default async function (): Promise<BenchReport> {
  const units = Number(process.env.CDP_BENCH_UNITS ?? 20000);
  const root = writeProject(units);
  const rows: BenchRow[] = [];
  try {
    const base = cdpRun(root, 1, ['score']).wall; // warms tsx's cache and the page cache
    void base;
    const one = best(2, () => cdpRun(root, 1));
    const two = best(2, () => cdpRun(root, 2));
    const four = cdpRun(root, 4);
    const seedOnly = best(2, () => cdpRun(root, 1, ['seed']));
    const s = await startup();
    const speedup = one.wall / two.wall;
    rows.push(
      { name: '--workers 1: wall', value: one.wall, unit: 's' },
      { name: '--workers 2: wall', value: two.wall, unit: 's', reference: { name: '--workers 1', value: one.wall } },
      {
        name: 'speed-up, 2 workers over 1 (wall)',
        value: speedup,
        unit: '×',
        target: { text: '≥ 1.7×', met: speedup >= 1.7 },
      },
      { name: '--workers 1: CPU (user + system)', value: one.cpu, unit: 's' },
      { name: '--workers 2: CPU (user + system)', value: two.cpu, unit: 's', reference: { name: '--workers 1', value: one.cpu } },
      { name: 'the pure stage, per unit on one core (CPU, beyond seeding)', value: ((one.cpu - seedOnly.cpu) / units) * 1000, unit: 'ms' },
      { name: 'the pure stage, per unit with 2 workers (CPU, all threads)', value: ((two.cpu - seedOnly.cpu) / units) * 1000, unit: 'ms' },
      { name: 'seeding alone (main thread, no unit): wall', value: seedOnly.wall, unit: 's' },
      { name: 'peak RSS, --workers 1', value: one.rssMiB, unit: 'MiB' },
      { name: 'peak RSS, --workers 2', value: two.rssMiB, unit: 'MiB', reference: { name: '--workers 1', value: one.rssMiB } },
      {
        name: 'peak RSS, --workers 4 (on 2 cores)',
        value: four.rssMiB,
        unit: 'MiB',
        reference: { name: '--workers 1', value: one.rssMiB },
      },
      { name: 'pool start-up: 2 workers to their first answers (wall)', value: s.wallMs, unit: 'ms' },
      { name: 'pool start-up: CPU of the process meanwhile (all threads)', value: s.cpuMs, unit: 'ms' },
    );
    const serial = seedOnly.wall;
    const perUnit = (one.cpu - seedOnly.cpu) / units;
    return {
      title: 'Worker threads: a CPU-bound DAG with 1 and 2 workers',
      rows,
      notes: [
        `Workload: ${units.toLocaleString('en')} units of one pure row stage scoring pathways with the real metric code (DTW, OT, LNDS; a seeded m × n matrix, m, n from 8 to 27, under four (γ, β) calibrations), after a table stage that lists them. Each time is the best of 2 fresh \`cdp run\` processes on a fresh store (the 4-worker run once). Units on workers: ${two.threads.threaded.toLocaleString('en')} of ${(two.threads.threaded + two.threads.inline).toLocaleString('en')} with 2 workers (the first ones are timed inline before the pool starts).`,
        `Extrapolating to k cores: wall ≈ ${serial.toFixed(1)} s of the run outside the units (start-up, seeding, commit: measured by running the seed stage alone) + ${(perUnit * 1000).toFixed(3)} ms × units ÷ k; the main thread's share per unit (checking, the memo, the artifact) bounds k in practice. The machine is shared with other engineers' runs: the load average is below; CPU rows are steadier than wall rows.`,
        'Memory bound: each worker holds its isolate (tsx and the stage module, see the RSS rows), the shared value of the tasks it serves (a pure stage\u2019s params and whole inputs, once per worker) and at most 2 batches of at most 64 units; what is in flight is at most workers × 2 × 64 units, whatever the stage size.',
      ],
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
