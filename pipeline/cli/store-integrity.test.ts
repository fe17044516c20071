// A store that cannot lie, end to end with `cdp` in fresh processes (the no-op fast path on): an
// artifact changed behind the runner's back is named by `cdp status` and rebuilt by `cdp run`; a
// reader held open does not fail a run; a deleted, outdated or half-refreshed warehouse is rebuilt;
// a copied tree answers at once; `cdp clean` removes orphaned temporary files; a corrupt ledger
// is reported.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { makeToyProject, type ToyProject } from '../testing/toy-project.ts';
import { holdWarehouse } from '../testing/warehouse-holder.ts';
import { readLedger } from '../store/ledger.ts';
import { segmentPaths } from '../store/artifacts.ts';
import { openWarehouse } from '../store/warehouse.ts';
import { tempPathFor } from '../store/atomic.ts';
import { createRng } from '../../stages/stats/rng.ts';

const cdpBin = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'cdp.mjs');

function cdp(root: string, args: string[], env: Record<string, string> = {}): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cdpBin, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', ...env },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

type RunJson = { ok: boolean; stages: { stage: string; status: string; rowsComputed: number; reasons?: string[] }[] };

function runJson(root: string, env: Record<string, string> = {}): { code: number; stderr: string; json: RunJson } {
  const r = cdp(root, ['run', '--json'], env);
  assert.ok(r.stdout.trim(), `cdp run printed nothing on stdout (exit ${r.code}); stderr: ${r.stderr}`);
  return { code: r.code, stderr: r.stderr, json: JSON.parse(r.stdout) as RunJson };
}

const statusOf = (j: RunJson) => Object.fromEntries(j.stages.map((s) => [s.stage, s.status]));

function status(root: string): { stage: string; state: string; reasons: string[] }[] {
  const r = cdp(root, ['status', '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const storeOf = (root: string) => join(root, 'data', 'store');
const warehouseOf = (root: string) => join(root, 'data', 'warehouse.duckdb');

/** The files of a stage's artifact, which in these small projects is one segment. */
function current(root: string, stage: string): { ndjson: string; parquet: string } {
  const segments = readLedger(join(storeOf(root), 'ledger.json')).entries[stage].segments!;
  assert.equal(segments.length, 1, `${stage} is one segment`);
  return segmentPaths(storeOf(root), stage, segments[0].hash);
}

async function query(root: string, sql: string): Promise<unknown[]> {
  const w = await openWarehouse(warehouseOf(root), storeOf(root), { readOnly: true });
  try {
    return (await w.con.runAndReadAll(sql)).getRowObjectsJson();
  } finally {
    w.close();
  }
}

/** A project run once, then once more so that the next unchanged run is answered by the fast path. */
function fastProject(): ToyProject {
  const p = makeToyProject();
  p.writeConfigFile();
  assert.equal(runJson(p.root).json.ok, true);
  assert.equal(runJson(p.root).stderr, '', 'the fast path answers an unchanged project');
  return p;
}

describe('verified artifacts', () => {
  test("an NDJSON artifact overwritten behind the runner's back is named by status and rebuilt by run, fast path on", () => {
    const p = fastProject();
    const words = current(p.root, 'words');
    const original = readFileSync(words.ndjson, 'utf8');
    writeFileSync(words.ndjson, original.replace('alpha', 'ALPHA'));
    assert.deepEqual(
      status(p.root).filter((s) => s.state !== 'fresh'),
      [{ stage: 'words', state: 'stale', reasons: [`artifact changed on disk: ${words.ndjson}`] }],
    );
    const r = runJson(p.root);
    assert.deepEqual(statusOf(r.json), { docs: 'reused', words: 'ran', shout: 'reused', totals: 'reused', report: 'reused' });
    assert.deepEqual(r.json.stages.find((s) => s.stage === 'words')!.reasons, [`artifact changed on disk: ${words.ndjson}`]);
    assert.equal(p.computed().length, 6, 'rebuilt from the unit memo, no unit computed again');
    assert.equal(readFileSync(words.ndjson, 'utf8'), original);
    assert.ok(status(p.root).every((s) => s.state === 'fresh'));
  });

  test('a Parquet artifact overwritten by a COPY is named by status and rebuilt by run; the warehouse shows its rows again', async () => {
    const p = fastProject();
    const totals = current(p.root, 'totals');
    assert.deepEqual(await query(p.root, 'select docs, words from totals'), [{ docs: 3, words: 6 }]);
    // What `cdp sql "copy (select 0 …) to '<artifact>'"` did in issue 13.
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    await con.run(`copy (select 0::integer as docs, 0::double as words) to '${totals.parquet}' (format parquet)`);
    con.closeSync();
    db.closeSync();
    assert.deepEqual(await query(p.root, 'select docs, words from totals'), [{ docs: 0, words: 0 }]);
    assert.deepEqual(
      status(p.root)
        .filter((s) => s.state !== 'fresh')
        .map((s) => [s.stage, s.reasons]),
      [['totals', [`artifact changed on disk: ${totals.parquet}`]]],
    );
    const r = runJson(p.root);
    assert.notEqual(r.stderr, '', 'not answered by the fast path');
    assert.deepEqual(statusOf(r.json), { docs: 'reused', words: 'reused', shout: 'reused', totals: 'ran', report: 'reused' });
    assert.deepEqual(await query(p.root, 'select docs, words from totals'), [{ docs: 3, words: 6 }]);
    assert.equal(runJson(p.root).stderr, '', 'and the next unchanged run is fast again');
  });

  test('an artifact touched but unchanged stays fresh; its new stat is recorded so the next check is a stat again', () => {
    const p = fastProject();
    const totals = current(p.root, 'totals');
    const when = new Date(2001, 0, 1);
    utimesSync(totals.parquet, when, when);
    assert.ok(
      status(p.root).every((s) => s.state === 'fresh'),
      'same bytes: fresh',
    );
    const r = runJson(p.root);
    assert.ok(r.json.stages.every((s) => s.status === 'reused'));
    const entry = readLedger(join(storeOf(p.root), 'ledger.json')).entries.totals;
    assert.equal(entry.segments![0].files.parquet.mtimeMs, when.getTime());
  });

  test('a corrupt ledger is a warning naming the file; the run proceeds as if nothing ran and keeps the damaged file', () => {
    const p = makeToyProject();
    p.writeConfigFile();
    assert.equal(runJson(p.root).code, 0);
    const ledger = join(storeOf(p.root), 'ledger.json');
    writeFileSync(ledger, readFileSync(ledger, 'utf8').slice(0, 100));
    const st = cdp(p.root, ['status', '--json']);
    assert.match(st.stderr, new RegExp(`warning: the ledger ${ledger} is corrupt \\(.*JSON.*\\): every stage counts as never run`));
    assert.ok((JSON.parse(st.stdout) as { state: string }[]).every((s) => s.state !== 'fresh'));
    const clean = cdp(p.root, ['clean']);
    assert.equal(clean.code, 2);
    assert.match(clean.stderr, /the ledger .* is corrupt .*clean removes nothing without it: run `cdp run` first/);
    const r = runJson(p.root);
    assert.equal(r.code, 0);
    assert.match(r.stderr, new RegExp(`the ledger ${ledger} is corrupt .* the damaged file is kept as ${ledger}.corrupt`));
    assert.deepEqual(statusOf(r.json), { docs: 'ran', words: 'ran', shout: 'ran', totals: 'ran', report: 'ran' });
    assert.equal(p.computed().length, 6, 'units come from the memo: nothing is computed twice');
    assert.equal(readFileSync(`${ledger}.corrupt`, 'utf8').length, 100);
    assert.ok(status(p.root).every((s) => s.state === 'fresh'));
  });
});

describe('the warehouse', () => {
  test('a reader held open (read-only, in another process) during cdp run does not fail it and sees the old data', async () => {
    const p = fastProject();
    const reader = await holdWarehouse(warehouseOf(p.root), storeOf(p.root), 'read-only', 'select words from totals');
    try {
      assert.deepEqual(reader.first, [{ words: 6 }]);
      p.writeConfigFile({ totalsScale: 2 });
      const r = runJson(p.root);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json.ok, true);
      assert.equal(statusOf(r.json).totals, 'ran');
      assert.deepEqual(await reader.ask(), [{ words: 6 }], 'the held reader sees the warehouse it opened');
      assert.deepEqual(await query(p.root, 'select words from totals'), [{ words: 12 }], 'a new reader sees the new one');
      assert.deepEqual(JSON.parse(cdp(p.root, ['sql', 'select words from totals', '--json']).stdout), [{ words: 12 }]);
    } finally {
      await reader.close();
    }
  });

  test('a deleted warehouse, or an outdated one copied back, is rebuilt by a plain cdp run with the fast path on', async () => {
    const p = fastProject();
    const warehouse = warehouseOf(p.root);
    const old = join(p.root, 'old.duckdb');
    copyFileSync(warehouse, old);
    rmSync(warehouse);
    const r = runJson(p.root);
    assert.notEqual(r.stderr, '', 'not answered by the fast path');
    assert.ok(r.json.stages.every((s) => s.status === 'reused'));
    assert.deepEqual(await query(p.root, 'select words from totals'), [{ words: 6 }]);
    assert.equal(runJson(p.root).stderr, '', 'fast again once rebuilt');

    p.writeConfigFile({ totalsScale: 3 });
    assert.equal(runJson(p.root).json.ok, true);
    assert.equal(runJson(p.root).stderr, '');
    copyFileSync(old, warehouse); // views of the previous run: not what the ledger says
    assert.deepEqual(await query(p.root, 'select words from totals'), [{ words: 6 }]);
    assert.notEqual(runJson(p.root).stderr, '');
    assert.deepEqual(await query(p.root, 'select words from totals'), [{ words: 18 }]);
  });

  test('SIGKILLed at random moments of the warehouse refresh, it is left old or new, never a mix, and the next run heals it', async () => {
    const p = makeToyProject();
    // Enough views that the refresh takes about a second, each saying which generation built it.
    const VIEWS = 3000;
    const generation = (g: number) => {
      p.writeConfigFile({ totalsScale: g });
      appendFileSync(
        join(p.root, 'dag.config.ts'),
        `const GEN = Number(process.env.TOY_GEN ?? 1);\n` +
          `export const llmViews = () =>\n` +
          `  Object.fromEntries(Array.from({ length: ${VIEWS} }, (_, i) => ['gen_' + i, 'select ' + GEN + ' as gen']));\n`,
      );
      return { TOY_GEN: String(g) };
    };
    const seen = async (): Promise<{ gens: number[]; words: number; views: number }> => {
      const count = `select count(*)::int as n from duckdb_views() where view_name like 'gen_%'`;
      const [views] = (await query(p.root, count)) as { n: number }[];
      const all = Array.from({ length: VIEWS }, (_, i) => `select gen from gen_${i}`).join(' union all ');
      const gens = (await query(p.root, `select distinct gen from (${all}) order by gen`)) as { gen: number }[];
      const [t] = (await query(p.root, 'select words from totals')) as { words: number }[];
      return { gens: gens.map((g) => g.gen), words: t.words, views: views.n };
    };
    assert.equal(runJson(p.root, generation(1)).json.ok, true);
    assert.deepEqual(await seen(), { gens: [1], words: 6, views: VIEWS });

    const rng = createRng(13);
    const data = join(p.root, 'data');
    let now = 1;
    const outcomes: string[] = [];
    for (let g = 2; g <= 6; g++) {
      const env = generation(g);
      const child = spawn(process.execPath, [cdpBin, 'run'], { cwd: p.root, stdio: 'ignore', env: { ...process.env, ...env } });
      const exited = new Promise((r) => child.once('exit', r));
      // Kill once the refresh has started building its new file, at a random moment after.
      let building = false;
      for (let i = 0; i < 3000 && !building && child.exitCode === null; i++) {
        building = readdirSync(data).some((f) => f.startsWith('warehouse.duckdb.') && f.endsWith('.tmp'));
        if (!building) await new Promise((r) => setTimeout(r, 5));
      }
      assert.ok(building, 'the refresh was seen building its new file');
      await new Promise((r) => setTimeout(r, rng.nextInt(700)));
      child.kill('SIGKILL');
      await exited;
      const s = await seen();
      assert.equal(s.views, VIEWS);
      assert.equal(s.gens.length, 1, `a mix of generations ${s.gens.join(', ')}`);
      assert.ok(s.gens[0] === now || s.gens[0] === g, `generation ${s.gens[0]}: neither the old (${now}) nor the new (${g})`);
      assert.equal(s.words, 6 * s.gens[0], 'the stage views belong to the same generation as the others');
      outcomes.push(s.gens[0] === g ? 'new' : 'old');
      now = s.gens[0];
    }
    assert.ok(outcomes.includes('old'), `some kill landed before the rename: ${outcomes.join(', ')}`);
    const healed = runJson(p.root, { TOY_GEN: '6' });
    assert.equal(healed.code, 0, healed.stderr);
    assert.deepEqual(await seen(), { gens: [6], words: 36, views: VIEWS });
    const left = readdirSync(data).filter((f) => f.startsWith('warehouse.duckdb'));
    assert.deepEqual(left, ['warehouse.duckdb'], 'no half-built warehouse left behind');
  });

  test('a warehouse that cannot be refreshed fails the run with a warning (JSON still printed); the next run rebuilds it', async () => {
    const p = fastProject();
    const warehouse = warehouseOf(p.root);
    rmSync(warehouse);
    // A directory in the warehouse's place: the rename into place fails.
    mkdirSync(join(warehouse, 'in-the-way'), { recursive: true });
    const r = runJson(p.root);
    assert.equal(r.code, 1);
    assert.equal(r.json.ok, false);
    assert.ok(
      r.json.stages.every((s) => s.status === 'reused'),
      'the stages themselves are fine',
    );
    const warning = `warning: the warehouse ${warehouse} could not be refreshed \\(.*\\); rerun \`cdp run\` to rebuild it`;
    assert.match(r.stderr, new RegExp(warning));
    assert.deepEqual(readdirSync(join(p.root, 'data')).sort(), ['store', 'warehouse.duckdb'], 'no temporary file left');
    rmSync(warehouse, { recursive: true });
    const again = runJson(p.root);
    assert.equal(again.code, 0, again.stderr);
    assert.notEqual(again.stderr, '', 'a failed run leaves no fingerprint: the full runner answers');
    assert.deepEqual(await query(p.root, 'select words from totals'), [{ words: 6 }]);
  });

  test('a copied project tree answers cdp sql and cdp status at once, with the original deleted', () => {
    const p = fastProject();
    const copy = join(dirname(p.root), `${p.root.split('/').pop()}-copy`);
    cpSync(p.root, copy, { recursive: true });
    rmSync(p.root, { recursive: true, force: true });
    try {
      const sql = cdp(copy, ['sql', 'select line from report order by line', '--json']);
      assert.equal(sql.code, 0, sql.stderr);
      const lines = (JSON.parse(sql.stdout) as { line: string }[]).map((l) => l.line);
      assert.deepEqual(lines, ['ALPHA BETA!', 'GAMMA DELTA EPSILON!', 'ZETA!', 'docs=3 words=6']);
      assert.ok(
        status(copy).every((s) => s.state === 'fresh'),
        'copied artifacts verify by checksum',
      );
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

test('cdp clean removes the temporary files a killed run leaves, and nothing current', () => {
  const p = makeToyProject();
  p.writeConfigFile();
  assert.equal(runJson(p.root).code, 0);
  const words = current(p.root, 'words');
  const orphans = [
    tempPathFor(words.ndjson),
    tempPathFor(words.parquet),
    tempPathFor(join(storeOf(p.root), 'ledger.json')),
    tempPathFor(warehouseOf(p.root)),
    tempPathFor(warehouseOf(p.root)) + '.wal',
    tempPathFor(join(storeOf(p.root), 'noop-fingerprint.json')),
  ];
  for (const f of orphans) writeFileSync(f, 'left by a kill');
  const bystander = join(p.root, 'data', 'notes.tmp');
  writeFileSync(bystander, 'not ours');
  const r = cdp(p.root, ['clean']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /removed 0 artifact files, 6 temporary files left by killed runs/);
  for (const f of orphans) assert.equal(existsSync(f), false, `${f} removed`);
  assert.ok(existsSync(bystander), 'a file not named as our temporary files is left alone');
  assert.ok(existsSync(words.ndjson) && existsSync(words.parquet));
  assert.ok(runJson(p.root).json.stages.every((s) => s.status === 'reused'));
});
