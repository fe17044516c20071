import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { makeToyProject, type ToyProject } from '../testing/toy-project.ts';
import { resolveDag } from '../dag/validate.ts';
import { runDag, type RunSummary } from './executor.ts';
import { workspaceFor } from './workspace.ts';
import { readLedger } from '../store/ledger.ts';
import { readRows } from '../store/artifacts.ts';
import type { DagConfig } from '../dag/define.ts';
import { openWarehouse } from '../store/warehouse.ts';

async function run(p: ToyProject, config: DagConfig, opts: Parameters<typeof runDag>[2] = {}): Promise<RunSummary> {
  const dag = await resolveDag(config, p.root);
  return runDag(dag, workspaceFor(p.root), opts);
}

function statuses(s: RunSummary): Record<string, string> {
  return Object.fromEntries(s.stages.map((r) => [r.stage, r.status]));
}

function rowsOf(p: ToyProject, stage: string): Record<string, unknown>[] {
  const ws = workspaceFor(p.root);
  const e = readLedger(ws.ledger).entries[stage];
  return readRows(ws.store, stage, e.segments!);
}

describe('incremental runs on the toy DAG', () => {
  test('first run computes everything; a no-op rerun runs nothing', async () => {
    const p = makeToyProject();
    const first = await run(p, p.config());
    assert.equal(first.ok, true);
    assert.deepEqual(statuses(first), { docs: 'ran', words: 'ran', shout: 'ran', totals: 'ran', report: 'ran' });
    assert.equal(p.computed().length, 6); // 3 words + 3 shout units
    assert.deepEqual(rowsOf(p, 'totals'), [{ docs: 3, words: 6 }]);
    assert.deepEqual(
      rowsOf(p, 'report').map((r) => r.line),
      ['docs=3 words=6', 'ALPHA BETA!', 'GAMMA DELTA EPSILON!', 'ZETA!'],
    );

    const second = await run(p, p.config());
    assert.deepEqual(new Set(Object.values(statuses(second))), new Set(['reused']));
    assert.equal(p.computed().length, 6, 'no unit computed again');
    assert.equal(
      second.stages.reduce((n, s) => n + s.rowsComputed, 0),
      0,
    );
  });

  test('each stage that ran records the seconds it held a slot (the next run’s weights); a reuse or a dry run keeps the record', async () => {
    const p = makeToyProject();
    const file = workspaceFor(p.root).stageSeconds;
    await run(p, p.config(), { dryRun: true });
    assert.equal(existsSync(file), false, 'a dry run records nothing');
    await run(p, p.config());
    const first = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
    assert.deepEqual(Object.keys(first), ['report', 'shout', 'totals', 'words'], 'every stage that ran; the source takes no slot');
    assert.ok(Object.values(first).every((s) => s >= 0 && s < 60));
    await run(p, p.config());
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), first, 'a no-op changes nothing');
    await run(p, p.config({ totalsScale: 10 }));
    const after = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
    assert.equal(after.words, first.words, 'a reused stage keeps its last time');
    assert.deepEqual(Object.keys(after), Object.keys(first));
  });

  test('changing a param reruns that stage and its descendants only', async () => {
    const p = makeToyProject();
    await run(p, p.config());
    const s = await run(p, p.config({ totalsScale: 10 }));
    assert.deepEqual(statuses(s), { docs: 'reused', words: 'reused', shout: 'reused', totals: 'ran', report: 'ran' });
    assert.deepEqual(s.stages.find((r) => r.stage === 'totals')!.reasons, ['params changed: scale']);
    assert.deepEqual(rowsOf(p, 'totals'), [{ docs: 3, words: 60 }]);
    assert.equal(p.computed().length, 6);
  });

  test('changing one input file recomputes only that row downstream', async () => {
    const p = makeToyProject();
    await run(p, p.config());
    p.writeDoc('b.txt', 'gamma delta');
    const s = await run(p, p.config());
    assert.deepEqual(statuses(s), { docs: 'ran', words: 'ran', shout: 'ran', totals: 'ran', report: 'ran' });
    const words = s.stages.find((r) => r.stage === 'words')!;
    assert.equal(words.rowsComputed, 1);
    assert.equal(words.rowsReused, 2);
    assert.deepEqual(p.computed().slice(6), ['words:docs/b.txt', 'shout:docs/b.txt']);
    assert.deepEqual(rowsOf(p, 'totals'), [{ docs: 3, words: 5 }]);
  });

  test('adding a document computes only that document downstream', async () => {
    const p = makeToyProject();
    await run(p, p.config());
    p.writeDoc('d.txt', 'eta theta');
    const s = await run(p, p.config());
    assert.equal(s.stages.find((r) => r.stage === 'words')!.rowsComputed, 1);
    assert.equal(s.stages.find((r) => r.stage === 'shout')!.rowsComputed, 1);
    assert.deepEqual(p.computed().slice(6), ['words:docs/d.txt', 'shout:docs/d.txt']);
  });

  test('editing a helper module reruns exactly the stages that import it, and their descendants', async () => {
    const p = makeToyProject();
    await run(p, p.config());
    writeFileSync(
      join(p.root, 'stages', 'helpers', 'shout.ts'),
      `export function shout(s: string): string { return s.toUpperCase() + '!!'; }\n`,
    );
    const s = await run(p, p.config());
    // In this process the edited module is already loaded, so shout's output (and therefore
    // report) cannot change here; the CLI test checks the whole cascade in fresh processes.
    assert.deepEqual(statuses(s), { docs: 'reused', words: 'reused', shout: 'ran', totals: 'reused', report: 'reused' });
    assert.deepEqual(s.stages.find((r) => r.stage === 'shout')!.reasons, ['code: stages/helpers/shout.ts changed']);
    // The edited helper changes every unit key of the stage that imports it.
    assert.equal(s.stages.find((r) => r.stage === 'shout')!.rowsComputed, 3);
  });

  test('--force reruns the named stage; --dry-run runs nothing and says why', async () => {
    const p = makeToyProject();
    await run(p, p.config());
    const dry = await run(p, p.config({ totalsScale: 2 }), { dryRun: true });
    assert.deepEqual(statuses(dry), { docs: 'reused', words: 'reused', shout: 'reused', totals: 'would-run', report: 'would-run' });
    assert.deepEqual(dry.stages.find((r) => r.stage === 'report')!.reasons, ["input 'totals' (totals) will change"]);
    assert.deepEqual(rowsOf(p, 'totals'), [{ docs: 3, words: 6 }], 'dry run changed nothing');
    const forced = await run(p, p.config(), { targets: ['totals'], force: true });
    assert.deepEqual(statuses(forced), { docs: 'reused', words: 'reused', totals: 'ran' });
    const forcedRows = await run(p, p.config(), { targets: ['words'], force: true });
    assert.equal(forcedRows.stages.find((r) => r.stage === 'words')!.rowsComputed, 3, '--force recomputes memoized rows too');
  });
});

describe('failures', () => {
  test('a failing stage marks its descendants not-run while other branches finish', async () => {
    const p = makeToyProject();
    writeFileSync(
      join(p.root, 'stages', 'totals.ts'),
      `import { tableStage } from ${JSON.stringify(join(import.meta.dirname, '..', 'stage.ts'))};\nexport default tableStage({ inputs: { words: 'whole' }, columns: { docs: 'INTEGER' }, run() { throw new Error('totals exploded'); } });\n`,
    );
    const s = await run(p, p.config());
    assert.equal(s.ok, false);
    assert.deepEqual(statuses(s), { docs: 'ran', words: 'ran', shout: 'ran', totals: 'failed', report: 'not-run' });
    assert.match(s.stages.find((r) => r.stage === 'totals')!.error!, /totals exploded/);
    assert.match(s.stages.find((r) => r.stage === 'report')!.error!, /upstream 'totals'/);
  });

  test('a failing unit becomes a failure row; the others go on; --retry-failed recomputes only it', async () => {
    const p = makeToyProject();
    const cfg = p.config();
    cfg.stages[0].params = { failOn: 'gamma' };
    const s = await run(p, cfg);
    assert.equal(s.ok, true);
    const words = rowsOf(p, 'words');
    assert.equal(words.length, 3);
    const bad = words.find((r) => r.path === 'docs/b.txt')!;
    assert.match(String(bad.error), /cannot read docs\/b.txt: it contains gamma/);
    assert.equal(s.stages.find((r) => r.stage === 'words')!.rowsFailed, 1);
    // Downstream, the failed row stays a failure row, naming the upstream stage.
    const loud = rowsOf(p, 'shout').find((r) => r.path === 'docs/b.txt')!;
    assert.match(String(loud.error), /upstream 'words' failed for this row/);

    // A plain rerun reuses the failure; --retry-failed recomputes just that unit.
    const again = await run(p, cfg);
    assert.equal(again.stages.find((r) => r.stage === 'words')!.status, 'reused');
    const before = p.computed().length;
    const retried = await run(p, cfg, { retryFailed: true });
    assert.equal(retried.stages.find((r) => r.stage === 'words')!.rowsComputed, 1);
    assert.deepEqual(p.computed().slice(before), ['words:docs/b.txt']);
  });

  test('rows that do not fit the declared columns fail the stage with a message naming it', async () => {
    const p = makeToyProject();
    writeFileSync(
      join(p.root, 'stages', 'totals.ts'),
      `import { tableStage } from ${JSON.stringify(join(import.meta.dirname, '..', 'stage.ts'))};\nexport default tableStage({ inputs: { words: 'whole' }, columns: { docs: 'INTEGER' }, run() { return [{ docs: 'many' }]; } });\n`,
    );
    const s = await run(p, p.config(), { targets: ['totals'] });
    assert.match(s.stages.find((r) => r.stage === 'totals')!.error!, /stage 'totals': its rows do not fit its declared columns/);
  });
});

describe('storage', () => {
  test('the warehouse has one view per stage and a runs table with provenance', async () => {
    const p = makeToyProject();
    await run(p, p.config());
    await run(p, p.config({ totalsScale: 3 }));
    const w = await openWarehouse(join(p.root, 'data', 'warehouse.duckdb'), join(p.root, 'data', 'store'), { readOnly: true });
    const q = async (sql: string) => (await w.con.runAndReadAll(sql)).getRowObjectsJson();
    assert.deepEqual(await q('select docs, words from totals'), [{ docs: 3, words: 18 }]);
    assert.deepEqual(await q('select count(*)::int as n from words'), [{ n: 3 }]);
    assert.deepEqual(await q('select path from docs order by path'), [
      { path: 'docs/a.txt' },
      { path: 'docs/b.txt' },
      { path: 'docs/c.txt' },
    ]);
    const runs = await q(
      `select stage, status, rows_computed::int as c, rows_reused::int as r from runs where stage in ('words', 'totals') order by run_id, stage`,
    );
    assert.deepEqual(runs, [
      { stage: 'totals', status: 'ran', c: 1, r: 0 },
      { stage: 'words', status: 'ran', c: 3, r: 0 },
      { stage: 'totals', status: 'ran', c: 1, r: 0 },
      { stage: 'words', status: 'reused', c: 0, r: 3 },
    ]);
    w.close();
  });

  test('artifacts are Parquet and NDJSON segments named by content; identical outputs share one artifact', async () => {
    const p = makeToyProject();
    await run(p, p.config());
    const ws = workspaceFor(p.root);
    const first = readLedger(ws.ledger).entries.totals;
    await run(p, p.config({ totalsScale: 2 }));
    assert.notEqual(readLedger(ws.ledger).entries.totals.artifact, first.artifact);
    await run(p, p.config({ totalsScale: 1 }));
    const again = readLedger(ws.ledger).entries.totals;
    assert.equal(again.artifact, first.artifact);
    assert.deepEqual(
      again.segments!.map((x) => x.hash),
      first.segments!.map((x) => x.hash),
    );
    const seg = first.segments![0].hash;
    assert.ok(existsSync(join(ws.store, 'artifacts', 'totals', `${seg}.parquet`)));
    assert.ok(readFileSync(join(ws.store, 'artifacts', 'totals', `${seg}.ndjson`), 'utf8').startsWith('{"docs":3,"words":6}'));
  });
});
