// `npx cdp --config cpgbench.config.ts run` as a user runs it, offline on the bundled sample, in
// a store of its own: every stage runs, the rerun reuses every one, and MEGA-CDP's store is
// not touched.
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
  const sql = await runCdp(
    ['--config', 'cpgbench.config.ts', 'sql', "select count(*)::int as n from cpg_rates where task = 'adherence'", '--json'],
    env,
  );
  assert.equal(sql.code, 0, sql.stderr);
  assert.deepEqual(JSON.parse(sql.stdout), [{ n: 45 }]);
});
