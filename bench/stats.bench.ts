// The paper-scale statistics workload (Appendix D, §4.5), measured against NumPy/SciPy in the
// same run:
//   - bootstrap CIs for 288 cells (16 models × 2 settings × 3 judges × 3 metrics), 7,458 cases
//     each, 10,000 resamples, case bootstrap and cluster bootstrap (440 guidelines of uneven
//     size), on two worker threads (one per core);
//   - Table 2 at instance level: 7,458 cases × 16 models = 119,328 instances, 18 pairs ×
//     (Pearson, Spearman, Kendall τ-b) and 6 Kendall's W.
// The Python side (stages/stats/fixtures/numpy_bench.py) times scipy.stats.bootstrap and
// vectorised NumPy resampling on a few cells and is scaled to 288; it runs single-threaded,
// which is how NumPy runs these operations.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg, cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchReport, BenchRow } from './report.ts';
import { percentileBootstrapMany, clusterBootstrapMany } from '../stages/stats/bootstrap.ts';
import type { BootstrapResult } from '../stages/stats/bootstrap.ts';
import { correlationTable } from '../stages/stats/correlation-table.ts';
import { createRng } from '../stages/stats/rng.ts';

const CELLS = 288,
  CASES = 7458,
  GUIDELINES = 440,
  RESAMPLES = 10000,
  SEED = 42,
  LEVEL = 0.95;
const MODELS = 16,
  INSTANCES = CASES * MODELS,
  WORKERS = 2;

interface Job {
  kind: 'case' | 'cluster';
  from: number;
  to: number;
  resamples: number;
}
interface JobDone {
  results: BootstrapResult[];
}
interface Shared {
  cells: SharedArrayBuffer;
  clusters: SharedArrayBuffer;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

if (!isMainThread && (workerData as { statsBench?: Shared } | null)?.statsBench) {
  const shared = (workerData as { statsBench: Shared }).statsBench;
  const all = new Float64Array(shared.cells);
  const clusters = new Int32Array(shared.clusters);
  parentPort!.on('message', (job: Job) => {
    const cells = Array.from({ length: job.to - job.from }, (_, k) => all.subarray((job.from + k) * CASES, (job.from + k + 1) * CASES));
    const opts = { resamples: job.resamples, seed: SEED, level: LEVEL };
    const results = job.kind === 'case' ? percentileBootstrapMany(cells, opts) : clusterBootstrapMany(cells, clusters, opts);
    const done: JobDone = { results };
    parentPort!.postMessage(done);
  });
}

function normal(rng: ReturnType<typeof createRng>): number {
  return Math.sqrt(-2 * Math.log(1 - rng.nextFloat())) * Math.cos(2 * Math.PI * rng.nextFloat());
}

/** 440 guidelines with lognormal sizes (1 to ~100 cases) summing to 7,458, and 288 cells of PCC-like values. */
function syntheticBootstrapData(): { cells: Float64Array; clusters: Int32Array; sizes: number[] } {
  const rng = createRng(2026);
  const weights = Array.from({ length: GUIDELINES }, () => Math.exp(1.1 * normal(rng)));
  const total = weights.reduce((s, w) => s + w, 0);
  const sizes = weights.map((w) => 1 + Math.floor((w / total) * (CASES - GUIDELINES)));
  for (let g = 0; sizes.reduce((s, x) => s + x, 0) < CASES; g = (g + 1) % GUIDELINES) sizes[g]!++;
  const clusters = new Int32Array(CASES);
  let i = 0;
  sizes.forEach((size, g) => {
    for (let k = 0; k < size; k++) clusters[i++] = g;
  });
  const difficulty = Array.from({ length: GUIDELINES }, () => normal(rng));
  const cells = new Float64Array(CELLS * CASES);
  for (let c = 0; c < CELLS; c++) {
    const level = 0.25 + 0.3 * rng.nextFloat();
    for (let j = 0; j < CASES; j++) {
      const v = level + 0.08 * difficulty[clusters[j]!]! + 0.15 * normal(rng);
      cells[c * CASES + j] = Math.min(1, Math.max(0, v));
    }
  }
  return { cells, clusters, sizes };
}

/** judges (GPT, Qwen, BERT) × metrics (DTW, OT, LNDS) × instances; LNDS is inverted as in the paper. */
function syntheticCorrelationData(): Float64Array[][] {
  const rng = createRng(7);
  const latent = Float64Array.from({ length: INSTANCES }, () => normal(rng));
  const judgeNoise = [0.5, 0.6, 1.1];
  return judgeNoise.map((noise) => {
    const judged = Float64Array.from(latent, (x) => x + noise * normal(rng));
    const dtw = Float64Array.from(judged, (x) => 1 / (1 + Math.exp(-x - 0.2 * normal(rng))));
    const ot = Float64Array.from(dtw, (x) => x + 0.05 * normal(rng));
    // PCS = k/m on short pathways: heavy ties; inverted (1 − PCS) so all three point the same way.
    const lnds = Float64Array.from(judged, (x) => 1 - Math.round(8 * (1 - 1 / (1 + Math.exp(-x - 0.4 * normal(rng))))) / 8);
    return [dtw, ot, lnds];
  });
}

async function runBootstraps(shared: Shared): Promise<Record<Job['kind'], { results: BootstrapResult[]; wallMs: number; cpuMs: number }>> {
  const api = import.meta.resolve('tsx/esm/api');
  // A worker cannot start from a .ts file on Node 20, so it registers tsx and then imports us.
  const code = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const workers = Array.from({ length: WORKERS }, () => new Worker(code, { eval: true, workerData: { statsBench: shared } }));
  const run = (w: Worker, job: Job) =>
    new Promise<JobDone>((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
      w.postMessage(job);
    });
  const out = {} as Record<Job['kind'], { results: BootstrapResult[]; wallMs: number; cpuMs: number }>;
  try {
    // Warm-up: start the workers and compile the kernels on a tiny job, outside the timing.
    await Promise.all(workers.map((w) => run(w, { kind: 'case', from: 0, to: 8, resamples: 300 })));
    for (const kind of ['case', 'cluster'] as const) {
      const per = Math.ceil(CELLS / WORKERS);
      // process.cpuUsage covers every thread of the process; the main thread only waits here.
      const start = performance.now(),
        cpuStart = cpuMs();
      const done = await Promise.all(
        workers.map((w, k) => run(w, { kind, from: k * per, to: Math.min(CELLS, (k + 1) * per), resamples: RESAMPLES })),
      );
      out[kind] = { results: done.flatMap((d) => d.results), wallMs: performance.now() - start, cpuMs: cpuMs() - cpuStart };
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return out;
}

function tableTwo(data: Float64Array[][]): { values: number[][]; w: number[]; ms: number; cpuMs: number } {
  const judges = ['GPT', 'Qwen', 'BERT'],
    metrics = ['DTW', 'OT', 'LNDS'];
  const scores = Object.fromEntries(judges.map((j, a) => [j, Object.fromEntries(metrics.map((m, b) => [m, data[a]![b]!]))]));
  const start = performance.now(),
    cpuStart = cpuMs();
  const rows = correlationTable(scores, { judges, metrics }); // LNDS is inverted in the data already
  const ms = performance.now() - start,
    cpu = cpuMs() - cpuStart;
  return {
    values: rows.map((r) => [r.pearson_r, r.spearman_rho, r.kendall_tau]),
    w: rows.flatMap((r) => (r.kendall_w === null ? [] : [r.kendall_w])),
    ms,
    cpuMs: cpu,
  };
}

interface PyMethod {
  cells: number;
  seconds_per_cell: number;
  cpu_seconds_per_cell: number;
  ci: number[][];
}
interface PyOut {
  scipy_case: PyMethod;
  numpy_case: PyMethod;
  numpy_cluster: PyMethod;
  correlations: { seconds: number; cpu_seconds: number; pairs: number[][]; w: number[] };
  peak_rss_mb: number;
  numpy: string;
  scipy: string;
}

export default async function statsBench(): Promise<BenchReport> {
  const { cells, clusters, sizes } = syntheticBootstrapData();
  const corr = syntheticCorrelationData();

  const shared: Shared = { cells: new SharedArrayBuffer(cells.byteLength), clusters: new SharedArrayBuffer(clusters.byteLength) };
  new Float64Array(shared.cells).set(cells);
  new Int32Array(shared.clusters).set(clusters);
  const boot = await runBootstraps(shared);
  const two = tableTwo(corr);
  const rssMb = process.resourceUsage().maxRSS / 1024;

  const dir = mkdtempSync(join(tmpdir(), 'stats-bench-'));
  let py: PyOut;
  try {
    const subset = { scipy: 2, numpy_case: 4, numpy_cluster: 16 };
    writeFileSync(
      join(dir, 'meta.json'),
      JSON.stringify({ cells: CELLS, n: CASES, resamples: RESAMPLES, seed: SEED, level: LEVEL, corr_n: INSTANCES, subset }),
    );
    writeFileSync(join(dir, 'cells.bin'), cells);
    writeFileSync(join(dir, 'clusters.bin'), clusters);
    const flat = new Float64Array(9 * INSTANCES);
    corr.forEach((judge, j) => judge.forEach((m, k) => flat.set(m, (j * 3 + k) * INSTANCES)));
    writeFileSync(join(dir, 'corr.bin'), flat);
    const script = fileURLToPath(new URL('../stages/stats/fixtures/numpy_bench.py', import.meta.url));
    const res = spawnSync('/usr/bin/python3', [script, dir], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (res.status !== 0) throw new Error(`numpy_bench.py failed (is python3-scipy installed for /usr/bin/python3?):\n${res.stderr}`);
    py = JSON.parse(res.stdout) as PyOut;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const caseS = boot.case.wallMs / 1000,
    clusterS = boot.cluster.wallMs / 1000;
  const numpyCaseAll = py.numpy_case.seconds_per_cell * CELLS;
  const scipyCaseAll = py.scipy_case.seconds_per_cell * CELLS;
  const numpyClusterAll = py.numpy_cluster.seconds_per_cell * CELLS;
  let maxDiff = 0;
  two.values.forEach((row, i) =>
    row.forEach((v, k) => {
      maxDiff = Math.max(maxDiff, Math.abs(v - py.correlations.pairs[i]![k]!));
    }),
  );
  two.w.forEach((w, i) => {
    maxDiff = Math.max(maxDiff, Math.abs(w - py.correlations.w[i]!));
  });
  // Same cells, independent resamples: CI ends should differ by Monte-Carlo error only.
  const ciGap = (ours: BootstrapResult[], theirs: PyMethod) =>
    Math.max(...theirs.ci.map(([lo, hi, se], c) => Math.max(Math.abs(ours[c]!.ciLow - lo!), Math.abs(ours[c]!.ciHigh - hi!)) / se!));
  const budget = 15;
  const bootCpuS = (boot.case.cpuMs + boot.cluster.cpuMs) / 1000;

  const rows: BenchRow[] = [
    {
      name: `case bootstrap, ${CELLS} cells × ${CASES} cases × ${RESAMPLES} resamples`,
      value: caseS,
      unit: 's',
      reference: { name: `NumPy vectorised (${py.numpy_case.cells} cells, scaled)`, value: numpyCaseAll },
    },
    {
      name: 'case bootstrap, same',
      value: caseS,
      unit: 's',
      reference: { name: `scipy.stats.bootstrap percentile (${py.scipy_case.cells} cells, scaled)`, value: scipyCaseAll },
    },
    {
      name: `cluster bootstrap, ${CELLS} cells, ${GUIDELINES} guidelines`,
      value: clusterS,
      unit: 's',
      reference: { name: `NumPy vectorised (${py.numpy_cluster.cells} cells, scaled)`, value: numpyClusterAll },
    },
    {
      name: 'whole bootstrap workload (both kinds), 2 worker threads',
      value: caseS + clusterS,
      unit: 's',
      reference: { name: 'NumPy vectorised, scaled', value: numpyCaseAll + numpyClusterAll },
      target: { text: `≤ ${budget} s (a quarter of 60 s) on 2 cores`, met: caseS + clusterS <= budget },
    },
    {
      name: 'bootstrap CPU time, both kinds (all threads)',
      value: bootCpuS,
      unit: 's',
      reference: {
        name: 'NumPy vectorised CPU time, scaled',
        value: (py.numpy_case.cpu_seconds_per_cell + py.numpy_cluster.cpu_seconds_per_cell) * CELLS,
      },
      target: { text: `≤ ${2 * budget} s, i.e. ≤ ${budget} s on 2 free cores`, met: bootCpuS <= 2 * budget },
      note: 'robust to other load on the machine, unlike wall time',
    },
    {
      name: `Table 2 at instance level: 18 pairs × (r, ρ, τ-b) + 6 W, n = ${INSTANCES}`,
      value: two.ms / 1000,
      unit: 's',
      reference: { name: 'scipy pearsonr/spearmanr/kendalltau + NumPy W', value: py.correlations.seconds },
    },
    {
      name: 'Table 2, CPU time',
      value: two.cpuMs / 1000,
      unit: 's',
      reference: { name: 'SciPy + NumPy CPU time', value: py.correlations.cpu_seconds },
    },
    { name: 'max |Δ| of the 60 coefficients vs SciPy', value: maxDiff, unit: '', target: { text: '< 1e-9', met: maxDiff < 1e-9 } },
    {
      name: 'peak RSS (Node, incl. worker threads)',
      value: rssMb,
      unit: 'MB',
      reference: { name: 'Python peak RSS', value: py.peak_rss_mb },
    },
  ];
  return {
    title: 'Statistics: paper-scale bootstrap CIs and Table 2 correlations (stages/stats)',
    rows,
    notes: [
      `Workload: ${CELLS} synthetic cells of ${CASES} PCC-like values in [0, 1]; ${GUIDELINES} guidelines of ${Math.min(...sizes)}–${Math.max(...sizes)} cases; ` +
        `${RESAMPLES} resamples, seed ${SEED}, 95 % percentile CIs. Node runs ${WORKERS} worker threads; NumPy/SciPy run single-threaded and are timed on a subset of cells, scaled to ${CELLS}.`,
      `Monte-Carlo check on the subset cells (independent resamples): max |CI end difference| / bootstrap SE = ${ciGap(boot.case.results, py.numpy_case).toFixed(3)} vs NumPy case, ` +
        `${ciGap(boot.case.results, py.scipy_case).toFixed(3)} vs SciPy, ${ciGap(boot.cluster.results, py.numpy_cluster).toFixed(3)} vs NumPy cluster (≈ 0.1 expected).`,
      `Correlation data: 3 judges × 3 metrics × ${INSTANCES} instances, LNDS on an 1/8 grid (heavy ties) and inverted. NumPy ${py.numpy}, SciPy ${py.scipy}.`,
      `Load average during the run: ${loadavg()
        .map((x) => x.toFixed(1))
        .join(
          ', ',
        )} on ${cpus().length} cores. When other work shares the machine, wall times stretch and the CPU-time row is the one to compare; NumPy's times stretch the same way.`,
    ],
  };
}
