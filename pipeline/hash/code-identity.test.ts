import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSpecifiers, CodeHasher } from './code-identity.ts';
import { StatCache } from './stat-cache.ts';
import { globToRegExp, expandGlobs } from './glob.ts';
import { canonicalJson } from './canonical.ts';

test('import specifiers: static, re-export, type-only, dynamic; comments ignored', () => {
  const src = `
import { a } from './a.ts';
import type { B } from "../b.ts";
export { c } from './c.ts';
export * from './d.ts';
import './side-effect.ts';
import def, { e } from 'zx';
const lazy = await import('./lazy.ts');
// import { nope } from './commented.ts';
/* import { nope2 } from './block.ts'; */
import { readFileSync } from 'node:fs';
`;
  assert.deepEqual(importSpecifiers(src), ['./a.ts', '../b.ts', './c.ts', './d.ts', './side-effect.ts', 'zx', './lazy.ts', 'node:fs']);
});

test('code identity follows local imports transitively and records package versions', () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-code-'));
  mkdirSync(join(root, 'lib'));
  writeFileSync(join(root, 'stage.ts'), `import { h } from './lib/h.ts';\nimport { $ } from 'zx';\nexport const x = h;\n`);
  writeFileSync(join(root, 'lib', 'h.ts'), `export { g as h } from './g.ts';\n`);
  writeFileSync(join(root, 'lib', 'g.ts'), `export const g = 1;\n`);
  writeFileSync(join(root, 'other.ts'), `export const unrelated = 1;\n`);
  const hasher = () => new CodeHasher(root, new StatCache(null));
  const before = hasher().identity('stage.ts');
  assert.deepEqual(Object.keys(before.files), ['lib/g.ts', 'lib/h.ts', 'stage.ts']);
  assert.deepEqual(before.packages, { zx: 'unresolved' });
  writeFileSync(join(root, 'other.ts'), `export const unrelated = 2;\n`);
  assert.equal(hasher().identity('stage.ts').hash, before.hash, 'a module it does not import does not count');
  writeFileSync(join(root, 'lib', 'g.ts'), `export const g = 2;\n`);
  assert.notEqual(hasher().identity('stage.ts').hash, before.hash, 'a transitively imported module counts');
});

test('a missing import is an error naming the importing file', () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-code-'));
  writeFileSync(join(root, 'stage.ts'), `import { h } from './nowhere.ts';\n`);
  assert.throws(
    () => new CodeHasher(root, new StatCache(null)).identity('stage.ts'),
    /stage\.ts imports '\.\/nowhere\.ts', which resolves to no file/,
  );
});

test('globs', () => {
  assert.ok(globToRegExp('data/**/*.pdf').test('data/sample/en/x.pdf'));
  assert.ok(globToRegExp('data/**/*.pdf').test('data/x.pdf'));
  assert.ok(!globToRegExp('data/*.pdf').test('data/en/x.pdf'));
  assert.ok(globToRegExp('d/{a,b}.txt').test('d/b.txt'));
  const root = mkdtempSync(join(tmpdir(), 'cdp-glob-'));
  mkdirSync(join(root, 'd', 'e'), { recursive: true });
  for (const f of ['d/b.txt', 'd/a.txt', 'd/e/c.txt', 'd/e/c.md']) writeFileSync(join(root, f), f);
  assert.deepEqual(expandGlobs(root, ['d/**/*.txt']), ['d/a.txt', 'd/b.txt', 'd/e/c.txt']);
  assert.deepEqual(expandGlobs(root, ['d/e/c.md', 'd/*.txt']), ['d/a.txt', 'd/b.txt', 'd/e/c.md']);
});

test('canonical JSON sorts keys, drops undefined, rejects non-finite numbers', () => {
  assert.equal(
    canonicalJson({ b: 1, a: [1, { d: undefined, c: 'x' }], e: new Float64Array([0.5]) }),
    '{"a":[1,{"c":"x"}],"b":1,"e":[0.5]}',
  );
  assert.throws(() => canonicalJson({ x: NaN }), /cannot hash NaN at \$\.x/);
});
