// What a command line means before anything loads (invocation.mjs): the options read exactly as
// commander reads them, each configuration's own locations, the environment fallbacks and the
// variables refused, and what the store remembers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { configName, locations, optionsHash, parseArgv, resolveInvocation } from './invocation.mjs';
import { buildProgram } from './program.ts';
import type { CliFlags } from '../dag/options.ts';

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'cdp-invocation-'));
  writeFileSync(join(root, 'dag.config.ts'), 'export default {};\n');
  writeFileSync(join(root, 'other.config.ts'), 'export default {};\n');
  return root;
}

/** What commander makes of an argument list with the real program's options and a `run` command. */
function commanderFlags(argv: string[]): { flags: CliFlags; targets: string[] } {
  let targets: string[] = [];
  const program: Command = buildProgram([
    (p) =>
      p
        .command('run')
        .argument('[stages...]')
        .option('--json')
        .action((s: string[]) => {
          targets = s;
        }),
  ]);
  program.exitOverride();
  program.parse(['node', 'cdp', ...argv]);
  return { flags: program.opts<CliFlags>(), targets };
}

test('the fast path reads the options exactly as commander does, in any order and either form', () => {
  const cases = [
    ['run'],
    ['run', '--json', 'a', 'b'],
    ['--corpus', 'c', 'run', '--limit', '5', 'x'],
    ['run', '--limit=5', '--corpus=c', '--simulated', '--set', 's.p=1', '--set=s.q=[1,2]', '--models', 'm.json'],
    ['--reports', 'r', '--store', 's', '--warehouse', 'w.duckdb', '--config', 'other.config.ts', '--call-cache', 'cc', 'run', 'only'],
  ];
  for (const argv of cases) {
    const ours = parseArgv(argv)!;
    const theirs = commanderFlags(argv);
    assert.deepEqual(ours.flags, theirs.flags, argv.join(' '));
    assert.deepEqual(
      ours.rest.filter((a) => a !== 'run' && a !== '--json'),
      theirs.targets,
      argv.join(' '),
    );
  }
  // What it does not read as commander would, it leaves to the full CLI.
  for (const argv of [
    ['run', '--limit'],
    ['run', '--limit', '--json'],
    ['run', '--simulated=yes'],
    ['run', '--', 'x'],
  ])
    assert.equal(parseArgv(argv), null, argv.join(' '));
  assert.deepEqual(parseArgv(['run', '--force', 'x'])!.rest, ['run', '--force', 'x'], "a command's own options are left to it");
});

test('each configuration has its own store, warehouse and reports; an explicit store holds its own', () => {
  assert.deepEqual(
    [configName('/p/dag.config.ts'), configName('/p/cpgbench.config.ts'), configName('/p/mine.ts')],
    ['dag', 'cpgbench', 'mine'],
  );
  assert.deepEqual(locations('/p', 'dag'), { store: '/p/data/store', warehouse: '/p/data/warehouse.duckdb', reports: '/p/reports' });
  assert.deepEqual(locations('/p', 'cpgbench'), {
    store: '/p/data/cpgbench/store',
    warehouse: '/p/data/cpgbench/warehouse.duckdb',
    reports: '/p/reports/cpgbench',
  });
  assert.deepEqual(locations('/p', 'cpgbench', { store: '/s' }), { store: '/s', warehouse: '/s/warehouse.duckdb', reports: '/s/reports' });
  assert.deepEqual(locations('/p', 'dag', { store: '/s', reports: '/r', warehouse: '/w' }), {
    store: '/s',
    warehouse: '/w',
    reports: '/r',
  });
});

test('flags over their environment fallbacks, paths relative to the current directory; the retired variables refused', () => {
  const root = project();
  const sub = join(root, 'sub');
  mkdirSync(sub);
  const flags = (f: Partial<CliFlags>): CliFlags => ({ set: [], ...f });
  const a = resolveInvocation(flags({ corpus: 'c', models: '../m.json', limit: '7', set: ['x.y=1'] }), {}, sub);
  assert.deepEqual(a.problems, []);
  assert.deepEqual(a.options, {
    config: join(root, 'dag.config.ts'),
    name: 'dag',
    root,
    store: join(root, 'data', 'store'),
    warehouse: join(root, 'data', 'warehouse.duckdb'),
    reports: join(root, 'reports'),
    corpus: join(sub, 'c'),
    models: join(root, 'm.json'),
    limit: 7,
    simulated: false,
    sets: ['x.y=1'],
    // The project's one call cache, whatever the store or the configuration.
    callCache: join(root, 'data', 'llm-cache'),
    llm: null,
  });
  const env = {
    CDP_STORE: join(root, 'st'),
    CDP_MODELS: join(root, 'env.json'),
    CDP_WAREHOUSE: join(root, 'w.duckdb'),
    CDP_LLM_CACHE: join(root, 'cache'),
  };
  const b = resolveInvocation(flags({}), env, root).options;
  assert.deepEqual(
    [b.store, b.models, b.warehouse, b.reports, b.callCache],
    [env.CDP_STORE, env.CDP_MODELS, env.CDP_WAREHOUSE, join(env.CDP_STORE, 'reports'), env.CDP_LLM_CACHE],
  );
  assert.equal(resolveInvocation(flags({ callCache: 'c2' }), env, root).options.callCache, join(root, 'c2'), 'the flag wins');
  assert.equal(resolveInvocation(flags({ store: 'flag' }), env, root).options.store, join(root, 'flag'), 'the flag wins');
  const other = resolveInvocation(flags({ config: 'other.config.ts' }), {}, root).options;
  assert.deepEqual(
    [other.name, other.store, other.reports, other.callCache],
    ['other', join(root, 'data', 'other', 'store'), join(root, 'reports', 'other'), join(root, 'data', 'llm-cache')],
  );

  const retired = resolveInvocation(flags({}), { CDP_CORPUS: '/x', CDP_LIMIT: '3', CDP_REPORTS: '/r', CDP_SIMULATED: '1' }, root);
  assert.deepEqual(retired.problems, [
    'CDP_CORPUS is set, but options are flags now: pass --corpus DIR instead, and unset CDP_CORPUS',
    'CDP_LIMIT is set, but options are flags now: pass --limit N instead, and unset CDP_LIMIT',
    'CDP_REPORTS is set, but options are flags now: pass --reports DIR instead, and unset CDP_REPORTS',
    'CDP_SIMULATED is set, but options are flags now: pass --simulated instead, and unset CDP_SIMULATED',
  ]);
  for (const bad of ['0', '-2', '2.5', 'abc', ''])
    assert.deepEqual(resolveInvocation(flags({ limit: bad }), {}, root).problems, [
      `--limit must be a positive whole number of cases, got "${bad}"`,
    ]);
});

test('one model in every role from CDP_LLM_*: its settings in the options, its key never', () => {
  const root = project();
  const env = {
    CDP_LLM_BASE_URL: ' http://127.0.0.1:8000/v1 ',
    CDP_LLM_MODEL: 'org/m',
    CDP_LLM_CONTEXT_WINDOW: '8192',
    CDP_LLM_API_KEY: 'sk-secret-value',
  };
  const o = resolveInvocation({ set: [] }, env, root).options;
  assert.deepEqual(o.llm, { baseURL: 'http://127.0.0.1:8000/v1', model: 'org/m', contextWindow: '8192', concurrency: null });
  assert.ok(!JSON.stringify(o).includes('sk-secret-value'));
  const keyChanged = resolveInvocation({ set: [] }, { ...env, CDP_LLM_API_KEY: 'another' }, root).options;
  assert.equal(optionsHash(keyChanged), optionsHash(o), 'a key is not an option: the fingerprint never sees it');
});

test('the store remembers its corpus and models file; another one given is named; another configuration is refused', () => {
  const root = project();
  const store = join(root, 'data', 'store');
  mkdirSync(store, { recursive: true });
  const record = (r: object) => writeFileSync(join(store, 'store.json'), JSON.stringify({ version: 1, config: 'dag.config.ts', ...r }));
  record({ corpus: 'corpora/one', models: '/abs/models.json' });
  const remembered = resolveInvocation({ set: [] }, {}, root);
  assert.deepEqual(
    [remembered.options.corpus, remembered.options.models, remembered.notices],
    [join(root, 'corpora/one'), '/abs/models.json', []],
  );
  const same = resolveInvocation({ set: [], corpus: join(root, 'corpora', 'one') }, {}, root);
  assert.deepEqual(same.notices, [], 'the same corpus given again is no change');
  assert.equal(optionsHash(same.options), optionsHash(remembered.options));
  const changed = resolveInvocation({ set: [], corpus: 'corpora/two', models: '/abs/other.json' }, {}, root);
  assert.equal(changed.options.corpus, join(root, 'corpora', 'two'));
  assert.deepEqual(changed.notices, [
    'corpus changed: corpora/one → corpora/two (the store remembered the first; a run records the second)',
    'models file changed: /abs/models.json → /abs/other.json (the store remembered the first; a run records the second)',
  ]);
  record({ config: 'other.config.ts', corpus: null, models: null });
  assert.deepEqual(resolveInvocation({ set: [] }, {}, root).problems, [
    `the store ${store} belongs to other.config.ts, not dag.config.ts: each configuration has its own (default ${store}); pass --store DIR for another`,
  ]);
});
