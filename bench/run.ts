// Runs every bench/*.bench.ts (or those whose names contain an argument) one after another,
// prints each table, and rewrites bench/RESULTS.md with the machine and the date. Benchmarks
// run sequentially on purpose: two at once would share the 2 cores and corrupt both timings.
import { readdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, platform, release } from 'node:os';
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
  const a = Math.abs(x);
  return a >= 100 ? x.toFixed(0) : a >= 1 ? x.toFixed(2) : x.toPrecision(3);
}

function toMarkdown(r: BenchReport): string {
  const lines = [`## ${r.title}`, '', '| measurement | value | reference (same run) | ratio | target | met |', '|---|---|---|---|---|---|'];
  for (const row of r.rows) {
    const ref = row.reference ? `${row.reference.name}: ${fmt(row.reference.value)} ${row.unit}` : '';
    const ratio = row.reference && row.reference.value !== 0 ? fmt(row.value / row.reference.value) : '';
    lines.push(`| ${row.name} | ${fmt(row.value)} ${row.unit} | ${ref} | ${ratio} | ${row.target?.text ?? ''} | ${row.target ? (row.target.met ? 'yes' : 'NO') : ''} |`);
  }
  for (const n of r.notes ?? []) lines.push('', n);
  return lines.join('\n');
}

const sections: string[] = [];
let failed = 0;
for (const f of files) {
  const mod = (await import(pathToFileURL(join(here, f)).href)) as { default: Bench };
  console.error(`# ${f}`);
  try {
    const report = await mod.default();
    const md = toMarkdown(report);
    console.log(md + '\n');
    sections.push(md);
  } catch (err) {
    failed++;
    const msg = `## ${f}\n\nFAILED: ${(err as Error).stack ?? err}`;
    console.log(msg);
    sections.push(msg);
  }
}

const cpu = cpus();
const header = [
  '# Benchmark results',
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} on ${platform()} ${release()}, ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ` +
    `${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node.js ${process.version}. Produced by \`npm run bench${filters.length ? ' -- ' + filters.join(' ') : ''}\`.`,
  '',
].join('\n');
if (!filters.length) writeFileSync(join(here, 'RESULTS.md'), header + '\n' + sections.join('\n\n') + '\n');
else console.error('(a filtered run does not rewrite bench/RESULTS.md)');
process.exit(failed ? 1 : 0);
