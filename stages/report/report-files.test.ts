import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveOutDir, sha256, staleReportFiles, writeIfChanged, writeReportFiles } from './report-files.ts';

describe('report files', () => {
  test('written atomically under the output directory, rows carry relative path, sha256 and size; identical content is not rewritten', () => {
    const root = mkdtempSync(join(tmpdir(), 'cdp-report-files-'));
    try {
      const out = resolveOutDir(root, undefined);
      assert.equal(out, join(root, 'reports'));
      const rows = writeReportFiles(root, out, [
        { path: 'tables/a.md', kind: 'table', title: 'A', content: 'héllo\n' },
        { path: 'b.png', kind: 'figure-png', title: 'B', content: Uint8Array.of(1, 2, 3) },
      ]);
      assert.deepEqual(rows, [
        { file: 'reports/tables/a.md', kind: 'table', title: 'A', sha256: sha256(Buffer.from('héllo\n')), bytes: 7, absent: null },
        { file: 'reports/b.png', kind: 'figure-png', title: 'B', sha256: sha256(Uint8Array.of(1, 2, 3)), bytes: 3, absent: null },
      ]);
      assert.equal(readFileSync(join(out, 'tables/a.md'), 'utf8'), 'héllo\n');
      assert.deepEqual(readdirSync(join(out, 'tables')), ['a.md'], 'no temporary file left behind');
      const before = statSync(join(out, 'b.png')).mtimeMs;
      assert.equal(writeIfChanged(join(out, 'b.png'), Uint8Array.of(1, 2, 3)), false);
      assert.equal(statSync(join(out, 'b.png')).mtimeMs, before);
      assert.equal(writeIfChanged(join(out, 'b.png'), Uint8Array.of(1, 2)), true);
      assert.deepEqual([...readFileSync(join(out, 'b.png'))], [1, 2]);
      assert.deepEqual(staleReportFiles(root, rows), [{ file: 'reports/b.png', problem: 'changed' }]);
      unlinkSync(join(out, 'tables/a.md'));
      writeFileSync(join(out, 'b.png'), Uint8Array.of(1, 2, 3));
      assert.deepEqual(staleReportFiles(root, rows), [{ file: 'reports/tables/a.md', problem: 'missing' }]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("a file with nothing to show is a row with its reason and no file; an earlier run's file of that name is removed", () => {
    const root = mkdtempSync(join(tmpdir(), 'cdp-report-files-'));
    try {
      const out = resolveOutDir(root, undefined);
      writeReportFiles(root, out, [{ path: 'figures/f4.svg', kind: 'figure', title: 'F4', content: '<svg/>' }]);
      assert.ok(existsSync(join(out, 'figures/f4.svg')));
      const rows = writeReportFiles(root, out, [
        { path: 'figures/f4.svg', kind: 'figure', title: 'F4', content: null, absent: 'no ground truth in this run' },
      ]);
      assert.deepEqual(rows, [
        { file: 'reports/figures/f4.svg', kind: 'figure', title: 'F4', sha256: null, bytes: null, absent: 'no ground truth in this run' },
      ]);
      assert.equal(existsSync(join(out, 'figures/f4.svg')), false, 'the stale picture is gone');
      assert.deepEqual(staleReportFiles(root, rows), [], 'an absent file is not missing');
      // With nothing persisted (cdp estimate), nothing is removed.
      writeReportFiles(root, out, [{ path: 'figures/f4.svg', kind: 'figure', title: 'F4', content: '<svg/>' }]);
      writeReportFiles(root, out, [{ path: 'figures/f4.svg', kind: 'figure', title: 'F4', content: null, absent: 'x' }], false);
      assert.ok(existsSync(join(out, 'figures/f4.svg')));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a path leaving the output directory is refused', () => {
    assert.throws(
      () => writeReportFiles('/tmp', '/tmp/reports', [{ path: '../x.md', kind: 'table', title: 'x', content: '' }]),
      /report file "\.\.\/x\.md" must be a relative path inside the output directory/,
    );
  });
});
