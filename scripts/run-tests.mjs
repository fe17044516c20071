#!/usr/bin/env node
// Node 20's test runner does not discover .ts files by itself, so we list them and hand
// them over explicitly; tsx is loaded as an import hook so the tests run untranspiled.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const roots = ['pipeline', 'stages', 'bench', 'notebooks', 'test'];
// Not 'store': pipeline/store holds tests (a data store lives under data/, which is no root).
const skipDirs = new Set(['node_modules', '.git']);

function find(dir, out) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const path = join(dir, name);
    if (skipDirs.has(name)) continue;
    if (statSync(path).isDirectory()) find(path, out);
    else if (name.endsWith('.test.ts')) out.push(relative(process.cwd(), path));
  }
  return out;
}

const filter = process.argv.slice(2);
let files = roots.flatMap((r) => find(r, [])).sort();
if (filter.length) files = files.filter((f) => filter.some((p) => f.includes(p)));
if (!files.length) {
  console.error(`no test files matched ${filter.join(' ') || '(all)'}`);
  process.exit(1);
}
// The whole suite starts with the type check (tsx runs TypeScript without checking it), the
// formatter's check and the linter.
if (!filter.length) {
  const checks = [
    ['type check', ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.'], 'npx tsc --noEmit -p .'],
    ['format check', ['node_modules/prettier/bin/prettier.cjs', '--check', '--log-level', 'warn', '.'], 'npm run format'],
    ['lint', ['node_modules/eslint/bin/eslint.js', '.'], 'npx eslint .'],
  ];
  for (const [what, args, fix] of checks) {
    const r = spawnSync(process.execPath, args, { stdio: 'inherit' });
    if (r.status !== 0) {
      console.error(`${what} failed; fix the problems above (${fix})`);
      process.exit(r.status ?? 1);
    }
  }
}
const res = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
  // CDP_CHECK_READS: a table stage reading a column its `reads` does not declare throws (pipeline/dag/stage.ts).
  env: { ...process.env, NODE_ENV: 'test', CDP_CHECK_READS: '1' },
});
process.exit(res.status ?? 1);
