// The command's options end to end, in fresh processes: a configuration built from them
// (`defineDag((options) => …)`), two option objects giving two DAGs in one process, the no-op
// fast path taken with every option (in any order) and not when one's value changed, `--config`
// selecting another configuration with its own store, and a store that remembers its corpus and
// models file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeToyProject, type ToyProject } from '../testing/toy-project.ts';
import { resolveDag } from '../dag/validate.ts';
import { asDefinition } from '../dag/definition.ts';
import { optionsFor } from './options-for.ts';

const pipelineDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cdpBin = join(pipelineDir, '..', 'bin', 'cdp.mjs');

/**
 * The toy DAG as a function of the options: its documents from the corpus (default docs/), and a
 * `settings` stage keyed by every option a run can change, which writes them as rows.
 */
function optionsConfig(p: ToyProject, file = 'dag.config.ts'): void {
  writeFileSync(
    join(p.root, 'stages', 'settings.ts'),
    `import { tableStage, z } from ${JSON.stringify(join(pipelineDir, 'stage.ts'))};
export default tableStage<{ corpus: string; limit: number | null; reports: string; simulated: boolean; models: string }>({
  inputs: { docs: 'whole' },
  params: {
    corpus: z.string().default(''),
    limit: z.int().min(1).nullable().default(null),
    reports: z.string().default(''),
    simulated: z.boolean().default(false),
    models: z.string().default(''),
  },
  columns: { name: 'VARCHAR', value: 'VARCHAR' },
  run(_inputs, ctx) {
    return Object.entries(ctx.params).map(([name, v]) => ({ name, value: JSON.stringify(v) }));
  },
});
`,
  );
  writeFileSync(
    join(p.root, file),
    `import { readFileSync } from 'node:fs';
import { defineDag, files, stage, configInput, projectPath } from ${JSON.stringify(join(pipelineDir, 'index.ts'))};
export default defineDag(
  (o) => {
    const corpus = projectPath(o.root, o.corpus!);
    const models = o.models ? readFileSync(configInput(o.models), 'utf8').trim() : '';
    return {
      sources: { docs: files(corpus + '/*.txt') },
      stages: [
        stage('words', { module: 'stages/words.ts', inputs: { docs: 'docs' }, forEach: 'docs', commitEvery: 1 }),
        stage('shout', { module: 'stages/shout.ts', inputs: { words: 'words' }, forEach: 'words' }),
        stage('totals', { module: 'stages/totals.ts', inputs: { words: 'words' }, params: { scale: 1 } }),
        stage('report', { module: 'stages/report.ts', inputs: { totals: 'totals', shout: 'shout' } }),
        stage('settings', {
          module: 'stages/settings.ts',
          inputs: { docs: 'docs' },
          params: { corpus, limit: o.limit, reports: projectPath(o.root, o.reports), simulated: o.simulated, models },
        }),
      ],
    };
  },
  { corpus: 'docs' },
);
`,
  );
}

function cdp(p: ToyProject, ...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cdpBin, ...args], { cwd: p.root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

type RunJson = { ok: boolean; stages: { stage: string; status: string; rowsComputed: number }[] };

/** `cdp run --json …`: its outcome, and whether the fast path answered (it alone prints nothing on stderr). */
function run(p: ToyProject, ...args: string[]): { fast: boolean; json: RunJson; stderr: string } {
  const r = cdp(p, 'run', '--json', ...args);
  assert.equal(r.code, 0, `cdp run --json ${args.join(' ')}: ${r.stderr}`);
  return { fast: r.stderr === '', json: JSON.parse(r.stdout) as RunJson, stderr: r.stderr };
}

const statusOf = (j: RunJson) => Object.fromEntries(j.stages.map((s) => [s.stage, s.status]));

function settings(p: ToyProject, ...args: string[]): Record<string, unknown> {
  const r = cdp(p, ...args, 'sql', 'select name, value from settings', '--json');
  assert.equal(r.code, 0, r.stderr);
  return Object.fromEntries((JSON.parse(r.stdout) as { name: string; value: string }[]).map((x) => [x.name, JSON.parse(x.value)]));
}

test('two option objects give two DAGs in one process: the configuration reads nothing else', async () => {
  const p = makeToyProject();
  optionsConfig(p);
  const def = asDefinition((await import(join(p.root, 'dag.config.ts'))).default)!;
  const file = join(p.root, 'dag.config.ts');
  const a = await resolveDag(def.build(optionsFor(file, { corpus: join(p.root, 'docs') })), p.root);
  const b = await resolveDag(
    def.build(optionsFor(file, { corpus: join(p.root, 'other'), limit: 5, simulated: true, reports: join(p.root, 'out') })),
    p.root,
  );
  assert.deepEqual(a.config.sources.docs!.patterns, ['docs/*.txt']);
  assert.deepEqual(b.config.sources.docs!.patterns, ['other/*.txt']);
  assert.deepEqual(a.stages.get('settings')!.decl.params, {
    corpus: 'docs',
    limit: null,
    reports: 'reports',
    simulated: false,
    models: '',
  });
  assert.deepEqual(b.stages.get('settings')!.decl.params, { corpus: 'other', limit: 5, reports: 'out', simulated: true, models: '' });
  // Building the second changed nothing of the first.
  assert.deepEqual(a.config.sources.docs!.patterns, ['docs/*.txt']);
});

test('the fast no-op is taken with each option, in any order, and never when an option changed', () => {
  const p = makeToyProject();
  optionsConfig(p);
  mkdirSync(join(p.root, 'docs2'));
  writeFileSync(join(p.root, 'docs2', 'x.txt'), 'eta theta');
  writeFileSync(join(p.root, 'm1.json'), '{"models": 1}');
  writeFileSync(join(p.root, 'm2.json'), '{"models": 2}');
  assert.equal(run(p).fast, false, 'the first run has no fingerprint');
  assert.equal(run(p).fast, true);
  const variants: [string, string[], string[]][] = [
    ['--corpus', ['--corpus', 'docs2'], ['--corpus', 'docs']],
    ['--models', ['--models', 'm1.json'], ['--models', 'm2.json']],
    ['--limit', ['--limit', '2'], ['--limit=3']],
    ['--reports', ['--reports', 'r1'], ['--reports', 'r2']],
    ['--simulated', ['--simulated'], []],
    ['--set', ['--set', 'totals.scale=2'], ['--set', 'totals.scale=3']],
  ];
  for (const [flag, given, changed] of variants) {
    const first = run(p, ...given);
    assert.equal(first.fast, false, `${flag}: a new value is left to the full runner`);
    assert.equal(run(p, ...given).fast, true, `${flag}: the same value again is answered by the fast path`);
    const other = run(p, ...changed);
    assert.equal(other.fast, false, `${flag}: a changed value is left to the full runner`);
    assert.notDeepEqual(new Set(Object.values(statusOf(other.json))), new Set(['reused']), `${flag}: and something reran`);
  }
  // The store remembers the corpus and models file last given: without them the run is the same one.
  assert.equal(run(p, '--models', 'm1.json').fast, false);
  assert.equal(run(p).fast, true, 'a remembered models file is the same option');
  assert.deepEqual(settings(p).models, '{"models": 1}');

  const all = ['--corpus', 'docs2', '--models', 'm2.json', '--limit', '4', '--reports', 'r3', '--simulated', '--set', 'totals.scale=5'];
  assert.equal(run(p, ...all).fast, false);
  const shuffled = ['--set=totals.scale=5', '--simulated', '--reports=r3', '--limit', '4', '--models', 'm2.json', '--corpus=docs2'];
  assert.equal(cdp(p, ...shuffled.slice(0, 3), 'run', '--json', ...shuffled.slice(3)).stderr, '', 'every option, in another order');
  assert.deepEqual(settings(p), { corpus: 'docs2', limit: 4, reports: 'r3', simulated: true, models: '{"models": 2}' });
  // --config naming the configuration the project would find is the same run.
  assert.equal(run(p, ...all, '--config', 'dag.config.ts').fast, true);
  assert.equal(run(p, ...all, '--set', 'totals.scale=6').fast, false, 'one more --set is another run');
});

test('--config selects another configuration with its own store, warehouse and reports, for every command', () => {
  const p = makeToyProject();
  optionsConfig(p);
  optionsConfig(p, 'other.config.ts');
  writeFileSync(
    join(p.root, 'other.config.ts'),
    readFileSync(join(p.root, 'other.config.ts'), 'utf8').replace("{ corpus: 'docs' }", "{ corpus: 'docs2' }"),
  );
  mkdirSync(join(p.root, 'docs2'));
  writeFileSync(join(p.root, 'docs2', 'x.txt'), 'eta theta iota');
  const other = ['--config', 'other.config.ts'];
  assert.equal(run(p).fast, false);
  const first = run(p, ...other);
  assert.equal(first.fast, false, "the other configuration's first run is its own");
  assert.deepEqual(new Set(Object.values(statusOf(first.json))), new Set(['ran']), 'nothing of the first store is its');
  assert.ok(existsSync(join(p.root, 'data', 'other', 'store', 'ledger.json')));
  assert.ok(existsSync(join(p.root, 'data', 'other', 'warehouse.duckdb')));
  assert.equal(JSON.parse(readFileSync(join(p.root, 'data', 'other', 'store', 'store.json'), 'utf8')).config, 'other.config.ts');
  assert.deepEqual(settings(p, ...other), { corpus: 'docs2', limit: null, reports: 'reports/other', simulated: false, models: '' });
  assert.deepEqual(settings(p), { corpus: 'docs', limit: null, reports: 'reports', simulated: false, models: '' });
  assert.equal(run(p, ...other).fast, true, 'each store has its own fingerprint');
  assert.equal(run(p).fast, true);

  const status = JSON.parse(cdp(p, ...other, 'status', '--json').stdout) as { state: string }[];
  assert.deepEqual(new Set(status.map((s) => s.state)), new Set(['fresh']));
  assert.match(cdp(p, ...other, 'dag').stdout, /settings/);
  assert.match(cdp(p, 'explain', 'settings', ...other).stdout, /"corpus":"docs2"/);
  assert.match(cdp(p, ...other, 'clean').stdout, /^removed 0 artifact files/);
  assert.match(cdp(p, ...other, 'estimate').stderr, /defines no LLM client/);
  // A store belongs to its configuration.
  const shared = cdp(p, ...other, '--store', 'data/store', 'status');
  assert.equal(shared.code, 2);
  assert.match(shared.stderr, /the store .*data\/store belongs to dag\.config\.ts, not other\.config\.ts/);
});

test('a store remembers its corpus: used without --corpus, and another one given is named, run and recorded', () => {
  const p = makeToyProject();
  optionsConfig(p);
  const corpus = join(p.root, 'mine');
  mkdirSync(corpus);
  writeFileSync(join(corpus, 'a.txt'), 'one two');
  run(p, '--corpus', corpus);
  const record = () => JSON.parse(readFileSync(join(p.root, 'data', 'store', 'store.json'), 'utf8')) as Record<string, unknown>;
  assert.deepEqual(record(), { version: 1, config: 'dag.config.ts', corpus: 'mine', models: null, imports: [] });
  // Forgetting --corpus once rebuilds nothing: the store's own corpus is used.
  const again = cdp(p, 'run', '--json', '--dry-run');
  assert.deepEqual(new Set(Object.values(statusOf(JSON.parse(again.stdout) as RunJson))), new Set(['reused']), again.stderr);
  assert.deepEqual(settings(p).corpus, 'mine');
  // Another corpus given explicitly: named, run, and from then on the store's.
  const changed = run(p, '--corpus', 'docs');
  assert.match(changed.stderr, /^note: corpus changed: mine → docs \(the store remembered the first; a run records the second\)$/m);
  assert.equal(statusOf(changed.json).words, 'ran');
  assert.equal(record().corpus, 'docs');
  assert.deepEqual(settings(p).corpus, 'docs');
});
