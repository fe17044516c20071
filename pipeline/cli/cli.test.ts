// The `cdp` command end to end, in fresh processes as a user runs it: JSON output, status and
// its reasons, the code-change cascade, SIGKILL at random moments, and concurrent runs.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync, readFileSync, readdirSync, existsSync, rmSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeToyProject, type ToyProject } from '../testing/toy-project.ts';
import { RowStore } from '../store/row-store.ts';
import { readLedger } from '../store/ledger.ts';
import { createRng } from '../../stages/stats/rng.ts';

const cdpBin = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'cdp.mjs');

function cdp(p: ToyProject, ...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cdpBin, ...args], { cwd: p.root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function runJson(p: ToyProject, ...args: string[]) {
  const r = cdp(p, 'run', '--json', ...args);
  assert.ok(r.stdout.trim(), `cdp run printed nothing on stdout; stderr: ${r.stderr}`);
  return {
    ...r,
    json: JSON.parse(r.stdout) as {
      ok: boolean;
      stages: {
        stage: string;
        status: string;
        rowsComputed: number;
        rowsReused: number;
        llmCalls: number;
        llmCached: number;
        seconds: number;
      }[];
    },
  };
}

const statusOf = (j: { stages: { stage: string; status: string }[] }) => Object.fromEntries(j.stages.map((s) => [s.stage, s.status]));

describe('cdp in fresh processes', () => {
  test('run --json, status with reasons, and the full cascade of a helper edit', () => {
    const p = makeToyProject();
    p.writeConfigFile();
    const first = runJson(p);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.json.ok, true);
    assert.deepEqual(
      Object.keys(first.json.stages[0]).sort(),
      ['llmCached', 'llmCalls', 'reasons', 'rowsComputed', 'rowsFailed', 'rowsReused', 'seconds', 'counters', 'stage', 'status'].sort(),
    );
    assert.deepEqual(statusOf(first.json), { docs: 'ran', words: 'ran', shout: 'ran', totals: 'ran', report: 'ran' });

    const status = JSON.parse(cdp(p, 'status', '--json').stdout) as { stage: string; state: string; reasons: string[] }[];
    assert.deepEqual(
      status.map((s) => s.state),
      ['fresh', 'fresh', 'fresh', 'fresh', 'fresh'],
    );

    writeFileSync(
      join(p.root, 'stages', 'helpers', 'shout.ts'),
      `export function shout(s: string): string { return s.toUpperCase() + '?'; }\n`,
    );
    const stale = JSON.parse(cdp(p, 'status', '--json').stdout) as { stage: string; state: string; reasons: string[] }[];
    assert.deepEqual(
      stale.filter((s) => s.state !== 'fresh'),
      [
        { stage: 'shout', state: 'stale', reasons: ['code: stages/helpers/shout.ts changed'] },
        { stage: 'report', state: 'stale', reasons: ["input 'shout' (shout) will change"] },
      ],
    );
    const second = runJson(p);
    assert.deepEqual(statusOf(second.json), { docs: 'reused', words: 'reused', shout: 'ran', totals: 'reused', report: 'ran' });
    const lines = JSON.parse(cdp(p, 'sql', 'select line from report order by line', '--json').stdout) as { line: string }[];
    assert.deepEqual(
      lines.map((l) => l.line),
      ['ALPHA BETA?', 'GAMMA DELTA EPSILON?', 'ZETA?', 'docs=3 words=6'],
    );
  });

  test('dag, explain and clean', () => {
    const p = makeToyProject();
    p.writeConfigFile();
    assert.equal(cdp(p, 'run').code, 0);
    assert.equal(
      cdp(p, 'dag', '--format', 'mermaid').stdout,
      [
        'flowchart TD',
        '  docs[("docs (source)")]',
        '  words["words (per docs row)"]',
        '  totals["totals"]',
        '  shout["shout (per words row)"]',
        '  report["report"]',
        '  docs --> words',
        '  shout --> report',
        '  totals --> report',
        '  words --> shout',
        '  words --> totals',
        '',
      ].join('\n'),
    );
    const explained = cdp(p, 'explain', 'shout').stdout;
    assert.match(explained, /key {6}[0-9a-f]{64} {2}\(matches the last run\)/);
    assert.match(explained, /stages\/helpers\/shout\.ts/);
    assert.match(explained, /words ← words: [0-9a-f]{64}/);

    // A new param gives totals, and so report, new artifacts; the old ones become garbage.
    p.writeConfigFile({ totalsScale: 5 });
    assert.equal(cdp(p, 'run').code, 0);
    const store = join(p.root, 'data', 'store', 'artifacts', 'totals');
    assert.equal(readdirSync(store).filter((f) => f.endsWith('.ndjson')).length, 2);
    assert.match(cdp(p, 'clean').stdout, /removed 4 artifact files/);
    assert.equal(readdirSync(store).filter((f) => f.endsWith('.ndjson')).length, 1);
    assert.equal(
      runJson(p).json.stages.every((s) => s.status === 'reused'),
      true,
      'clean kept everything current',
    );
  });

  test('a config error is reported before anything runs, naming the stages', () => {
    const p = makeToyProject();
    writeFileSync(
      join(p.root, 'dag.config.ts'),
      `export default { sources: {}, stages: [ { name: 'a', module: 'stages/totals.ts', inputs: { x: 'b' } }, { name: 'b', module: 'stages/totals.ts', inputs: { y: 'a' } } ] };\n`,
    );
    const r = cdp(p, 'run');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cycle: a → b → a/);
    assert.equal(p.computed().length, 0);
  });
});

describe('robustness', () => {
  test('killed with SIGKILL at random moments 10 times, the rerun matches an uninterrupted run and recomputes no committed row', async () => {
    const docs: Record<string, string> = {};
    for (let i = 0; i < 240; i++) docs[`d${String(i).padStart(2, '0')}.txt`] = `word${i} `.repeat((i % 5) + 1);
    const p = makeToyProject(docs);
    // One unit at a time, 60 ms each: about 14 s of work in all, more than ten runs killed at
    // most 1.2 s after they start computing can do, so every kill lands before the last commit.
    p.writeConfigFile({ wordsDelayMs: 60, wordsConcurrency: 1 });
    const rng = createRng(2024);
    const store = new RowStore(join(p.root, 'data', 'store', 'units', 'words'));
    // After each kill: the rows committed so far, and how long the compute log was then.
    const history: { committed: Set<string>; at: number }[] = [];
    for (let k = 0; k < 10; k++) {
      const child = spawn(process.execPath, [cdpBin, 'run'], { cwd: p.root, stdio: 'ignore' });
      const exited = new Promise((r) => child.once('exit', r));
      // Kill at a random moment once the run is computing, however long its start-up took.
      const before = p.computed().length;
      for (let i = 0; i < 600 && p.computed().length === before; i++) await new Promise((r) => setTimeout(r, 25));
      await new Promise((r) => setTimeout(r, rng.nextInt(1200)));
      child.kill('SIGKILL');
      await exited;
      history.push({ committed: new Set([...store.load().values()].map((rows) => `words:${rows[0].path}`)), at: p.computed().length });
    }
    const final = runJson(p);
    assert.equal(final.json.ok, true, final.stderr);
    const log = p.computed();
    for (const { committed, at } of history) {
      const again = log.slice(at).filter((u) => committed.has(u));
      assert.deepEqual(again, [], `rows committed before a kill were computed again: ${again.join(', ')}`);
    }
    assert.ok(
      history.some((h) => h.committed.size > 0),
      'some kill happened after rows were committed',
    );
    assert.ok(
      history.every((h) => h.committed.size < 240),
      'every kill happened before all rows were committed',
    );

    // The delay param changes keys but not content, so the reference runs without it.
    const reference = makeToyProject(docs);
    reference.writeConfigFile();
    assert.equal(runJson(reference).json.ok, true);
    const artifacts = (q: ToyProject) =>
      Object.fromEntries(Object.entries(readLedger(join(q.root, 'data', 'store', 'ledger.json')).entries).map(([k, e]) => [k, e.artifact]));
    assert.deepEqual(artifacts(p), artifacts(reference));
  });

  test('two concurrent runs on one store: the second waits (or refuses), and the store stays intact', async () => {
    const docs: Record<string, string> = {};
    for (let i = 0; i < 8; i++) docs[`d${i}.txt`] = `word${i} more`;
    const p = makeToyProject(docs);
    // About 2.4 s of work after the first run takes the lock: room for the others to meet it.
    p.writeConfigFile({ wordsDelayMs: 300, wordsConcurrency: 1 });
    const start = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((res) => {
        const c = spawn(process.execPath, [cdpBin, 'run', '--json', ...args], { cwd: p.root });
        let stdout = '';
        let stderr = '';
        c.stdout.on('data', (d) => (stdout += d));
        c.stderr.on('data', (d) => (stderr += d));
        c.on('exit', (code) => res({ code: code ?? -1, stdout, stderr }));
      });
    const first = start([]);
    const lock = join(p.root, 'data', 'store', 'run.lock');
    for (let i = 0; i < 300 && !existsSync(lock); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(existsSync(lock), 'the first run took the lock');
    const refused = await start([]);
    const waited = start(['--wait', '60']);
    const [a, b] = await Promise.all([first, waited]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /another cdp run \(pid \d+, started .*\) holds .*run\.lock; wait for it to finish, or pass --wait/);
    assert.equal(b.code, 0, b.stderr);
    assert.ok(
      (JSON.parse(b.stdout) as { stages: { status: string }[] }).stages.every((s) => s.status === 'reused'),
      'the waiting run found everything done',
    );
    assert.deepEqual(statusOf(runJson(p).json), { docs: 'reused', words: 'reused', shout: 'reused', totals: 'reused', report: 'reused' });
  });
});

describe('no-op fast path', () => {
  test('an unchanged project is answered from the fingerprint; a new file, an edited helper or a changed variable the config reads take the full path', () => {
    const p = makeToyProject();
    p.writeConfigFile();
    // The config reads TOY_SCALE through its options' environment view: the fast path must notice when it changes.
    const file = join(p.root, 'dag.config.ts');
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('defineDag({', 'defineDag((options) => ({')
        .replace(/\}\);\n$/, '}));\n')
        .replace('"scale": 1', '"scale": Number(options.env.get("TOY_SCALE") ?? 1)'),
    );
    const env = (extra: Record<string, string> = {}) => ({ ...process.env, TOY_SCALE: '1', ...extra });
    const run = (extra?: Record<string, string>) =>
      spawnSync(process.execPath, [cdpBin, 'run', '--json'], { cwd: p.root, encoding: 'utf8', env: env(extra) });
    const first = run();
    assert.equal(first.status, 0, first.stderr);
    const fast = run();
    assert.equal(fast.stderr, '', 'the fast path prints only the JSON');
    assert.deepEqual(statusOf(JSON.parse(fast.stdout)), {
      docs: 'reused',
      words: 'reused',
      shout: 'reused',
      totals: 'reused',
      report: 'reused',
    });
    assert.equal(p.computed().length, 6);

    const scaled = JSON.parse(run({ TOY_SCALE: '2' }).stdout);
    assert.equal(statusOf(scaled).totals, 'ran', 'a changed variable read by the config reran what it feeds');

    p.writeDoc('d.txt', 'new words');
    const added = JSON.parse(run({ TOY_SCALE: '2' }).stdout);
    assert.equal(added.stages.find((s: { stage: string }) => s.stage === 'words').rowsComputed, 1, 'a new source file is seen');

    writeFileSync(join(p.root, 'stages', 'helpers', 'shout.ts'), `export function shout(s: string): string { return s.toLowerCase(); }\n`);
    const edited = JSON.parse(run({ TOY_SCALE: '2' }).stdout);
    assert.equal(statusOf(edited).shout, 'ran', 'an edited helper is seen');
    // And once everything is up to date again, the fast path answers.
    assert.equal(run({ TOY_SCALE: '2' }).stderr, '');
  });

  test('a file the config reads through configInput (a models file, say) is in the fingerprint: created, edited or deleted, it takes the full path', () => {
    const p = makeToyProject();
    p.writeConfigFile();
    const file = join(p.root, 'dag.config.ts');
    const pipelineIndex = JSON.stringify(resolve(dirname(cdpBin), '..', 'pipeline', 'index.ts'));
    const settings = join(p.root, 'settings.json');
    writeFileSync(
      file,
      `import { existsSync, readFileSync } from 'node:fs';\nimport { configInput } from ${pipelineIndex};\n` +
        `const f = configInput(${JSON.stringify(settings)});\nconst scale = existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')).scale : 1;\n` +
        readFileSync(file, 'utf8')
          .replace(/^import \{ defineDag \}/m, 'import { defineDag }')
          .replace('"scale": 1', '"scale": scale'),
    );
    const run = () =>
      spawnSync(process.execPath, [cdpBin, 'run', '--json'], {
        cwd: p.root,
        encoding: 'utf8',
        env: { ...process.env, CDP_NO_FAST_PATH: '' },
      });
    assert.equal(run().status, 0);
    assert.equal(run().stderr, '', 'unchanged: the fast path answers');
    writeFileSync(settings, JSON.stringify({ scale: 3 }));
    const created = run();
    assert.notEqual(created.stderr, '', 'a created file takes the full path');
    assert.equal(statusOf(JSON.parse(created.stdout)).totals, 'ran');
    assert.equal(run().stderr, '');
    writeFileSync(settings, JSON.stringify({ scale: 4 }) + '\n');
    assert.equal(statusOf(JSON.parse(run().stdout)).totals, 'ran', 'an edited file is seen');
    rmSync(settings);
    assert.equal(statusOf(JSON.parse(run().stdout)).totals, 'ran', 'a deleted file is seen');
  });
});
