// `cdp … --set stage.param=value` end to end, in fresh processes with the no-op fast path on: run,
// --dry-run, status and explain see the override; an unknown stage or param stops the command
// before anything runs; a changed value reruns only its stage and what depends on it; and the fast
// path never answers a run whose --set differs from the last run's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeToyProject, type ToyProject } from '../testing/toy-project.ts';
import { readLedger } from '../store/ledger.ts';

const cdpBin = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'cdp.mjs');

function cdp(p: ToyProject, ...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cdpBin, ...args], { cwd: p.root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

type RunJson = { ok: boolean; stages: { stage: string; status: string; rowsComputed: number; reasons?: string[] }[] };

function runJson(p: ToyProject, ...args: string[]): { code: number; stderr: string; json: RunJson } {
  const r = cdp(p, 'run', '--json', ...args);
  assert.ok(r.stdout.trim(), `cdp run printed nothing on stdout (exit ${r.code}); stderr: ${r.stderr}`);
  return { code: r.code, stderr: r.stderr, json: JSON.parse(r.stdout) as RunJson };
}

const statusOf = (j: RunJson) => Object.fromEntries(j.stages.map((s) => [s.stage, s.status]));
const totalsKey = (p: ToyProject) => readLedger(join(p.root, 'data', 'store', 'ledger.json')).entries.totals!.key;
const report = (p: ToyProject) =>
  (JSON.parse(cdp(p, 'sql', "select line from report where line like 'docs=%'", '--json').stdout) as { line: string }[]).map((r) => r.line);

test('an unknown stage or param stops run, status, explain and --dry-run before anything runs, naming the known ones', () => {
  const p = makeToyProject();
  p.writeConfigFile();
  const problems = [
    "  - --set totals.scael=2: stage 'totals' has no param 'scael' (did you mean 'scale'?); known: scale",
    "  - --set totlas.scale=2: no stage 'totlas' (did you mean 'totals'?); stages: words, shout, totals, report",
  ];
  for (const args of [['run'], ['run', '--dry-run'], ['status', '--json'], ['explain', 'totals']]) {
    const r = cdp(p, ...args, '--set', 'totals.scael=2', '--set=totlas.scale=2');
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '', args.join(' '));
    assert.equal(r.stderr, `cdp: dag.config.ts with --set has 2 problems:\n${problems[1]}\n${problems[0]}\n`, args.join(' '));
  }
  const malformed = cdp(p, 'run', '--set', 'scale=2');
  assert.equal(malformed.code, 2);
  assert.equal(
    malformed.stderr,
    'cdp: --set "scale=2": expected <stage>.<param>=<value>, e.g. --set outcome_scores.cutoff=3 or --set step_scores.runs=3\n',
  );
  assert.deepEqual(p.computed(), []);
  assert.equal(existsSync(join(p.root, 'data', 'store', 'ledger.json')), false, 'nothing was written');
});

test('a value outside its param type stops run, status, explain and --dry-run before anything runs, naming the allowed values', () => {
  const p = makeToyProject();
  p.writeConfigFile();
  for (const args of [['run'], ['run', '--dry-run'], ['status', '--json'], ['explain', 'totals']]) {
    const r = cdp(p, ...args, '--set', 'totals.scale=abc');
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '', args.join(' '));
    assert.equal(
      r.stderr,
      `cdp: dag.config.ts with --set has 1 problem:\n  - stage 'totals': param 'scale' must be a number, got "abc" (from --set totals.scale=abc)\n`,
      args.join(' '),
    );
  }
  assert.deepEqual(p.computed(), []);
  assert.equal(existsSync(join(p.root, 'data', 'store', 'ledger.json')), false, 'nothing was written');
});

test('a changed value is seen by status, explain and --dry-run, and reruns only its stage and its descendants', () => {
  const p = makeToyProject();
  p.writeConfigFile();
  assert.equal(runJson(p).code, 0);
  const before = p.computed().length;
  const plainKey = totalsKey(p);

  const status = JSON.parse(cdp(p, 'status', '--json', '--set', 'totals.scale=10').stdout) as { stage: string; reasons: string[] }[];
  assert.deepEqual(
    status.filter((s) => s.reasons.length),
    [
      { stage: 'totals', state: 'stale', reasons: ['params changed: scale'] },
      { stage: 'report', state: 'stale', reasons: ["input 'totals' (totals) will change"] },
    ],
  );
  const explained = cdp(p, 'explain', 'totals', '--set', 'totals.scale=10').stdout;
  assert.match(explained, /\n {4}\{"scale":10\}\n/);
  assert.match(explained, /stale because: params changed: scale/);
  const dry = runJson(p, '--dry-run', '--set', 'totals.scale=10');
  assert.deepEqual(statusOf(dry.json), { docs: 'reused', words: 'reused', shout: 'reused', totals: 'would-run', report: 'would-run' });

  const r = runJson(p, '--set', 'totals.scale=10');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(statusOf(r.json), { docs: 'reused', words: 'reused', shout: 'reused', totals: 'ran', report: 'ran' });
  assert.deepEqual(r.json.stages.find((s) => s.stage === 'totals')!.reasons, ['params changed: scale']);
  assert.equal(p.computed().length, before, 'no row-mapped unit was computed again');
  assert.deepEqual(report(p), ['docs=3 words=60']);
  assert.notEqual(totalsKey(p), plainKey);

  // The same value in dag.config.ts: the same key, so nothing reruns.
  p.writeConfigFile({ totalsScale: 10 });
  assert.deepEqual(new Set(Object.values(statusOf(runJson(p).json))), new Set(['reused']));
  assert.deepEqual(report(p), ['docs=3 words=60']);
});

test('the fast no-op path answers only a run with the same --set as the last one', () => {
  const p = makeToyProject();
  p.writeConfigFile();
  assert.equal(runJson(p).code, 0);
  assert.equal(runJson(p).stderr, '', 'an unchanged run is answered by the fast path (it prints nothing on stderr with --json)');
  const plainKey = totalsKey(p);

  const set = runJson(p, '--set', 'totals.scale=10');
  assert.notEqual(set.stderr, '', 'a new --set is not answered by the fast path');
  assert.equal(statusOf(set.json).totals, 'ran');
  assert.deepEqual(report(p), ['docs=3 words=60']);

  const again = runJson(p, '--set', 'totals.scale=10');
  assert.equal(again.stderr, '', 'the same --set again is');
  assert.deepEqual(new Set(Object.values(statusOf(again.json))), new Set(['reused']));

  for (const args of [['--set', 'totals.scale=11'], ['--set=totals.scale=10', '--set', 'totals.scale=12'], []]) {
    const r = runJson(p, ...args);
    assert.notEqual(r.stderr, '', `run ${args.join(' ')} is not answered by the fast path`);
    assert.equal(statusOf(r.json).totals, 'ran', args.join(' '));
  }
  // Without --set again: the config's value, under the key of the first run.
  assert.equal(totalsKey(p), plainKey);
  assert.deepEqual(report(p), ['docs=3 words=6']);
  // A --set of the config's own value keys nothing new, but the fast path still leaves it to the runner once.
  const same = runJson(p, '--set', 'totals.scale=1');
  assert.notEqual(same.stderr, '');
  assert.deepEqual(new Set(Object.values(statusOf(same.json))), new Set(['reused']));
  assert.equal(runJson(p, '--set', 'totals.scale=1').stderr, '');
});
