// The runner against Snakemake on the same 200-stage DAG (bench/synthetic-dag.ts), and the
// no-op rerun of the bundled sample DAG. Every time is the wall time of a fresh process, as a
// user experiences it. CDP_BENCH_ROWS overrides the 10,000 rows per stage for a quick look.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchReport, BenchRow } from './report.ts';
import { writeCdpProject, writeSnakemakeProject } from './synthetic-dag.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cdpBin = join(repo, 'bin', 'cdp.mjs');

function timed(cmd: string, args: string[], cwd: string): number {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  const s = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${r.stderr.slice(-2000)}`);
  return s;
}

function best(n: number, f: () => number): number {
  let b = Infinity;
  for (let i = 0; i < n; i++) b = Math.min(b, f());
  return b;
}

function snakemakeAvailable(): boolean {
  return spawnSync('snakemake', ['--version'], { encoding: 'utf8' }).status === 0;
}

export default async function (): Promise<BenchReport> {
  const rowsPerStage = Number(process.env.CDP_BENCH_ROWS ?? 10000);
  const rows: BenchRow[] = [];
  const notes: string[] = [
    `Workload: 200 stages (1 table stage + 199 row-mapped stages joined pairwise across 10 chains), ${rowsPerStage.toLocaleString('en')} rows each. ` +
      'Times are wall seconds of a fresh process (`cdp run`, `snakemake --cores 2`), including start-up; no-op times are the best of 3.',
  ];

  const cdp = writeCdpProject(rowsPerStage);
  const cdpRun = () => timed(process.execPath, [cdpBin, 'run'], cdp.root);
  const full = cdpRun();
  const noop = best(3, cdpRun);
  cdp.changeOneRow();
  const oneRow = cdpRun();
  const cdpSum = JSON.parse(
    spawnSync(process.execPath, [cdpBin, 'sql', 'select sum(v)::varchar as s from s20_8', '--json'], { cwd: cdp.root, encoding: 'utf8' })
      .stdout,
  )[0].s as string;
  // Where the changed row falls decides how many rows its segment holds, and so the cost: two more
  // one-row changes elsewhere, each on top of the last, give the spread.
  const half = Math.floor(rowsPerStage / 2);
  const third = Math.floor(rowsPerStage / 3);
  const twoThirds = Math.floor((2 * rowsPerStage) / 3);
  cdp.changeRows([half, third]);
  const oneRowB = cdpRun();
  cdp.changeRows([half, third, twoThirds]);
  const oneRowC = cdpRun();
  const oneRowTimes = [oneRow, oneRowB, oneRowC].sort((a, b) => a - b);
  const oneRowMedian = oneRowTimes[1]!;
  notes.push(
    `One-row changes: row ${half} ${oneRow.toFixed(2)} s (the one Snakemake also makes), then row ${third} ${oneRowB.toFixed(2)} s, ` +
      `then row ${twoThirds} ${oneRowC.toFixed(2)} s; the share of the full run is the median's.`,
  );

  let smk: { full: number; noop: number; dry: number; oneRow: number; sum: string } | null = null;
  if (snakemakeAvailable()) {
    const s = writeSnakemakeProject(rowsPerStage);
    const args = ['--cores', '2', '--quiet'];
    const sFull = timed('snakemake', args, s.root);
    const sNoop = best(3, () => timed('snakemake', args, s.root));
    const sDry = best(3, () => timed('snakemake', ['-n', '--quiet'], s.root));
    s.changeOneRow();
    const sOne = timed('snakemake', args, s.root);
    const sum = readFileSync(join(s.root, 'out', 's20_8.tsv'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .reduce((acc, l) => acc + BigInt(l.split('\t')[1]), 0n)
      .toString();
    smk = { full: sFull, noop: sNoop, dry: sDry, oneRow: sOne, sum };
    notes.push(
      `Results agree: the last stage's sum of values is ${cdpSum} in cdp and ${sum} in Snakemake (${cdpSum === sum ? 'equal' : 'DIFFERENT'}).`,
    );
  } else {
    notes.push('Snakemake is not installed (apt-get install snakemake), so the reference rows are missing.');
  }

  const smkNoop = smk ? Math.min(smk.noop, smk.dry) : undefined;
  rows.push({ name: 'cdp full run', value: full, unit: 's', reference: smk ? { name: 'Snakemake full run', value: smk.full } : undefined });
  rows.push({
    name: 'cdp no-op rerun',
    value: noop,
    unit: 's',
    reference: smkNoop !== undefined ? { name: 'Snakemake no-op (faster of up-to-date run and -n)', value: smkNoop } : undefined,
    target: smkNoop !== undefined ? { text: '≥ 3× faster than Snakemake (ratio ≤ 0.33)', met: noop * 3 <= smkNoop } : undefined,
  });
  rows.push({
    name: 'cdp no-op as a share of the full run',
    value: (100 * noop) / full,
    unit: '%',
    target: { text: '< 2%', met: noop / full < 0.02 },
  });
  rows.push({
    name: 'cdp one-row change',
    value: oneRow,
    unit: 's',
    reference: smk ? { name: 'Snakemake after the same change', value: smk.oneRow } : undefined,
  });
  rows.push({
    name: 'cdp one-row change as a share of the full run (median of 3 rows)',
    value: (100 * oneRowMedian) / full,
    unit: '%',
    target: { text: '< 10%', met: oneRowMedian / full < 0.1 },
  });

  // The bundled sample DAG, when the project has one: a full run first, then the timed no-op.
  if (existsSync(join(repo, 'dag.config.ts'))) {
    timed(process.execPath, [cdpBin, 'run'], repo);
    const sampleNoop = best(3, () => timed(process.execPath, [cdpBin, 'run'], repo));
    rows.push({ name: 'bundled sample DAG: no-op rerun', value: sampleNoop, unit: 's', target: { text: '< 1 s', met: sampleNoop < 1 } });
  }
  return { title: 'DAG runner: 200-stage synthetic DAG against Snakemake', rows, notes };
}
