import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expandGlobs } from './glob.ts';

function tree(files: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'cdp-glob-'));
  for (const f of files) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), f);
  }
  return root;
}

test('*, ?, ** (zero or more directories) and {a,b}; sorted by code unit; a plain path only when it is a file', () => {
  const root = tree(['d/b.txt', 'd/a.txt', 'd/E.TXT', 'd/e/c.txt', 'd/e/c.md', 'd/e/f/g/h.pdf', 'x.md']);
  assert.deepEqual(expandGlobs(root, ['d/**/*.txt']), ['d/a.txt', 'd/b.txt', 'd/e/c.txt']);
  assert.deepEqual(expandGlobs(root, ['d/*.txt']), ['d/a.txt', 'd/b.txt']);
  assert.deepEqual(expandGlobs(root, ['d/?.TXT']), ['d/E.TXT']);
  assert.deepEqual(expandGlobs(root, ['d/**/*.{pdf,md}']), ['d/e/c.md', 'd/e/f/g/h.pdf']);
  assert.deepEqual(expandGlobs(root, ['d/e/c.md', 'd/*.txt', 'd/a.txt']), ['d/a.txt', 'd/b.txt', 'd/e/c.md']);
  assert.deepEqual(expandGlobs(root, ['d/*']), ['d/E.TXT', 'd/a.txt', 'd/b.txt']);
  assert.deepEqual(expandGlobs(root, ['**/*.md']), ['d/e/c.md', 'x.md']);
  assert.deepEqual(expandGlobs(root, ['d/e', 'missing.txt', 'nowhere/**/*.txt']), []);
});

test('dotfiles and dot directories match, as a corpus copied with its .hidden files expects', () => {
  const root = tree(['d/.hidden.txt', 'd/.cache/x.txt', 'd/a.txt']);
  assert.deepEqual(expandGlobs(root, ['d/**/*.txt']), ['d/.cache/x.txt', 'd/.hidden.txt', 'd/a.txt']);
});

test('symlinked directories are not followed; a symlinked file counts only when named without a glob', () => {
  const root = tree(['d/a.txt', 'elsewhere/z.txt']);
  symlinkSync(join(root, 'elsewhere'), join(root, 'd', 'linked-dir'));
  symlinkSync(join(root, 'elsewhere', 'z.txt'), join(root, 'd', 'linked.txt'));
  assert.deepEqual(expandGlobs(root, ['d/**/*.txt']), ['d/a.txt']);
  assert.deepEqual(expandGlobs(root, ['d/linked.txt']), ['d/linked.txt']);
});

test('the directories before the first glob segment are literal: brackets and parentheses in a corpus path', () => {
  const root = tree([
    'corpus (copy) [en]/guidelines/g1.md',
    'corpus (copy) [en]/guidelines/sub/g2.pdf',
    'corpus (copy) [en]/guidelines.csv',
  ]);
  const c = 'corpus (copy) [en]';
  assert.deepEqual(expandGlobs(root, [`${c}/guidelines/**/*.{pdf,md,txt}`, `${c}/guidelines.csv`]), [
    `${c}/guidelines.csv`,
    `${c}/guidelines/g1.md`,
    `${c}/guidelines/sub/g2.pdf`,
  ]);
});

test("after the first glob segment the syntax is picomatch's: nested braces, classes; ./ prefixes normalised", () => {
  const root = tree(['d/a1.txt', 'd/a2.txt', 'd/b.md', 'd/c.csv']);
  assert.deepEqual(expandGlobs(root, ['d/{a{1,2}.txt,b.md}']), ['d/a1.txt', 'd/a2.txt', 'd/b.md']);
  assert.deepEqual(expandGlobs(root, ['d/*[2].txt']), ['d/a2.txt']);
  assert.deepEqual(expandGlobs(root, ['./d/*.csv']), ['d/c.csv']);
});
