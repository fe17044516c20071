// What a table stage that declares `reads` is handed: only its columns' members (from the store:
// segment-projections.test.ts); rows shared with the other stages reading the same input; under CDP_CHECK_READS=1 a row
// that throws on an undeclared read or on any write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkReads, projectRows, rowsForStage, type ProjectionInput } from './projected-rows.ts';
import { resolveDag } from '../dag/validate.ts';
import type { DagConfig } from '../dag/define.ts';
import { runDag } from './executor.ts';
import { workspaceFor } from './workspace.ts';
import { readLedger } from '../store/ledger.ts';
import { readRows } from '../store/artifacts.ts';
import { projectionPath } from '../store/segment-projections.ts';
import { cleanStore } from '../cli/clean.ts';

const pipelineDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const rows = [
  { id: 1, name: 'a', text: 'long, {"nested"}', v: [1, 2] },
  { id: 2, name: 'b', text: '', v: [] },
];
const input: ProjectionInput = {
  from: 'wide',
  columns: { id: 'INTEGER', name: 'VARCHAR', text: 'VARCHAR', v: 'INTEGER[]' },
  rows: () => rows,
};

/** Runs `f` with CDP_CHECK_READS set to `value` (or unset), restoring it after. */
function withCheck<T>(value: string | undefined, f: () => T): T {
  const before = process.env.CDP_CHECK_READS;
  if (value === undefined) delete process.env.CDP_CHECK_READS;
  else process.env.CDP_CHECK_READS = value;
  try {
    return f();
  } finally {
    if (before === undefined) delete process.env.CDP_CHECK_READS;
    else process.env.CDP_CHECK_READS = before;
  }
}

test('a column the input does not declare is an error naming the stage, the input and what it declares', () => {
  assert.throws(
    () => checkReads('summary', 'metrics', input, ['id', 'scroe', 'dtw']),
    /stage 'summary' reads columns 'scroe', 'dtw' of input 'metrics' \(wide\), which 'wide' does not declare \(declared: id, name, text, v\)/,
  );
  checkReads('summary', 'metrics', input, ['id', 'v']);
});

test('projectRows picks the members asked for, and only those', () => {
  assert.deepEqual(projectRows(input, ['v', 'id']), [
    { id: 1, v: [1, 2] },
    { id: 2, v: [] },
  ]);
  assert.deepEqual(projectRows(input, new Set(['name', 'absent'])), [{ name: 'a' }, { name: 'b' }]);
});

test('without the check a stage gets its own array of the shared rows; with it, rows that refuse undeclared reads and writes', () => {
  const shared = projectRows(input, ['id', 'name', 'v']);
  const plain = withCheck(undefined, () => rowsForStage('s', 'metrics', input, ['id'], shared));
  assert.notEqual(plain, shared);
  assert.equal(plain[0], shared[0]);
  const guarded = withCheck('1', () => rowsForStage('s', 'metrics', input, ['id'], shared));
  assert.equal(guarded[1]!.id, 2);
  assert.throws(
    () => guarded[0]!.name,
    /stage 's' read column 'name' of input 'metrics', which its `reads` does not declare: add it there/,
  );
  assert.throws(() => 'v' in guarded[0]!, /stage 's' asked for column 'v' of input 'metrics'/);
  assert.throws(() => (guarded[0]!.id = 9), /stage 's' wrote 'id' on a row of input 'metrics': input rows are shared, copy the row first/);
  assert.throws(() => delete guarded[0]!.id, /deleted 'id' from a row of input 'metrics'/);
  assert.equal(shared[0]!.id, 1, 'the shared row is untouched');
  assert.equal('undeclared' in guarded[0]!, false, 'a name the input does not have is simply absent');
});

/** A project whose seed stage lists numbers.txt and two table stages read columns of it (count, values). */
function project(): { root: string; config: DagConfig } {
  const root = mkdtempSync(join(tmpdir(), 'cdp-proj-'));
  mkdirSync(join(root, 'stages'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(root, 'numbers.txt'), Array.from({ length: 50 }, (_, i) => i * 3).join('\n') + '\n');
  const stageTs = JSON.stringify(join(pipelineDir, 'stage.ts'));
  writeFileSync(
    join(root, 'stages', 'seed.ts'),
    `import { tableStage } from ${stageTs};
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
export default tableStage({
  inputs: { src: 'whole' },
  columns: { id: 'INTEGER', v: 'BIGINT', note: 'VARCHAR' },
  run(inputs, ctx) {
    return readFileSync(join(ctx.root, inputs.src[0].path as string), 'utf8').split('\\n').filter(Boolean)
      .map((l, id) => ({ id, v: Number(l), note: 'n' + id }));
  },
});
`,
  );
  // count reads id and note; values reads id and v: the rows they share carry all three, and values
  // still cannot see note.
  writeFileSync(
    join(root, 'stages', 'count.ts'),
    `import { tableStage } from ${stageTs};
export default tableStage({
  inputs: { seed: 'whole' },
  reads: { seed: ['id', 'note'] },
  columns: { n: 'INTEGER', ids: 'BIGINT', last: 'VARCHAR' },
  run({ seed }) {
    return [{ n: seed.length, ids: seed.reduce((s, r) => s + (r.id as number), 0), last: String(seed.at(-1).note) }];
  },
});
`,
  );
  writeFileSync(
    join(root, 'stages', 'values.ts'),
    `import { tableStage } from ${stageTs};
export default tableStage({
  inputs: { seed: 'whole' },
  reads: { seed: ['id', 'v'] },
  columns: { total: 'BIGINT', sees_note: 'VARCHAR' },
  run({ seed }) {
    let sees = 'no';
    try {
      sees = String(seed[0].note);
    } catch (err) {
      sees = (err as Error).message;
    }
    return [{ total: seed.reduce((s, r) => s + (r.v as number), 0), sees_note: sees }];
  },
});
`,
  );
  const config: DagConfig = {
    sources: { src: { kind: 'files', patterns: ['numbers.txt'] } },
    stages: [
      { name: 'seed', module: 'stages/seed.ts', inputs: { src: 'src' } },
      { name: 'count', module: 'stages/count.ts', inputs: { seed: 'seed' } },
      { name: 'values', module: 'stages/values.ts', inputs: { seed: 'seed' } },
    ],
  };
  return { root, config };
}

test('two table stages reading one input share its projection, each sees its own declared columns only', async () => {
  const { root, config } = project();
  const dag = await resolveDag(config, root);
  const before = process.env.CDP_CHECK_READS;
  process.env.CDP_CHECK_READS = '1';
  const s = await runDag(dag, workspaceFor(root)).finally(() => {
    if (before === undefined) delete process.env.CDP_CHECK_READS;
    else process.env.CDP_CHECK_READS = before;
  });
  assert.equal(s.ok, true, JSON.stringify(s.stages.filter((x) => x.error)));
  const ws = workspaceFor(root);
  const ledger = readLedger(ws.ledger);
  const out = (stage: string) => readRows(ws.store, stage, ledger.entries[stage].segments!);
  assert.deepEqual(out('count'), [{ n: 50, ids: (49 * 50) / 2, last: 'n49' }]);
  const [values] = out('values');
  assert.equal(values!.total, 3 * ((49 * 50) / 2));
  assert.match(String(values!.sees_note), /stage 'values' read column 'note' of input 'seed', which its `reads` does not declare/);
});

test("an input's projection is kept beside its segment, read by the next run, and dropped by cdp clean with the segment", async () => {
  const { root, config } = project();
  const ws = workspaceFor(root);
  const run = async () => {
    const s = await runDag(await resolveDag(config, root), ws);
    assert.equal(s.ok, true, JSON.stringify(s.stages.filter((x) => x.error)));
    const ledger = readLedger(ws.ledger);
    return { seed: ledger.entries.seed.segments!.map((g) => g.hash), count: readRows(ws.store, 'count', ledger.entries.count.segments!) };
  };
  const projections = () => readdirSync(join(ws.store, 'artifacts', 'seed')).filter((f) => f.includes('.cols-'));
  const first = await run();
  // One projection of the columns both stages read, named after the segment it projects.
  assert.deepEqual(projections(), [basename(projectionPath(ws.store, 'seed', first.seed[0]!, ['id', 'note', 'v']))]);
  // Another number: a new segment, projected when read; the counts follow the new rows.
  writeFileSync(join(root, 'numbers.txt'), Array.from({ length: 51 }, (_, i) => i * 3).join('\n') + '\n');
  const second = await run();
  assert.notDeepEqual(second.seed, first.seed);
  assert.deepEqual(second.count, [{ n: 51, ids: (50 * 51) / 2, last: 'n50' }]);
  assert.equal(projections().length, 2);
  await cleanStore(ws);
  assert.deepEqual(projections(), [basename(projectionPath(ws.store, 'seed', second.seed[0]!, ['id', 'note', 'v']))]);
});
