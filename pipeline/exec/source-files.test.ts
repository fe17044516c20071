// A files source with a base lists its files relative to the base, so the same files under
// another directory are the same rows (and keys); `ctx.file` finds a row's file through the bases
// of the sources the stage reads, on the main thread and on a worker alike, and names a path it
// cannot place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { files, type DagConfig } from '../dag/define.ts';
import { resolveDag } from '../dag/validate.ts';
import { sha256 } from '../hash/canonical.ts';
import { StatCache } from '../hash/stat-cache.ts';
import { workerContext } from '../threads/worker-stage.ts';
import { runDag } from './executor.ts';
import { fileResolver, placesOf, sourcePlaces } from './source-files.ts';
import { sourceRows } from './sources.ts';
import { workspaceFor } from './workspace.ts';

const pipelineDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PATTERNS = ['guidelines/**/*.{pdf,md}', 'trees/*.json', 'guidelines.csv'];

/** A corpus-shaped folder of its own under a fresh temporary directory, with a file no pattern lists. */
function corpusAt(parent = mkdtempSync(join(tmpdir(), 'cdp-base-'))): string {
  const dir = join(parent, 'corpus');
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  put('guidelines/en/a.md', '# A\n\nTreat a.\n');
  put('guidelines/b.pdf', '%PDF-1.4 b');
  put('trees/a.json', '{"tree":1}');
  put('guidelines.csv', 'guideline_id,language\na,en\n');
  put('notes.txt', 'not a source file');
  return dir;
}

test('a source with a base: rows relative to it, the same rows under two bases, each row found again by the resolver', () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-root-'));
  const a = corpusAt();
  const b = join(mkdtempSync(join(tmpdir(), 'cdp-base-')), 'elsewhere');
  cpSync(a, b, { recursive: true });
  const stat = new StatCache(null);
  const rowsA = sourceRows(root, files({ base: a }, ...PATTERNS), stat);
  const rowsB = sourceRows(root, files({ base: b }, ...PATTERNS), stat);
  assert.deepEqual(
    rowsA.map((r) => r.path),
    ['guidelines.csv', 'guidelines/b.pdf', 'guidelines/en/a.md', 'trees/a.json'],
  );
  assert.deepEqual(rowsB, rowsA);
  // A base inside the project, given relative to it, lists the same rows too.
  cpSync(a, join(root, 'data', 'corpus'), { recursive: true });
  assert.deepEqual(sourceRows(root, files({ base: 'data/corpus' }, ...PATTERNS), stat), rowsA);

  for (const [dir, base] of [
    [a, a],
    [b, b],
    [join(root, 'data', 'corpus'), 'data/corpus'],
  ]) {
    const file = fileResolver('reader', sourcePlaces(root, { corpus: files({ base }, ...PATTERNS) }, ['corpus']));
    for (const r of rowsA) {
      assert.equal(file(String(r.path)), join(dir, String(r.path)));
      assert.equal(sha256(readFileSync(file(String(r.path)))), r.sha256);
    }
  }
});

test('sources without a base resolve against the root (absolute paths as they are), as before', () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-root-'));
  const outside = corpusAt();
  const sources = { tables: files('data/published/table*.csv'), abs: files(`${outside}/trees/*.json`) };
  const file = fileResolver('reader', sourcePlaces(root, sources, ['tables', 'abs']));
  assert.equal(file('data/published/table3.csv'), join(root, 'data/published/table3.csv'));
  assert.equal(file(join(outside, 'trees/a.json')), join(outside, 'trees/a.json'));
});

test('a path no source the stage reads lists is an error naming the path, the sources and what to do', () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-root-'));
  const corpus = corpusAt();
  const file = fileResolver('guidelines', sourcePlaces(root, { corpus_files: files({ base: corpus }, ...PATTERNS) }, ['corpus_files']));
  // A path as a source without a base would have listed it, or a file of the folder no pattern names.
  for (const path of ['data/sample/guidelines/en/a.md', 'notes.txt', '/etc/passwd']) {
    assert.throws(
      () => file(path),
      (e: Error) => {
        assert.ok(e.message.includes(`stage 'guidelines': '${path}' is not a file of any source it reads`), e.message);
        assert.ok(e.message.includes(`corpus_files: ${PATTERNS.join(', ')} under ${corpus}`), e.message);
        assert.match(e.message, /add the source that holds the file to the stage's inputs/);
        return true;
      },
    );
  }
  assert.throws(() => fileResolver('lonely', [])('a.md'), /'a\.md' is not a file of any source it reads \(its file sources: none\)/);
});

test('a path two sources with different bases both list is refused, not guessed; the same base twice is one file', () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-root-'));
  const [a, b] = [corpusAt(), corpusAt()];
  const two = { first: files({ base: a }, 'guidelines.csv'), second: files({ base: b }, '*.csv') };
  assert.throws(
    () => fileResolver('s', sourcePlaces(root, two, ['first', 'second']))('guidelines.csv'),
    new RegExp(
      `'guidelines.csv' is a file of several sources it reads, in different directories \\(first: ${a}/guidelines.csv; second: ${b}/guidelines.csv\\)`,
    ),
  );
  const same = { docs: files({ base: a }, 'guidelines.csv'), tables: files({ base: a }, '*.csv') };
  assert.equal(fileResolver('s', sourcePlaces(root, same, ['docs', 'tables']))('guidelines.csv'), join(a, 'guidelines.csv'));
});

test('files() with a base wants relative patterns; a worker context resolves as the main thread does', () => {
  assert.throws(() => files({ base: '/data/c' }, '/data/c/x.md'), /\/data\/c\/x\.md must be relative to the base/);
  assert.throws(() => files({ base: '' }, 'x.md'), /files\(\{ base \}\) needs a directory/);
  assert.deepEqual(files('a/*.md', 'b.csv'), { kind: 'files', patterns: ['a/*.md', 'b.csv'] });
  const corpus = corpusAt();
  const main = fileResolver('s', sourcePlaces('/nowhere', { c: files({ base: corpus }, ...PATTERNS) }, ['c']));
  const shared = { stage: 's', root: '/nowhere', files: structuredClone(placesOf(main)), params: {}, persist: true, retrying: [] };
  assert.equal(workerContext(shared, []).file('trees/a.json'), main('trees/a.json'));
});

/** A toy DAG: a based source, a table stage and a row stage that both read its files through ctx.file. */
function readerProject(corpus: string): { root: string; config: DagConfig } {
  const root = mkdtempSync(join(tmpdir(), 'cdp-reader-'));
  mkdirSync(join(root, 'stages'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  const stageTs = JSON.stringify(join(pipelineDir, 'stage.ts'));
  writeFileSync(
    join(root, 'stages', 'sizes.ts'),
    `import { tableStage } from ${stageTs};
import { readFileSync } from 'node:fs';
export default tableStage({
  inputs: { docs: 'whole' },
  columns: { path: 'VARCHAR', chars: 'INTEGER' },
  run({ docs }, ctx) {
    return docs.map((d) => ({ path: d.path, chars: readFileSync(ctx.file(String(d.path)), 'utf8').length }));
  },
});
`,
  );
  writeFileSync(
    join(root, 'stages', 'heads.ts'),
    `import { rowStage } from ${stageTs};
import { readFileSync } from 'node:fs';
export default rowStage({
  inputs: { sizes: 'drives' },
  columns: { path: 'VARCHAR', head: 'VARCHAR', error: 'VARCHAR' },
  run({ row }, ctx) {
    return { path: row.path, head: readFileSync(ctx.file(String(row.path)), 'utf8').slice(0, 4) };
  },
});
`,
  );
  const config: DagConfig = {
    sources: { docs: files({ base: corpus }, ...PATTERNS) },
    stages: [
      { name: 'sizes', module: 'stages/sizes.ts', inputs: { docs: 'docs' } },
      { name: 'heads', module: 'stages/heads.ts', inputs: { sizes: 'sizes' }, forEach: 'sizes' },
    ],
  };
  return { root, config };
}

test('the same files under another base, against the same store: every stage reused, no unit computed', async () => {
  const first = corpusAt();
  const moved = join(mkdtempSync(join(tmpdir(), 'cdp-moved-')), 'other-name');
  cpSync(first, moved, { recursive: true });
  const p = readerProject(first);
  const ws = workspaceFor(p.root);
  const one = await runDag(await resolveDag(p.config, p.root), ws, { workers: 1 });
  assert.equal(one.ok, true, JSON.stringify(one.stages.filter((s) => s.error)));
  assert.equal(one.stages.find((s) => s.stage === 'heads')!.rowsComputed, 4);
  const config = { ...p.config, sources: { docs: files({ base: moved }, ...PATTERNS) } };
  const two = await runDag(await resolveDag(config, p.root), ws, { workers: 1 });
  assert.deepEqual(
    two.stages.map((s) => [s.stage, s.status, s.rowsComputed ?? 0]),
    [
      ['docs', 'reused', 0],
      ['sizes', 'reused', 0],
      ['heads', 'reused', 0],
    ],
  );
});
