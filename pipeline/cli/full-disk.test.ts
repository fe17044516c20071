// A full disk, end to end with `cdp` in fresh processes (the store's writes fail through the test
// seam, pipeline/testing/full-disk.mjs): wherever it strikes — the run log of a no-op, the memo, the
// ledger, the run lock — the command says "no space left on DEVICE while writing FILE" without a
// stack trace, leaves no torn line and no temporary file, the store stays readable, and a run
// after space is freed completes. A torn last line a kill left in the run log breaks no query and
// is cut off by the next run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeToyProject, type ToyProject } from '../testing/toy-project.ts';
import { TEMP_FILE } from '../store/atomic.ts';

const here = dirname(fileURLToPath(import.meta.url));
const cdpBin = resolve(here, '..', '..', 'bin', 'cdp.mjs');
const fullDisk = resolve(here, '..', 'testing', 'full-disk.mjs');

type Out = { code: number; stdout: string; stderr: string };

/** `cdp` with the disk full for files whose path contains one of `full` (each write gets `fits` bytes). */
function cdp(p: ToyProject, args: string[], full?: { paths: string[]; fits?: number }): Out {
  const env = {
    ...process.env,
    FORCE_COLOR: '0',
    CDP_TEST_DISK_FULL: full?.paths.join(',') ?? '',
    CDP_TEST_DISK_FITS: String(full?.fits ?? 0),
  };
  const r = spawnSync(process.execPath, ['--import', fullDisk, cdpBin, ...args], { cwd: p.root, encoding: 'utf8', env });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const store = (p: ToyProject) => join(p.root, 'data', 'store');
const runsLog = (p: ToyProject) => join(store(p), 'runs.ndjson');
const noStackTrace = (r: Out) => assert.doesNotMatch(r.stderr, /\n\s+at |ENOSPC:/, r.stderr);
const tempFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && TEMP_FILE.test(e.name))
    .map((e) => e.name);

function runsCount(p: ToyProject): number {
  const r = cdp(p, ['sql', 'select count(*)::int as n from runs', '--json']);
  assert.equal(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { n: number }[])[0].n;
}

function project(): ToyProject {
  const p = makeToyProject();
  p.writeConfigFile();
  const r = cdp(p, ['run']);
  assert.equal(r.code, 0, r.stderr);
  return p;
}

test('a no-op run on a full disk: one line naming the device and the run log, the log as it was, readable', () => {
  const p = project();
  const before = readFileSync(runsLog(p));
  const r = cdp(p, ['run'], { paths: ['runs.ndjson'], fits: 100 });
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    new RegExp(
      // After the progress lines: every stage was reused, only the log could not be written.
      `\\ncdp: no space left on \\S+ \\(mounted at /[^)]*\\) while writing ${runsLog(p)}; free space there and run again \\(everything written before is kept, and the run resumes where it stopped\\)\\n$`,
    ),
  );
  noStackTrace(r);
  assert.deepEqual(readFileSync(runsLog(p)), before, 'the 100 bytes that fitted were taken back: no torn line');
  assert.equal(runsCount(p), 5);
  const again = cdp(p, ['run']);
  assert.deepEqual([again.code, again.stderr], [0, 'ok: 5 reused (nothing changed since the last run)\n']);
  assert.equal(runsCount(p), 10);
});

test('the memo full mid-run: the stage fails naming the memo file, nothing torn; after space is freed the run completes', () => {
  const p = project();
  p.writeDoc('d.txt', 'eta theta');
  const r = cdp(p, ['run'], { paths: [join('units', 'words')], fits: 7 });
  assert.equal(r.code, 1, r.stderr);
  assert.match(
    r.stderr,
    new RegExp(
      `failed: words: no space left on \\S+ \\(mounted at /[^)]*\\) while writing ${join(store(p), 'units', 'words')}/\\S+\\.ndjson; free space there`,
    ),
  );
  noStackTrace(r);
  for (const f of readdirSync(join(store(p), 'units', 'words')).filter((x) => x.endsWith('.ndjson'))) {
    const text = readFileSync(join(store(p), 'units', 'words', f), 'utf8');
    assert.ok(text === '' || text.endsWith('\n'), `${f} ends in a torn line`);
  }
  assert.deepEqual(tempFiles(store(p)), []);
  // Readable meanwhile: the run log (this failed run's records included) and the status.
  assert.equal(runsCount(p), 10);
  assert.equal(cdp(p, ['status']).code, 0);

  const computed = p.computed().length;
  const freed = cdp(p, ['run', '--json']);
  assert.equal(freed.code, 0, freed.stderr);
  assert.deepEqual(p.computed().slice(computed), ['words:docs/d.txt', 'shout:docs/d.txt']);
  const words = cdp(p, ['sql', "select text from words where path = 'docs/d.txt'", '--json']);
  assert.deepEqual(JSON.parse(words.stdout), [{ text: 'eta theta' }]);
});

test('the ledger, or the whole store, full: the command says which file, the old ledger stands, no temporary file is left', () => {
  const p = project();
  const ledger = readFileSync(join(store(p), 'ledger.json'));
  p.writeDoc('d.txt', 'eta theta');
  const r = cdp(p, ['run'], { paths: ['ledger.json'], fits: 10 });
  assert.equal(r.code, 2);
  assert.match(r.stderr, new RegExp(`^cdp: no space left on .* while writing ${join(store(p), 'ledger.json')}; free space there`, 'm'));
  noStackTrace(r);
  assert.deepEqual(readFileSync(join(store(p), 'ledger.json')), ledger);
  assert.deepEqual(tempFiles(store(p)), []);

  const all = cdp(p, ['run'], { paths: [store(p)] });
  assert.equal(all.code, 2);
  assert.match(all.stderr, new RegExp(`^cdp: no space left on .* while writing ${join(store(p), 'run.lock')}; free space there`));
  noStackTrace(all);

  const freed = cdp(p, ['run']);
  assert.equal(freed.code, 0, freed.stderr);
  const status = JSON.parse(cdp(p, ['status', '--json']).stdout) as { state: string }[];
  assert.ok(status.every((s) => s.state === 'fresh'));
});

test('a torn last line in the run log (a kill mid-write) breaks no query, and the next run cuts it off with a warning', () => {
  const p = project();
  appendFileSync(runsLog(p), '{"run_id":"20260101-torn","stage":"wor');
  assert.equal(runsCount(p), 5, 'the torn line is no row, and no error');
  const r = cdp(p, ['run']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    new RegExp(`warning: ${runsLog(p)} ended in a torn line \\(38 bytes, a run killed mid-write\\); it was cut off\\n`),
  );
  assert.ok(readFileSync(runsLog(p), 'utf8').endsWith('}\n'));
  assert.equal(runsCount(p), 10);
});
