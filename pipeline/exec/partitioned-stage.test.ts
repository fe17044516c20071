// A partitioned table stage costs the partitions a change touches: the runner counts partitions
// computed and taken from the memo, the stage's own log says which it computed, and the artifact is
// always what one call over every row gives (the stage's `run` called whole, as a test can).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveDag } from '../dag/validate.ts';
import type { DagConfig, Row } from '../dag/define.ts';
import type { TableStage } from '../dag/stage.ts';
import { runDag, type StageResult } from './executor.ts';
import { workspaceFor } from './workspace.ts';
import { readLedger } from '../store/ledger.ts';
import { readRows } from '../store/artifacts.ts';
import { partitionRows } from './partitions.ts';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../hash/canonical.ts';
import { cleanStore } from '../cli/clean.ts';
import { RowStore } from '../store/row-store.ts';

const pipelineDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 *   numbers.txt ─► seed (g, id, v) ─┬► sums   (partitioned by g; `factor` taken whole)
 *   factor.txt  ─► factor ──────────┘  pooled (partitions 'all' and each g, overlapping)
 */
function project() {
  const root = mkdtempSync(join(tmpdir(), 'cdp-part-'));
  mkdirSync(join(root, 'stages'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  const stageTs = JSON.stringify(join(pipelineDir, 'stage.ts'));
  const log = JSON.stringify(join(root, 'computed.log'));
  const lines = (file: string) =>
    `readFileSync(join(ctx.root, inputs.src[0].path as string), 'utf8').split('\\n').filter(Boolean)`.replace('src', file);
  writeFileSync(
    join(root, 'stages', 'seed.ts'),
    `import { tableStage } from ${stageTs};
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
export default tableStage({
  inputs: { src: 'whole' },
  columns: { g: 'VARCHAR', id: 'INTEGER', v: 'DOUBLE' },
  run(inputs, ctx) {
    return ${lines('src')}.map((l, id) => ({ g: l.split(' ')[0], id, v: Number(l.split(' ')[1]) }));
  },
});
`,
  );
  writeFileSync(
    join(root, 'stages', 'factor.ts'),
    `import { tableStage } from ${stageTs};
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
export default tableStage({
  inputs: { src: 'whole' },
  columns: { k: 'DOUBLE' },
  run(inputs, ctx) { return [{ k: Number(${lines('src')}[0]) }]; },
});
`,
  );
  // Per group: n, the sum scaled by the factor, the mean; rows ordered by group, then statistic.
  writeFileSync(
    join(root, 'stages', 'sums.ts'),
    `import { tableStage, type Row } from ${stageTs};
import { appendFileSync } from 'node:fs';
export default tableStage({
  inputs: { seed: 'whole', factor: 'whole' },
  partition: { by: { seed: ['g'] }, order: (a, b) => (a.g < b.g ? -1 : a.g > b.g ? 1 : 0) },
  columns: { g: 'VARCHAR', stat: 'VARCHAR', value: 'DOUBLE' },
  run({ seed, factor }, ctx) {
    appendFileSync(${log}, 'sums:' + (ctx.partition ?? 'whole') + '\\n');
    const k = factor[0].k as number;
    const groups = [...new Set(seed.map((r) => r.g as string))].sort();
    return groups.flatMap((g) => {
      const vs = seed.filter((r) => r.g === g).map((r) => r.v as number);
      const sum = vs.reduce((a, b) => a + b, 0);
      return [{ g, stat: 'n', value: vs.length }, { g, stat: 'sum', value: k * sum }, { g, stat: 'mean', value: sum / vs.length }];
    });
  },
});
`,
  );
  // A statistic over the pool and over each group: the pool's partition holds every row.
  writeFileSync(
    join(root, 'stages', 'pooled.ts'),
    `import { tableStage } from ${stageTs};
import { appendFileSync } from 'node:fs';
export default tableStage({
  inputs: { seed: 'whole' },
  partition: { by: { seed: (r) => ['all', String(r.g)] }, order: (a, b) => (a.group === 'all' ? 0 : 1) - (b.group === 'all' ? 0 : 1) || (a.group < b.group ? -1 : a.group > b.group ? 1 : 0) },
  columns: { group: 'VARCHAR', max: 'DOUBLE' },
  run({ seed }, ctx) {
    appendFileSync(${log}, 'pooled:' + (ctx.partition ?? 'whole') + '\\n');
    const groups = ctx.partition !== undefined ? [ctx.partition] : ['all', ...new Set(seed.map((r) => String(r.g)))].sort((a, b) => (a === 'all' ? -1 : b === 'all' ? 1 : a < b ? -1 : 1));
    return groups.map((group) => ({ group, max: Math.max(...seed.filter((r) => group === 'all' || r.g === group).map((r) => r.v as number)) }));
  },
});
`,
  );
  const config: DagConfig = {
    sources: { src: { kind: 'files', patterns: ['numbers.txt'] }, fsrc: { kind: 'files', patterns: ['factor.txt'] } },
    stages: [
      { name: 'seed', module: 'stages/seed.ts', inputs: { src: 'src' } },
      { name: 'factor', module: 'stages/factor.ts', inputs: { src: 'fsrc' } },
      { name: 'sums', module: 'stages/sums.ts', inputs: { seed: 'seed', factor: 'factor' } },
      { name: 'pooled', module: 'stages/pooled.ts', inputs: { seed: 'seed' } },
    ],
  };
  const data = { numbers: [] as string[] };
  const groups = ['a', 'b', 'c', 'd', 'e'];
  for (let i = 0; i < 200; i++) data.numbers.push(`${groups[i % 5]} ${(i * 37) % 101}`);
  const write = () => writeFileSync(join(root, 'numbers.txt'), data.numbers.join('\n') + '\n');
  write();
  writeFileSync(join(root, 'factor.txt'), '2\n');
  return { root, config, data, write };
}

type P = ReturnType<typeof project>;

async function run(p: P, opts: { force?: boolean } = {}): Promise<Record<string, StageResult>> {
  rmSync(join(p.root, 'computed.log'), { force: true });
  const s = await runDag(await resolveDag(p.config, p.root), workspaceFor(p.root), opts);
  assert.equal(s.ok, true, JSON.stringify(s.stages.filter((x) => x.error)));
  return Object.fromEntries(s.stages.map((x) => [x.stage, x]));
}

function computed(p: P): string[] {
  try {
    return readFileSync(join(p.root, 'computed.log'), 'utf8').split('\n').filter(Boolean).sort();
  } catch {
    return [];
  }
}

function rows(p: P, stage: string): Row[] {
  const ws = workspaceFor(p.root);
  return readRows(ws.store, stage, readLedger(ws.ledger).entries[stage].segments!);
}

/** What the stage's own run gives over every row at once: the artifact must be exactly this. */
async function whole(p: P, stage: string, inputs: Record<string, Row[]>): Promise<Row[]> {
  const impl = ((await import(join(p.root, 'stages', `${stage}.ts`))) as { default: TableStage }).default;
  const ctx = { stage, params: {}, root: p.root, log: () => {}, signal: new AbortController().signal, persist: false } as never;
  return JSON.parse(JSON.stringify(await impl.run(inputs, ctx))) as Row[];
}

async function assertWhole(p: P): Promise<void> {
  assert.deepEqual(rows(p, 'sums'), await whole(p, 'sums', { seed: rows(p, 'seed'), factor: rows(p, 'factor') }));
  assert.deepEqual(rows(p, 'pooled'), await whole(p, 'pooled', { seed: rows(p, 'seed') }));
}

test('a partitioned stage computes only the partitions whose rows changed, and its artifact is the whole run’s', async () => {
  const p = project();
  try {
    const first = await run(p);
    assert.deepEqual(first.sums.partitions, { computed: 5, reused: 0 });
    assert.deepEqual(first.pooled.partitions, { computed: 6, reused: 0 });
    assert.equal(first.sums.rowsComputed, 15);
    await assertWhole(p);
    assert.deepEqual(
      rows(p, 'sums').filter((r) => r.g === 'a'),
      [
        // Group a: rows 0, 5, …, 195: v = (37 i) mod 101; 40 of them, summed by hand below.
        { g: 'a', stat: 'n', value: 40 },
        { g: 'a', stat: 'sum', value: 2 * sumA(p) },
        { g: 'a', stat: 'mean', value: sumA(p) / 40 },
      ],
    );

    // One row of group b changes: b's partition, and the pool, are computed; the others are taken up.
    p.data.numbers[1] = 'b 1000';
    p.write();
    const second = await run(p);
    assert.deepEqual(second.sums.partitions, { computed: 1, reused: 4 });
    assert.deepEqual(second.pooled.partitions, { computed: 2, reused: 4 });
    assert.deepEqual(computed(p), ['pooled:all', 'pooled:b', 'sums:["b"]']);
    assert.equal(second.sums.rowsComputed, 3);
    assert.equal(second.sums.rowsReused, 12);
    await assertWhole(p);

    // A new group: its partition alone (and the pool); then removed again: every partition is the
    // first run's once more, so all of them come from the memo and nothing is computed.
    const before = [...p.data.numbers];
    p.data.numbers.push('f 3', 'f 4');
    p.write();
    const third = await run(p);
    assert.deepEqual(third.sums.partitions, { computed: 1, reused: 5 });
    assert.deepEqual(computed(p), ['pooled:all', 'pooled:f', 'sums:["f"]']);
    await assertWhole(p);
    p.data.numbers = before;
    p.write();
    const fourth = await run(p);
    assert.deepEqual(fourth.sums.partitions, { computed: 0, reused: 5 });
    assert.deepEqual(fourth.pooled.partitions, { computed: 0, reused: 6 });
    assert.deepEqual(computed(p), []);
    await assertWhole(p);

    // `cdp clean` keeps the partitions the artifact was made of (the ledger lists them) and drops
    // the others (b's and f's changed partitions); a rerun then computes nothing.
    const ws = workspaceFor(p.root);
    const current = readLedger(ws.ledger).entries.sums!.partitionKeys!;
    assert.equal(current.length, 5);
    const cleaned = await cleanStore(ws);
    assert.ok(cleaned.unitsDropped >= 2, `dropped ${cleaned.unitsDropped} partitions no artifact holds`);
    const memo = new RowStore(join(ws.store, 'units', 'sums')).load();
    assert.deepEqual([...memo.keys()].sort(), [...current].sort());
    memo.close();

    // The input taken whole is in every partition's key: a new factor recomputes each sums partition.
    writeFileSync(join(p.root, 'factor.txt'), '3\n');
    const fifth = await run(p);
    assert.deepEqual(fifth.sums.partitions, { computed: 5, reused: 0 });
    assert.equal(fifth.pooled.status, 'reused');
    await assertWhole(p);

    // --force computes every partition again.
    const forced = await run(p, { force: true });
    assert.deepEqual(forced.sums.partitions, { computed: 5, reused: 0 });
    assert.deepEqual(forced.pooled.partitions, { computed: 6, reused: 0 });
  } finally {
    rmSync(p.root, { recursive: true, force: true });
  }
});

function sumA(p: P): number {
  let s = 0;
  p.data.numbers.forEach((l, i) => {
    if (i % 5 === 0) s += (i * 37) % 101;
  });
  return s;
}

test('partitionRows: one key or several per row, rows in input order, the content hash sees every row and its input', () => {
  const rows = [
    { g: 'x', v: 1 },
    { g: 'y', v: 2 },
    { g: 'x', v: 3 },
  ];
  const parts = partitionRows('t', { a: ['g'], b: (r: Row) => ['all', String(r.g)] }, { a: rows, b: rows.slice(0, 1) }, {});
  assert.deepEqual(
    parts.map((p) => [p.key, p.rows.a!.map((r) => r.v), p.rows.b!.map((r) => r.v)]),
    [
      ['["x"]', [1, 3], []],
      ['["y"]', [2], []],
      ['all', [], [1]],
      ['x', [], [1]],
    ],
  );
  const again = partitionRows('t', { a: ['g'] }, { a: [rows[0]!, rows[1]!, { g: 'x', v: 4 }] }, {});
  const before = partitionRows('t', { a: ['g'] }, { a: rows }, {});
  assert.notEqual(again[0]!.content, before[0]!.content, 'a changed row changes its partition’s hash');
  assert.equal(again[1]!.content, before[1]!.content, 'and no other');
  const swapped = partitionRows('t', { a: ['g'] }, { a: [rows[2]!, rows[1]!, rows[0]!] }, {});
  assert.notEqual(swapped[0]!.content, before[0]!.content, 'order is content: a stage may depend on it');
  assert.throws(() => partitionRows('t', { missing: ['g'] }, { a: rows }, {}), /names input 'missing'/);
});

test('a partition’s content hash is sha256 over its columns’ (or, without reads, its rows’) canonical JSON, whatever shortcut writes it', () => {
  // Plain values (the native writer's), and values only the canonical writer handles alike.
  const rows: Row[] = [
    { g: 'x', s: 'é "q" \\ \n \u2028 😀', n: -0, m: 0.1, big: 1e21, t: true, z: null, list: ['a', 'b'], nested: { b: 1, a: 2 } },
    { g: 'x', s: '', n: 7, m: -1.5e-7, big: 2 ** 53, t: false, list: [], nested: [{ d: 1, c: [1, { f: 2, e: 3 }] }] },
    { g: 'x', s: 'x', n: 1, m: 2, big: 3, t: true, z: 'y', list: ['c', 1, null], nested: new Date(0) as unknown as Row },
  ];
  const cases: Record<string, string[]>[] = [{ a: ['s', 'n', 'm', 'big', 't', 'z', 'list'] }, { a: ['nested', 'g', 'list'] }, {}];
  for (const reads of cases) {
    const [part] = partitionRows('t', { a: ['g'] }, { a: rows }, {}, reads);
    const columns = reads.a ? [...reads.a].sort() : null;
    const h = createHash('sha256').update(`cdp-partition-v2\n${JSON.stringify('["x"]')}\n"a":3\n`);
    if (columns) for (const c of columns) h.update(canonicalJson(rows.map((r) => r[c] ?? null)) + '\n');
    else for (const r of rows) h.update(canonicalJson(r) + '\n');
    assert.equal(part!.content, h.digest('hex'), JSON.stringify(reads));
  }
});
