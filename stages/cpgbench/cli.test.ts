// `npx cdp --config cpgbench.config.ts run` as a user runs it, offline on the bundled sample, in
// a store of its own: every stage runs, the rerun reuses every one (the fast no-op too), and
// MEGA-CDP's store is not touched; its export writes the benchmark of that store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCdp } from '../../pipeline/testing/cdp-process.ts';
import { tempDir } from '../../pipeline/testing/temp-dir.ts';

test('cdp --config cpgbench.config.ts run: offline on the sample, its reports under its store, a rerun recomputes nothing', async () => {
  const store = join(tempDir('cdp-cpgbench-cli-'), 'store');
  const env = { CDP_STORE: store, CDP_NO_FAST_PATH: '1', CDP_MODELS: '', CDP_LLM_BASE_URL: '' };
  const first = await runCdp(['--config', 'cpgbench.config.ts', 'run', '--json'], env);
  assert.equal(first.code, 0, first.stderr);
  const stages = (JSON.parse(first.stdout) as { stages: { stage: string; status: string }[] }).stages;
  assert.ok(stages.length >= 24);
  assert.ok(
    stages.every((s) => s.status === 'ran'),
    JSON.stringify(stages.filter((s) => s.status !== 'ran')),
  );
  assert.ok(existsSync(join(store, 'reports', 'index.md')), 'reports belong to the store');
  assert.match(
    readFileSync(join(store, 'reports', 'tables', 'cpgbench_table1_overall.md'), 'utf8'),
    /simulated stand-ins, not LLM results/,
  );
  const again = await runCdp(['--config', 'cpgbench.config.ts', 'run', '--json'], env);
  assert.equal(again.code, 0, again.stderr);
  const reran = (JSON.parse(again.stdout) as { stages: { stage: string; status: string }[] }).stages.filter((s) => s.status !== 'reused');
  assert.deepEqual(reran, []);
  // The fast no-op answers for this configuration too (its fingerprint is in its store), with
  // --config given either way; another option's value is left to the full runner.
  const fast = { ...env, CDP_NO_FAST_PATH: '' };
  for (const args of [
    ['--config', 'cpgbench.config.ts', 'run', '--json'],
    ['run', '--json', '--config=cpgbench.config.ts'],
  ]) {
    const noop = await runCdp(args, fast);
    assert.equal(noop.code, 0, noop.stderr);
    assert.equal(noop.stderr, '', `${args.join(' ')}: the fast path answers (it alone prints nothing on stderr)`);
    const s = (JSON.parse(noop.stdout) as { stages: { stage: string; status: string }[] }).stages;
    assert.deepEqual(
      s.map((x) => x.stage),
      stages.map((x) => x.stage),
    );
    assert.ok(s.every((x) => x.status === 'reused'));
  }
  const other = await runCdp(['--config', 'cpgbench.config.ts', 'run', '--json', '--set', 'cpg_documents.minYear=2016'], fast);
  assert.equal(other.code, 0, other.stderr);
  assert.notEqual(other.stderr, '', 'a --set the last run did not have is left to the full runner');
  const sql = await runCdp(
    ['--config', 'cpgbench.config.ts', 'sql', "select count(*)::int as n from cpg_rates where task = 'adherence'", '--json'],
    env,
  );
  assert.equal(sql.code, 0, sql.stderr);
  assert.deepEqual(JSON.parse(sql.stdout), [{ n: 45 }]);
  // `export` is one of its commands: the benchmark of this store, and a bad kind refused by name.
  const out = join(tempDir('cdp-cpgbench-export-'), 'benchmark');
  const exported = await runCdp(['--config', 'cpgbench.config.ts', 'export', 'benchmark', out], env);
  assert.equal(exported.code, 0, exported.stderr);
  assert.match(
    exported.stdout,
    /^documents: 7 rows\nrecommendations: 10 rows\nconversations: 10 rows\ntask_inputs: 10 rows\nwrote \d+ files/,
  );
  assert.match(readFileSync(join(out, 'README.md'), 'utf8'), /^# CPGBench benchmark/);
  const bad = await runCdp(['--config', 'cpgbench.config.ts', 'export', 'trees', out], env);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /cdp --config cpgbench\.config\.ts export: kind must be benchmark or results, got "trees"/);
});
