// A store that cannot be edited behind its back, end to end with `cdp` in fresh processes: an
// artifact rewritten to the same size with its mtime put back (NDJSON, Parquet) passes the stat a
// normal run makes, and is found by `cdp status --verify` and rebuilt by `cdp verify`; a ledger
// entry edited by hand likewise; a memo line edited in place is recomputed with a warning when
// its unit is next needed, and dropped by `cdp verify`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeToyProject, type ToyProject } from '../testing/toy-project.ts';
import { readLedger, writeLedger } from '../store/ledger.ts';
import { segmentPaths } from '../store/artifacts.ts';
import type { VerifyReport } from './verify.ts';

const cdpBin = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'cdp.mjs');

function cdp(root: string, args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cdpBin, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const store = (p: ToyProject) => join(p.root, 'data', 'store');
const ledgerPath = (p: ToyProject) => join(store(p), 'ledger.json');
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

function files(p: ToyProject, stage: string): { ndjson: string; parquet: string } {
  const segments = readLedger(ledgerPath(p)).entries[stage].segments!;
  assert.equal(segments.length, 1, `${stage} is one segment`);
  return segmentPaths(store(p), stage, segments[0].hash);
}

function ran(p: ToyProject): ToyProject {
  p.writeConfigFile();
  const r = cdp(p.root, ['run']);
  assert.equal(r.code, 0, r.stderr);
  return p;
}

/** Rewrites `path` through `edit` (same size), then puts its atime and mtime back to the nanosecond. */
function editInPlace(path: string, edit: (b: Buffer) => Buffer): void {
  const ref = `${path}.times`;
  writeFileSync(ref, '');
  assert.equal(spawnSync('touch', ['-r', path, ref]).status, 0);
  const before = statSync(path);
  const after = edit(readFileSync(path));
  assert.equal(after.length, before.size, 'the edit keeps the size');
  assert.notDeepEqual(after, readFileSync(path), 'the edit changes the content');
  writeFileSync(path, after);
  assert.equal(spawnSync('touch', ['-r', ref, path]).status, 0);
  rmSync(ref);
  const now = statSync(path);
  assert.deepEqual([now.size, now.mtimeMs], [before.size, before.mtimeMs], 'size and mtime as they were');
}

const replace = (from: string, to: string) => (b: Buffer) => {
  const at = b.indexOf(from);
  assert.ok(at >= 0, `${from} is in the file`);
  const out = Buffer.from(b);
  out.write(to, at);
  return out;
};

function verifyJson(p: ToyProject, args: string[]): { code: number; report: VerifyReport; stderr: string } {
  const r = cdp(p.root, [...args, '--json']);
  return { code: r.code, report: JSON.parse(r.stdout) as VerifyReport, stderr: r.stderr };
}

test('same-size edits with the mtime put back: NDJSON of a table stage, Parquet of a row stage, found by status --verify, rebuilt by verify', () => {
  const p = ran(makeToyProject());
  const totals = files(p, 'totals');
  const words = files(p, 'words');
  const original = { totals: sha(totals.ndjson), words: sha(words.parquet) };
  editInPlace(totals.ndjson, replace('"words":6', '"words":7'));
  // Parquet pages are compressed; the column statistics in its footer are not.
  editInPlace(words.parquet, replace('zeta', 'ZETA'));

  // The stat a normal run makes cannot see either.
  const plain = cdp(p.root, ['status', '--json']);
  assert.ok((JSON.parse(plain.stdout) as { state: string }[]).every((s) => s.state === 'fresh'));

  const check = verifyJson(p, ['status', '--verify']);
  assert.equal(check.code, 1);
  assert.deepEqual(
    check.report.mismatched.map((m) => [m.stage, m.reasons, m.rebuilt]),
    [
      ['words', [`artifact changed on disk: ${words.parquet}`], false],
      ['totals', [`artifact changed on disk: ${totals.ndjson}`], false],
    ],
  );
  assert.deepEqual(check.report.matching, ['docs', 'shout', 'report']);
  assert.equal(sha(totals.ndjson) === original.totals, false, 'status --verify rebuilt nothing');
  const text = cdp(p.root, ['status', '--verify']);
  assert.match(
    text.stdout,
    /^artifacts: 5 stages checked in full, 3 match, 2 do not\n {2}words: artifact changed on disk: .*\.parquet: would be rebuilt by cdp verify\n/,
  );

  const computedBefore = p.computed().length;
  const fix = verifyJson(p, ['verify']);
  assert.equal(fix.code, 0, fix.stderr);
  assert.deepEqual(
    fix.report.mismatched.map((m) => [m.stage, m.rebuilt]),
    [
      ['words', true],
      ['totals', true],
    ],
  );
  assert.deepEqual([sha(totals.ndjson), sha(words.parquet)], [original.totals, original.words], 'rebuilt byte for byte');
  assert.equal(p.computed().length, computedBefore, 'words rebuilt from its memo: no unit computed again');
  const clean = verifyJson(p, ['status', '--verify']);
  assert.equal(clean.code, 0);
  assert.deepEqual(clean.report.mismatched, []);
  assert.equal(clean.report.memo.problems.length, 0);
});

test('a ledger entry edited by hand (its row count) is found and rebuilt; nothing downstream reruns', () => {
  const p = ran(makeToyProject());
  const ledger = readLedger(ledgerPath(p));
  ledger.entries.shout.rows = 99;
  writeLedger(ledgerPath(p), ledger);
  const check = verifyJson(p, ['status', '--verify']);
  assert.equal(check.code, 1);
  assert.deepEqual(
    check.report.mismatched.map((m) => [m.stage, m.reasons]),
    [['shout', ['ledger entry says 99 rows, its segments hold 3']]],
  );
  const fix = verifyJson(p, ['verify']);
  assert.equal(fix.code, 0, fix.stderr);
  assert.deepEqual(fix.report.matching, ['docs', 'words', 'totals', 'report']);
  assert.equal(readLedger(ledgerPath(p)).entries.shout.rows, 3);
});

test('a memo line edited in place: reported by status --verify, recomputed with a warning when its unit is needed, dropped by verify', () => {
  const p = ran(makeToyProject());
  const memoDir = join(store(p), 'units', 'words');
  const [memoFile] = readdirSync(memoDir).filter((f) => f.endsWith('.ndjson'));
  const memo = join(memoDir, memoFile);
  const line = readFileSync(memo, 'utf8')
    .split('\n')
    .find((l) => l.includes('alpha beta'))!;
  const offset = readFileSync(memo).indexOf(line);
  editInPlace(memo, replace('alpha beta', 'ALPHA BETA'));

  const check = verifyJson(p, ['status', '--verify']);
  assert.equal(check.code, 1);
  assert.deepEqual(check.report.memo.problems, [{ stage: 'words', file: memoFile, offset, problem: 'checksum mismatch' }]);
  assert.deepEqual(check.report.mismatched, [], 'the artifacts are intact: only the memo was edited');

  // The artifact goes, so the memo is asked for its units: the edited one is not reused.
  rmSync(files(p, 'words').ndjson);
  const before = p.computed();
  const r = cdp(p.root, ['run']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /warning: stage 'words': 1 memo unit failed its checksum \(a memo file edited behind cdp's back, or one written before memo lines had checksums\): computed again/,
  );
  assert.deepEqual(p.computed().slice(before.length), ['words:docs/a.txt']);
  const rows = readFileSync(files(p, 'words').ndjson, 'utf8');
  assert.match(rows, /"text":"alpha beta"/);
  assert.doesNotMatch(rows, /ALPHA/);

  // The edited line is still in the older memo file (the recomputed unit went to a new one).
  const fix = verifyJson(p, ['verify']);
  assert.equal(fix.code, 0, fix.stderr);
  assert.deepEqual(
    fix.report.memo.problems.map((x) => [x.file, x.problem]),
    [[memoFile, 'checksum mismatch']],
  );
  assert.doesNotMatch(readFileSync(memo, 'utf8'), /ALPHA/, 'dropped from its file');
  const clean = verifyJson(p, ['status', '--verify']);
  assert.deepEqual([clean.code, clean.report.memo.problems], [0, []]);
  assert.equal(clean.report.memo.units, 6, 'words: b and c as first written, a as recomputed; shout: its three');
});
