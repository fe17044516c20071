// dag.config.ts and cpgbench.config.ts as functions of the command's options: two option objects
// in one process give two resolved DAGs, and the imports of one store reach only that store's DAG.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import dagDefinition from '../dag.config.ts';
import cpgDefinition from '../cpgbench.config.ts';
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
  // The corpus is the source's base, its patterns the same for every corpus.
  const layout = { kind: 'files', patterns: ['guidelines/**/*.{pdf,md,txt}', 'trees/*.json', 'guidelines.csv'] };
  assert.deepEqual(sample.config.sources.corpus_files, { ...layout, base: 'data/sample' });
  assert.deepEqual(other.config.sources.corpus_files, { ...layout, base: corpus });
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

test('cpgbench.config.ts: two option objects give two resolved DAGs (corpus, reports, --simulated beside a models file), one process', async () => {
  const cpg = join(repo, 'cpgbench.config.ts');
  const dir = mkdtempSync(join(tmpdir(), 'cdp-options-cpg-'));
  const corpus = join(dir, 'corpus');
  mkdirSync(join(corpus, 'guidelines'), { recursive: true });
  const models = join(dir, 'models.json');
  const model = (name: string, roles: string[]) => ({
    name,
    baseURL: 'http://127.0.0.1:9/v1',
    model: `org/${name}`,
    roles,
    contextWindow: 200_000,
  });
  writeFileSync(models, JSON.stringify({ models: [model('my-llm', ['evaluated']), model('judge-x', ['judge'])] }));
  const sample = await resolveDag(cpgDefinition.build(optionsFor(cpg, { corpus: join(repo, 'data', 'cpgbench-sample') })), repo);
  const given = { corpus, models, simulated: true, reports: join(dir, 'out'), store: join(dir, 'store') };
  const other = await resolveDag(cpgDefinition.build(optionsFor(cpg, given)), repo);
  // MEGA-CDP's DAG built in the same process from its own options is untouched by CPGBench's.
  const mega = await resolveDag(dagDefinition.build(optionsFor(config, { corpus: join(repo, 'data', 'sample') })), repo);
  assert.equal(mega.stages.has('cpg_rates'), false);
  const layout = { kind: 'files', patterns: ['guidelines/**/*.{pdf,md,txt}', 'recommendations/*.json', 'guidelines.csv'] };
  assert.deepEqual(sample.config.sources.cpg_corpus_files, { ...layout, base: 'data/cpgbench-sample' });
  assert.deepEqual(other.config.sources.cpg_corpus_files, { ...layout, base: corpus });
  const param = (d: typeof sample, stage: string, name: string) => (d.stages.get(stage)!.decl.params as Record<string, unknown>)[name];
  const names = (v: unknown) => (v as { name: string }[]).map((m) => m.name);
  assert.equal(param(sample, 'cpg_report_index', 'outDir'), 'reports/cpgbench');
  assert.equal(param(other, 'cpg_report_index', 'outDir'), join(dir, 'out'));
  assert.deepEqual(names(param(sample, 'cpg_detection', 'models')), [
    'simulated-cpg-oracle',
    'simulated-cpg-no-titles',
    'simulated-cpg-every-other',
  ]);
  assert.deepEqual(names(param(other, 'cpg_detection', 'models')), [
    'my-llm',
    'simulated-cpg-oracle',
    'simulated-cpg-no-titles',
    'simulated-cpg-every-other',
  ]);
  assert.deepEqual(names(param(other, 'cpg_detection_judgements', 'judges')), ['judge-x', 'simulated-cpg-judge']);
  assert.deepEqual([sample.config.problems, other.config.problems], [[], []]);
  // Without --simulated, the same file runs its real models only.
  const real = cpgDefinition.build(optionsFor(cpg, { ...given, simulated: false }));
  const detection = real.stages.find((s) => s.name === 'cpg_detection')!;
  assert.deepEqual(names((detection.params as Record<string, unknown>).models), ['my-llm']);
});
