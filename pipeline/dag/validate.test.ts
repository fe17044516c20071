import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkGraph, resolveDag, DagConfigError } from './validate.ts';
import { makeToyProject } from '../testing/toy-project.ts';
import type { DagConfig } from './define.ts';

const m = 'stages/x.ts';

test('a cycle is reported with the stages along it, in edge order', () => {
  const config: DagConfig = {
    sources: { src: { kind: 'files', patterns: ['*.txt'] } },
    stages: [
      { name: 'a', module: m, inputs: { s: 'src', c: 'c' } },
      { name: 'b', module: m, inputs: { a: 'a' } },
      { name: 'c', module: m, inputs: { b: 'b' } },
      { name: 'd', module: m, inputs: { s: 'src' } },
    ],
  };
  assert.deepEqual(checkGraph(config).problems, ['cycle: a → b → c → a']);
});

test('unknown inputs, duplicate names and bad row mappings are all reported at once', () => {
  const config: DagConfig = {
    sources: { docs: { kind: 'files', patterns: ['*.txt'] } },
    stages: [
      { name: 'words', module: m, inputs: { docs: 'docz' } },
      { name: 'docs', module: m },
      { name: 'twice', module: m },
      { name: 'twice', module: m },
      {
        name: 'mapper',
        module: m,
        inputs: { w: 'words' },
        forEach: { input: 'v', join: { q: 'id' }, cross: { param: 'models', as: 'model' } },
      },
    ],
  };
  assert.deepEqual(checkGraph(config).problems, [
    "duplicate name 'docs': it names both a source and a stage",
    "duplicate name 'twice': 2 stages are called so",
    "stage 'words' input 'docs' refers to unknown 'docz' (known sources and stages: docs, words, docs, twice, twice, mapper)",
    "stage 'mapper' maps over 'v', which is not one of its inputs (w)",
    "stage 'mapper' joins 'q', which is not one of its inputs",
    "stage 'mapper' crosses param 'models', which must be an array in its params",
  ]);
});

test('resolveDag loads modules and rejects a stage without a rows schema or with the wrong kind', async () => {
  const p = makeToyProject();
  writeFileSync(join(p.root, 'stages', 'noschema.ts'), `export default { kind: 'table', columns: {}, run: () => [] };\n`);
  const config = p.config({
    extraStages: [
      { name: 'noschema', module: 'stages/noschema.ts', inputs: { w: 'words' } },
      { name: 'missing', module: 'stages/nope.ts' },
      { name: 'wrongkind', module: 'stages/totals.ts', inputs: { words: 'words' }, forEach: 'words' },
    ],
  });
  await assert.rejects(resolveDag(config, p.root), (err: unknown) => {
    assert.ok(err instanceof DagConfigError);
    assert.deepEqual(err.problems, [
      "stage 'noschema': its output has no rows schema (give tableStage a non-empty 'columns')",
      "stage 'missing': module 'stages/nope.ts' does not exist",
      "stage 'wrongkind' declares forEach but 'stages/totals.ts' exports a tableStage; export rowStage instead",
    ]);
    return true;
  });
});

test('a valid config resolves in dependency order, with the implicit error column on row stages', async () => {
  const p = makeToyProject();
  const dag = await resolveDag(p.config(), p.root);
  assert.ok(dag.order.indexOf('docs') < dag.order.indexOf('words'));
  assert.ok(dag.order.indexOf('words') < dag.order.indexOf('totals'));
  assert.ok(dag.order.indexOf('shout') < dag.order.indexOf('report'));
  assert.deepEqual(dag.stages.get('words')!.columns, { path: 'VARCHAR', text: 'VARCHAR', n_words: 'INTEGER', error: 'VARCHAR' });
  assert.deepEqual(dag.stages.get('totals')!.columns, { docs: 'INTEGER', words: 'DOUBLE' });
});
