import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodeHasher } from './code-identity.ts';
import { IMPORT_SCANNER } from './imports.ts';
import { StatCache } from './stat-cache.ts';
import { canonicalJson } from './canonical.ts';

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

test('what a file imports is remembered in the stat cache by content and scanner, and parsed again when the content changes', () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-code-'));
  const cacheFile = join(root, '.cache', 'stat.json');
  // Content of its own (the root's name in a comment), so no other test's file shares its imports.
  writeFileSync(join(root, 'stage.ts'), `// ${root}\nimport { h } from './h.ts';\n`);
  writeFileSync(join(root, 'h.ts'), `export const h = 1;\n`);
  writeFileSync(join(root, 'g.ts'), `export const g = 1;\n`);
  const first = new StatCache(cacheFile);
  const before = new CodeHasher(root, first).identity('stage.ts');
  first.save();
  type Saved = Record<string, { imports?: { scanner: string; specifiers: string[] } }>;
  const saved = JSON.parse(readFileSync(cacheFile, 'utf8')) as Saved;
  assert.deepEqual(saved[join(root, 'stage.ts')]!.imports, { scanner: IMPORT_SCANNER, specifiers: ['./h.ts'] });
  assert.deepEqual(saved[join(root, 'h.ts')]!.imports, { scanner: IMPORT_SCANNER, specifiers: [] });
  const filesWith = (imports: { scanner: string; specifiers: string[] }) => {
    saved[join(root, 'stage.ts')]!.imports = imports;
    writeFileSync(cacheFile, JSON.stringify(saved));
    return Object.keys(new CodeHasher(root, new StatCache(cacheFile)).identity('stage.ts').files);
  };
  // A list another scanner remembered is not used; one of this scanner is (planted to see it read).
  assert.deepEqual(filesWith({ scanner: 'regex-0', specifiers: ['./g.ts'] }), ['h.ts', 'stage.ts']);
  assert.deepEqual(filesWith({ scanner: IMPORT_SCANNER, specifiers: ['./g.ts'] }), ['g.ts', 'stage.ts']);
  // An edited file is parsed again: its entry is of the old content.
  writeFileSync(join(root, 'stage.ts'), `// ${root}\nimport { h } from './h.ts';\nexport * from './g.ts';\n`);
  const edited = new CodeHasher(root, new StatCache(cacheFile)).identity('stage.ts');
  assert.deepEqual(Object.keys(edited.files), ['g.ts', 'h.ts', 'stage.ts']);
  assert.notEqual(edited.hash, before.hash);
});

test('a missing import is an error naming the importing file', () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-code-'));
  writeFileSync(join(root, 'stage.ts'), `import { h } from './nowhere.ts';\n`);
  assert.throws(
    () => new CodeHasher(root, new StatCache(null)).identity('stage.ts'),
    /stage\.ts imports '\.\/nowhere\.ts', which resolves to no file/,
  );
});

test('canonical JSON sorts keys, drops undefined, rejects non-finite numbers', () => {
  assert.equal(
    canonicalJson({ b: 1, a: [1, { d: undefined, c: 'x' }], e: new Float64Array([0.5]) }),
    '{"a":[1,{"c":"x"}],"b":1,"e":[0.5]}',
  );
  assert.throws(() => canonicalJson({ x: NaN }), /cannot hash NaN at \$\.x/);
});
