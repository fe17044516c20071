// dag.config.ts as a function of the command's options: two option objects in one process give
// two resolved DAGs, and the imports of one store reach only that store's DAG.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import dagDefinition from '../dag.config.ts';
import { resolveDag } from '../pipeline/index.ts';
import { optionsFor } from '../pipeline/cli/options-for.ts';

const repo = fileURLToPath(new URL('..', import.meta.url));
const config = join(repo, 'dag.config.ts');

test('two option objects give two resolved DAGs: corpus, limit and reports each from its own', async () => {
  const corpus = mkdtempSync(join(tmpdir(), 'cdp-options-corpus-'));
  mkdirSync(join(corpus, 'guidelines'));
  const sample = await resolveDag(dagDefinition.build(optionsFor(config, { corpus: join(repo, 'data', 'sample') })), repo);
  const other = await resolveDag(
    dagDefinition.build(optionsFor(config, { corpus, limit: 5, reports: join(corpus, 'out'), store: join(corpus, 'store') })),
    repo,
  );
  assert.deepEqual(sample.config.sources.corpus_files!.patterns, [
    'data/sample/guidelines/**/*.{pdf,md,txt}',
    'data/sample/trees/*.json',
    'data/sample/guidelines.csv',
  ]);
  assert.deepEqual(other.config.sources.corpus_files!.patterns, [
    `${corpus}/guidelines/**/*.{pdf,md,txt}`,
    `${corpus}/trees/*.json`,
    `${corpus}/guidelines.csv`,
  ]);
  const param = (d: typeof sample, stage: string, name: string) => (d.stages.get(stage)!.decl.params as Record<string, unknown>)[name];
  assert.deepEqual(
    [param(sample, 'test_cases', 'limit'), param(sample, 'cdps', 'testFraction'), param(sample, 'report_index', 'outDir')],
    [null, 0.5, 'reports'],
  );
  assert.deepEqual(
    [param(other, 'test_cases', 'limit'), param(other, 'cdps', 'testFraction'), param(other, 'report_index', 'outDir')],
    [5, 440 / 2274, join(corpus, 'out')],
  );
  assert.deepEqual(sample.config.problems, []);
  assert.deepEqual(other.config.problems, [], 'a corpus with a guidelines/ directory is accepted');
});

test("the imports of one store are seen by that store's DAG only; the project-wide data/imports/ is named, not read", () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-options-imports-'));
  const file = join(root, 'dag.config.ts');
  const a = join(root, 'a');
  const b = join(root, 'b');
  mkdirSync(join(a, 'imports'), { recursive: true });
  writeFileSync(join(a, 'imports', 'batch.jsonl'), '{}\n');
  const built = (store: string) => dagDefinition.build(optionsFor(file, { store, corpus: join(repo, 'data', 'sample') }));
  const withImports = built(a);
  const without = built(b);
  assert.deepEqual(withImports.sources.imported_predictions?.patterns, ['a/imports/*.jsonl']);
  assert.equal(withImports.stages.find((s) => s.name === 'predicted_pathways')!.inputs!.imported_predictions, 'imported_predictions');
  assert.equal(without.sources.imported_predictions, undefined);
  assert.equal(without.stages.find((s) => s.name === 'predicted_pathways')!.inputs!.imported_predictions, undefined);

  mkdirSync(join(root, 'data', 'imports'), { recursive: true });
  writeFileSync(join(root, 'data', 'imports', 'old.jsonl'), '{}\n');
  const legacy = built(b);
  assert.equal(legacy.sources.imported_predictions, undefined, 'the old folder is not read');
  assert.ok(
    legacy.warnings!.includes(
      'data/imports/old.jsonl: data/imports/ is no longer read (imports belong to a store); import again with `cdp import predictions FILE` to put them in b/imports/',
    ),
    legacy.warnings!.join('\n'),
  );
});
