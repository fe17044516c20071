/**
 * Every package in package.json does a job: each runtime dependency is imported by program code,
 * each devDependency by a test or config, or is a tool a script runs, or the types of a package
 * we import; and a package only tests import is a devDependency. Imports are read by the
 * project's one import scanner (pipeline/hash/imports.ts), from the sources and the notebooks'
 * module cells.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { importSpecifiers } from '../pipeline/hash/imports.ts';
import { isTestCode } from '../stages/layers.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const SKIP = new Set(['node_modules', '.git', 'data', 'reports', 'test-artifacts', '.cdp', '.cdp-tmp', 'bench-out']);

/** Packages used without an import, and how (checked: the file named says so). */
const USED_WITHOUT_IMPORT: Record<string, { file: string; mark: string; why: string }> = {
  '@observablehq/notebook-kit': {
    file: 'notebooks/build-site.ts',
    mark: "import.meta.resolve('@observablehq/notebook-kit/vite')",
    why: 'its CLI builds the notebooks, run in a child process by path',
  },
};
/** Tools the package.json scripts run. */
const TOOLS = ['eslint', 'prettier'];

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.(ts|mjs|js|html)$/.test(name)) out.push(relative(ROOT, path).replace(/\\/g, '/'));
  }
  return out;
}

/** A module specifier's package: `@scope/name` or `name` (node: builtins and relative paths have none). */
const packageOf = (spec: string) =>
  spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:')
    ? null
    : spec
        .split('/')
        .slice(0, spec.startsWith('@') ? 2 : 1)
        .join('/');

function importedPackages(file: string): string[] {
  let text = readFileSync(join(ROOT, file), 'utf8');
  // A notebook's JavaScript is in its <script type="module"> cells.
  if (file.endsWith('.html')) text = [...text.matchAll(/<script[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
  return importSpecifiers(text, file.replace(/\.html$/, '.js')).flatMap((f) => packageOf(f) ?? []);
}

test('every package in package.json is imported where its section says, or is a named tool, types or CLI', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const byProgram = new Set<string>(),
    byTests = new Set<string>();
  for (const file of sources(ROOT))
    for (const p of importedPackages(file))
      (isTestCode(file) || file.startsWith('test/') || file.endsWith('.config.js') ? byTests : byProgram).add(p);
  const problems: string[] = [];
  for (const dep of Object.keys(pkg.dependencies)) {
    const other = USED_WITHOUT_IMPORT[dep];
    if (other) {
      if (!readFileSync(join(ROOT, other.file), 'utf8').includes(other.mark))
        problems.push(`${dep}: ${other.file} no longer has ${other.mark}`);
    } else if (!byProgram.has(dep))
      problems.push(byTests.has(dep) ? `${dep}: only tests import it; make it a devDependency` : `${dep}: imported nowhere; remove it`);
  }
  for (const dep of Object.keys(pkg.devDependencies)) {
    const typesOf = dep.startsWith('@types/') ? dep.slice('@types/'.length) : null;
    const used =
      byTests.has(dep) || byProgram.has(dep) || TOOLS.includes(dep) || (typesOf !== null && (typesOf === 'node' || byProgram.has(typesOf)));
    if (!used) problems.push(`${dep}: a devDependency nothing imports or runs; remove it`);
  }
  assert.deepEqual(problems, []);
});

test('the scan sees imports: the program imports apache-arrow and zod, the tests vega-lite and vega, a notebook Plot', () => {
  assert.ok(importedPackages('notebooks/arrow-table.ts').includes('apache-arrow'));
  assert.ok(importedPackages('notebooks/overview.html').includes('@observablehq/plot'));
  assert.deepEqual(
    importedPackages('stages/report/vega-lite-spec.test.ts').filter((p) => p.startsWith('vega')),
    ['vega-lite', 'vega'],
  );
  assert.equal(packageOf('@scope/name/sub'), '@scope/name');
  assert.equal(packageOf('node:fs'), null);
});
