// The README stays short and true, and the docs hold together: its first two commands are the
// ones that work on a fresh machine (CI runs the second), every relative link and anchor
// resolves, and benchmark figures live only in bench/RESULTS.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchorsOf, benchmarkFigures, fencedCommands, relativeLinks, scriptCommands, slug } from './docs-rules.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path: string) => readFileSync(join(repo, path), 'utf8');
const README_MAX_LINES = 260;

function docPages(): string[] {
  const pages = readdirSync(join(repo, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', ...pages.sort()];
}

/** Problems with one page's relative links: a missing file, or an anchor the target does not have. */
function brokenLinks(page: string, text: string, readTarget: (path: string) => string | undefined): string[] {
  const problems: string[] = [];
  for (const { line, target } of relativeLinks(text)) {
    const [pathPart, anchor] = target.split('#', 2);
    const path = pathPart ? relative(repo, resolve(repo, dirname(page), decodeURI(pathPart))) : page;
    const body = pathPart ? readTarget(path) : text;
    if (body === undefined) problems.push(`${page}:${line}: ${target}: no file ${path}`);
    else if (anchor && /\.md$/.test(path) && !anchorsOf(body).has(anchor.toLowerCase()))
      problems.push(`${page}:${line}: ${target}: ${path} has no heading with anchor #${anchor}`);
  }
  return problems;
}

function readRepoFile(path: string): string | undefined {
  const full = join(repo, path);
  if (!existsSync(full)) return undefined;
  return statSync(full).isDirectory() ? '' : readFileSync(full, 'utf8');
}

test(`README.md has at most ${README_MAX_LINES} lines (the rest lives under docs/)`, () => {
  const lines = read('README.md').split('\n').length;
  assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines; move sections into a docs/ page and link it`);
});

test("the README's first two commands are the sample run and CI's test command", () => {
  const [sample, tests] = fencedCommands(read('README.md'));
  const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
  assert.equal(sample, 'npm ci && npm start');
  assert.equal(pkg.scripts.start, 'node bin/cdp.mjs run', 'npm start runs the whole DAG (cdp run)');
  assert.equal(tests, 'npm ci && scripts/install-debian-packages.sh && npm test');
  assert.equal(pkg.scripts.test, 'node scripts/run-tests.mjs');
  // CI runs the README's test command, npm ci's flags aside.
  const ci = scriptCommands(read('.ci/run')).filter((c) => c !== 'node --version');
  assert.deepEqual(
    ci.map((c) => c.replace(/^npm ci\b.*/, 'npm ci')),
    tests.split('&&').map((c) => c.trim()),
  );
  assert.ok(statSync(join(repo, 'scripts/install-debian-packages.sh')).mode & 0o111, 'the install script is executable');
});

test('every relative link in README.md, docs/*.md and DESIGN.md names an existing file and heading', () => {
  const problems = [...docPages(), 'DESIGN.md'].flatMap((page) => brokenLinks(page, read(page), readRepoFile));
  assert.deepEqual(problems, []);
});

test('no benchmark figure outside bench/RESULTS.md', () => {
  const found = docPages().flatMap((page) => benchmarkFigures(read(page)).map((f) => `${page}:${f.line}: "${f.text}"`));
  assert.deepEqual(found, [], 'link the section of bench/RESULTS.md instead of quoting its numbers');
});

test('the rules fail on pages that break them', () => {
  const page = [
    '# The `cdp` command',
    '## Storage: segments, memo',
    '## Storage: segments, memo',
    '```sh',
    '# not a heading',
    '[inside a fence](nowhere.md)',
    '```',
    'See [this](#the-cdp-command), [that](#storage-segments-memo-1), [`code`](#not-here) and `[no](link.md)`,',
    '[gone](docs/gone.md), [a site](https://example.org/x.md) and [design](DESIGN.md#no-such-section).',
    'A no-op takes 0.15 s; adding a guideline 23–24 s; OT is ~240× faster, a 20× speed-up; the window is 600 s.',
  ].join('\n');
  assert.deepEqual([...anchorsOf(page)], ['the-cdp-command', 'storage-segments-memo', 'storage-segments-memo-1']);
  assert.equal(slug('CPGBench, the second benchmark'), 'cpgbench-the-second-benchmark');
  assert.equal(
    slug("The whole DAG at the paper's scale (simulated agents and judges)"),
    'the-whole-dag-at-the-papers-scale-simulated-agents-and-judges',
  );
  const files: Record<string, string> = { 'DESIGN.md': '# Design\n## Adding a stage\n' };
  assert.deepEqual(
    brokenLinks('README.md', page, (path) => files[path]),
    [
      'README.md:8: #not-here: README.md has no heading with anchor #not-here',
      'README.md:9: docs/gone.md: no file docs/gone.md',
      'README.md:9: DESIGN.md#no-such-section: DESIGN.md has no heading with anchor #no-such-section',
    ],
  );
  assert.deepEqual(
    benchmarkFigures(page).map((f) => f.text),
    ['0.15 s', '23–24 s', '240× faster', '20× speed-up'],
  );
  assert.deepEqual(fencedCommands('intro\n```json\n{}\n```\n```sh\nnpm ci   # install\n\nnpm test\n```\n'), ['npm ci', 'npm test']);
});
