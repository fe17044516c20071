// The no-op `cdp run` of the bundled sample with each option, as a user types it: the fast path
// (pipeline/cli/fast-noop.mjs) answers before TypeScript loads whatever the options, as long as
// none changed. Each figure is the best wall time of 5 fresh processes after one run that
// brought the store up to date with those options; the reference is the full runner deciding the
// same no-op (CDP_NO_FAST_PATH=1).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchReport, BenchRow } from './report.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cdpBin = join(repo, 'bin', 'cdp.mjs');

/** A fresh process under /usr/bin/time: wall and CPU (user + system) seconds, and what it printed on stderr. */
function timed(args: string[], env: NodeJS.ProcessEnv = {}, bin = [cdpBin]): { s: number; cpu: number; stderr: string } {
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S', process.execPath, ...bin, ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`cdp ${args.join(' ')} failed:\n${r.stderr.slice(-2000)}`);
  return { s: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), stderr: r.stderr.slice(0, m.index) };
}

/** The best of n runs, by wall time and by CPU time. */
function best(n: number, f: () => { s: number; cpu: number }): { s: number; cpu: number } {
  const runs = Array.from({ length: n }, f);
  return { s: Math.min(...runs.map((r) => r.s)), cpu: Math.min(...runs.map((r) => r.cpu)) };
}

export default async function (): Promise<BenchReport> {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-noop-bench-'));
  const store = ['--store', join(dir, 'store')];
  // A models file that declares one judge, disabled: the run stays offline (the sample's stand-ins).
  const models = join(dir, 'models.json');
  writeFileSync(
    models,
    JSON.stringify({ models: [{ name: 'later', baseURL: 'http://127.0.0.1:9/v1', roles: ['judge'], enabled: false }] }),
  );
  const variants: [string, string[]][] = [
    ['no option (the default store: `npm start` again)', []],
    ['--store DIR', store],
    ['--corpus data/sample', [...store, '--corpus', 'data/sample']],
    ['--models FILE', [...store, '--models', models]],
    ['--limit 1000', [...store, '--limit', '1000']],
    ['--reports DIR', [...store, '--reports', join(dir, 'reports')]],
    ['--simulated', [...store, '--simulated']],
    ['--set cdps.seed=156', [...store, '--set', 'cdps.seed=156']],
    ['--config dag.config.ts', [...store, '--config', 'dag.config.ts']],
    // The second benchmark's sample, in a store of its own.
    ['--config cpgbench.config.ts (CPGBench)', ['--store', join(dir, 'cpg-store'), '--config', 'cpgbench.config.ts']],
  ];
  const all = [
    ...store,
    '--corpus',
    'data/sample',
    '--models',
    models,
    '--limit',
    '1000',
    '--reports',
    join(dir, 'reports'),
    '--simulated',
  ];
  const shuffled = [
    '--simulated',
    '--limit=1000',
    `--reports=${join(dir, 'reports')}`,
    '--models',
    models,
    '--corpus=data/sample',
    ...store,
  ];
  const node = best(5, () => timed(['-e', '0'], {}, []));
  const rows: BenchRow[] = [{ name: 'bare Node.js start-up (`node -e 0`), for scale', value: node.s, unit: 's' }];
  const cpu: string[] = [];
  let worstCpu = 0;
  let fastMisses = 0;
  for (const [name, args] of [...variants, ['all of them, then again in another order', all] as [string, string[]]]) {
    timed(['run', ...args]); // brings the store up to date with these options, and writes the fingerprint
    const again = name.startsWith('all') ? ['run', ...shuffled] : ['run', ...args];
    const fast = best(9, () => {
      const r = timed([...again, '--json']);
      if (r.stderr !== '') fastMisses++;
      return r;
    });
    const full = best(2, () => timed([...again, '--json'], { CDP_NO_FAST_PATH: '1' }));
    rows.push({
      name: `no-op with ${name}`,
      value: fast.s,
      unit: 's',
      reference: { name: 'the full runner deciding it', value: full.s },
      target: { text: '< 0.2 s', met: fast.s < 0.2 },
    });
    worstCpu = Math.max(worstCpu, fast.cpu);
    cpu.push(`${name.split(' (')[0]} ${fast.cpu.toFixed(2)} s (full runner ${full.cpu.toFixed(2)} s)`);
  }
  rows.push({
    name: 'fast-path CPU time (user + system), the largest over the options above',
    value: worstCpu,
    unit: 's',
    reference: { name: 'bare Node.js start-up', value: node.cpu },
    target: { text: '< 0.2 s', met: worstCpu < 0.2 },
  });
  return {
    title: 'No-op `cdp run` of the bundled sample with each option (the fast path)',
    rows,
    notes: [
      'Each value is the best wall time of 9 fresh processes (Node start-up included), after a run that brought the store up to date with the same options; the reference is the best of 2 with CDP_NO_FAST_PATH=1 (TypeScript loaded, the DAG resolved, every stage decided).',
      `CPU time (user + system, best of the same runs): bare Node ${node.cpu.toFixed(2)} s; ${cpu.join('; ')}.`,
      `Runs the fast path left to the full runner: ${fastMisses} of ${(rows.length - 2) * 9} (should be 0).`,
      'Wall times on a shared machine follow its load (bare Node start-up is the scale); CPU time does not.',
    ],
  };
}
