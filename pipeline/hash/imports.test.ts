import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importSpecifiers } from './imports.ts';

test('static imports in every form: named, default, namespace, side effect, type-only, inline type, multi-line', () => {
  const src = `
import { a } from './a.ts';
import type { B } from "../b.ts";
import { type C, d } from './cd.ts';
import def, { e } from 'zx';
import * as path from 'node:path';
import './side-effect.ts';
import {
  f,
  g as h,
} from '@scope/pkg/sub';
import fs = require('./legacy.js');
`;
  assert.deepEqual(importSpecifiers(src), [
    './a.ts',
    '../b.ts',
    './cd.ts',
    'zx',
    'node:path',
    './side-effect.ts',
    '@scope/pkg/sub',
    './legacy.js',
  ]);
});

test('re-exports: named, star, star as, type-only; a plain export is no import', () => {
  const src = `
export { c } from './c.ts';
export * from './d.ts';
export * as ns from './ns.ts';
export type { T } from './t.ts';
export { local };
export const x = 1;
`;
  assert.deepEqual(importSpecifiers(src), ['./c.ts', './d.ts', './ns.ts', './t.ts']);
});

test('dynamic import() with a literal, in a function or a type; not with a computed name', () => {
  const src = `
const lazy = await import('./lazy.ts');
async function load() { return (await import("./in-function.ts")).default; }
const tpl = import(\`./template-literal.ts\`);
type M = typeof import('./type-query.ts');
let t: import('./type-position.ts').T;
const computed = import('./prefix-' + name);
const variable = import(name);
const substituted = import(\`./\${name}.ts\`);
const url = import.meta.url;
`;
  assert.deepEqual(importSpecifiers(src), [
    './lazy.ts',
    './in-function.ts',
    './template-literal.ts',
    './type-query.ts',
    './type-position.ts',
  ]);
});

test('comments, strings, templates and regular expressions that look like imports are not imports', () => {
  const src = `
// import { nope } from './line-comment.ts';
/* export * from './block-comment.ts'; */
/** @type {import('./jsdoc.ts').T} */
const s = "import { y } from './in-string.ts'";
const t = \`import x from './in-template.ts'\`;
const re = /import\\('\\.\\/in-regex\\.ts'\\)/;
const real = await import('./after-them.ts');
`;
  assert.deepEqual(importSpecifiers(src), ['./after-them.ts']);
});

test('a regular expression inside a template literal does not hide the imports after it (it does in ts.preProcessFile)', () => {
  // From pipeline/cli/sql.test.ts: TypeScript's quick scanner loses its place here.
  const src = [
    "import { a } from './before.ts';",
    "const quote = (s: string) => `'${s.replace(/'/g, \"''\")}'`;",
    "import { b } from './after.ts';",
    "test('x', async () => { const { D } = await import('@duckdb/node-api'); });",
  ].join('\n');
  assert.deepEqual(importSpecifiers(src), ['./before.ts', './after.ts', '@duckdb/node-api']);
});

test('JavaScript files are read as JavaScript (.mjs, .js); TSX as TSX', () => {
  assert.deepEqual(importSpecifiers("import { x } from './x.mjs';\nconst y = await import('./y.js');\n", 'bin/cdp.mjs'), [
    './x.mjs',
    './y.js',
  ]);
  assert.deepEqual(importSpecifiers("import { C } from './c.tsx';\nconst e = <C a={1} />;\n", 'view.tsx'), ['./c.tsx']);
});

test('a file that does not parse still yields the imports the parser recovered, never throws', () => {
  assert.deepEqual(importSpecifiers("import { a } from './a.ts';\nconst = ;\nexport * from './b.ts';\n"), ['./a.ts', './b.ts']);
});
