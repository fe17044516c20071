// Runs every bench/*.bench.ts (or those whose names contain an argument) one after another,
// prints each table, and rewrites bench/RESULTS.md with the machine and the date. Benchmarks
// run sequentially on purpose: two at once would share the 2 cores and corrupt both timings.
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { cpus, totalmem, platform, release, loadavg } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchReport, Bench } from './report.ts';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => !filters.length || filters.some((p) => f.includes(p)))
  .sort();

function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x)) return String(x);
  const a = Math.abs(x);
  return a >= 100 ? x.toFixed(0) : a >= 1 ? x.toFixed(2) : x.toPrecision(3);
}

function toMarkdown(r: BenchReport): string {
  const lines = [`## ${r.title}`, '', '| measurement | value | reference (same run) | ratio | target | met |', '|---|---|---|---|---|---|'];
  for (const row of r.rows) {
    const ref = row.reference ? `${row.reference.name}: ${fmt(row.reference.value)} ${row.unit}` : '';
    const ratio = row.reference && row.reference.value !== 0 ? fmt(row.value / row.reference.value) : '';
    lines.push(
      `| ${row.name} | ${fmt(row.value)} ${row.unit} | ${ref} | ${ratio} | ${row.target?.text ?? ''} | ${row.target ? (row.target.met ? 'yes' : 'NO') : ''} |`,
    );
  }
  for (const n of r.notes ?? []) lines.push('', n);
  return lines.join('\n');
}

const cpu = cpus();
const machine = `${platform()} ${release()}, ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node.js ${process.version}`;
const marker = (file: string) => `<!-- bench: ${file} -->`;

// Each benchmark's section is kept in RESULTS.md under a marker naming its file, so running one
// benchmark replaces its own section and leaves the others (with their own dates) in place.
const resultsPath = join(here, 'RESULTS.md');
const sections = new Map<string, string>();
if (existsSync(resultsPath)) {
  const text = readFileSync(resultsPath, 'utf8');
  const parts = text.split(/^(?=<!-- bench: )/m).slice(1);
  for (const part of parts) {
    const m = /^<!-- bench: (.+?) -->/.exec(part);
    if (m) sections.set(m[1], part.trimEnd());
  }
}

let failed = 0;
// The code measured: its commit, and whether the work tree differed from it.
const git = (args: string[]) => spawnSync('git', args, { cwd: here, encoding: 'utf8' });
const head = git(['rev-parse', '--short', 'HEAD']);
const dirty = git(['status', '--porcelain', '--untracked-files=no']).stdout.trim() !== '';
const measuredCommit = head.status === 0 ? `, commit ${head.stdout.trim()}${dirty ? ' with uncommitted changes' : ''}` : '';

for (const f of files) {
  const mod = (await import(pathToFileURL(join(here, f)).href)) as { default: Bench };
  console.error(`# ${f}`);
  const load = `load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} at start`;
  let md: string;
  try {
    const report = await mod.default();
    md = toMarkdown(report);
    console.log(md + '\n');
  } catch (err) {
    failed++;
    md = `## ${f}\n\nFAILED: ${(err as Error).stack ?? err}`;
    console.log(md);
  }
  sections.set(f, `${marker(f)}\n${md}\n\n_Measured ${new Date().toISOString().slice(0, 10)} on ${machine}${measuredCommit}; ${load}._`);
}

const header = [
  '# Benchmark results',
  '',
  'Produced by `npm run bench` (all) or `npm run bench -- <name>` (one section). Each section says when and on what',
  'machine it was measured, and the load average when it started: the machines are shared, and a high load inflates',
  'wall times (CPU-time rows are more stable).',
  '',
].join('\n');
writeFileSync(
  resultsPath,
  header +
    '\n' +
    [...sections.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([, v]) => v)
      .join('\n\n') +
    '\n',
);
process.exit(failed ? 1 : 0);
