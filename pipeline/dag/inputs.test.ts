// Declared inputs: resolveDag refuses, before anything runs, a binding the module does not
// declare (with the did-you-mean of params), a required input not bound, and a forEach that maps
// over or joins an input the module takes otherwise; an optional input left out reaches the stage
// as no rows, and (under CDP_CHECK_READS=1, as in the suite) reading an undeclared input throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inputProblems, stageInputs } from './inputs.ts';
import { resolveDag, DagConfigError } from './validate.ts';
import { runDag } from '../exec/executor.ts';
import { workspaceFor } from '../exec/workspace.ts';
import { readLedger } from '../store/ledger.ts';
import { readRows } from '../store/artifacts.ts';
import { makeToyProject, type ToyProject } from '../testing/toy-project.ts';
import type { DagConfig, StageDecl } from './define.ts';

const stageTs = JSON.stringify(join(import.meta.dirname, '..', 'stage.ts'));

async function problemsOf(p: ToyProject, config: DagConfig): Promise<string[]> {
  try {
    await resolveDag(config, p.root);
  } catch (err) {
    assert.ok(err instanceof DagConfigError, String(err));
    return err.problems;
  }
  return [];
}

function withStage(p: ToyProject, name: string, edit: (s: StageDecl) => StageDecl): DagConfig {
  const c = p.config();
  return { ...c, stages: c.stages.map((s) => (s.name === name ? edit(s) : s)) };
}

test('a misnamed input is refused by name with the did-you-mean, and the declared one as missing', async () => {
  const p = makeToyProject();
  const renamed = withStage(p, 'totals', (s) => ({ ...s, inputs: { word: 'words' } }));
  assert.deepEqual(await problemsOf(p, renamed), [
    "stage 'totals': input 'word' is not an input of stages/totals.ts (did you mean 'words'?); its inputs: words",
    "stage 'totals': required input 'words' is not given; bind it in dag.config.ts (inputs: { words: '<source or stage>' })",
  ]);
  const removed = withStage(p, 'report', (s) => ({ ...s, inputs: { totals: 'totals' } }));
  assert.deepEqual(await problemsOf(p, removed), [
    "stage 'report': required input 'shout' is not given; bind it in dag.config.ts (inputs: { shout: '<source or stage>' })",
  ]);
  const extra = withStage(p, 'report', (s) => ({ ...s, inputs: { ...s.inputs, docs: 'docs' } }));
  assert.deepEqual(await problemsOf(p, extra), [
    "stage 'report': input 'docs' is not an input of stages/report.ts; its inputs: totals, shout",
  ]);
  assert.deepEqual(p.computed(), [], 'nothing ran');
});

test('forEach maps over the declared driving input and joins exactly the declared joined ones', async () => {
  const p = makeToyProject();
  writeFileSync(
    join(p.root, 'stages', 'pair.ts'),
    `import { rowStage } from ${stageTs};
export default rowStage({
  inputs: { words: 'drives', shout: 'joined', totals: 'whole' },
  columns: { path: 'VARCHAR', loud: 'VARCHAR', docs: 'INTEGER' },
  run({ row, joined, whole }) {
    return { path: row.path, loud: joined.shout[0]?.loud ?? null, docs: whole.totals[0].docs };
  },
});
`,
  );
  const pair = (forEach: StageDecl['forEach']): DagConfig =>
    p.config({
      extraStages: [{ name: 'pair', module: 'stages/pair.ts', inputs: { words: 'words', shout: 'shout', totals: 'totals' }, forEach }],
    });
  assert.deepEqual(await problemsOf(p, pair({ input: 'words', join: { shout: 'path' } })), []);
  assert.deepEqual(await problemsOf(p, pair({ input: 'shout', join: { words: 'path' } })), [
    "stage 'pair' maps over 'shout', which stages/pair.ts declares 'joined', not as its driving input (it drives: words); map over that one",
    "stage 'pair' joins 'words', which stages/pair.ts declares 'drives' (joined inputs: shout); leave it out of forEach.join",
  ]);
  assert.deepEqual(await problemsOf(p, pair({ input: 'words', join: { shout: 'path', totals: 'docs' } })), [
    "stage 'pair' joins 'totals', which stages/pair.ts declares 'whole' (joined inputs: shout); leave it out of forEach.join",
  ]);
  assert.deepEqual(await problemsOf(p, pair('words')), [
    "stage 'pair': stages/pair.ts takes input 'shout' joined to each unit, but forEach.join does not join it; add join: { shout: '<column>' }",
  ]);

  const dag = await resolveDag(pair({ input: 'words', join: { shout: 'path' } }), p.root);
  const s = await runDag(dag, workspaceFor(p.root, {}), { targets: ['pair'] });
  assert.equal(s.ok, true, JSON.stringify(s.stages.filter((x) => x.error)));
  assert.deepEqual(
    rowsOf(p, 'pair').map((r) => [r.path, r.loud, r.docs]),
    [
      ['docs/a.txt', 'ALPHA BETA!', 3],
      ['docs/b.txt', 'GAMMA DELTA EPSILON!', 3],
      ['docs/c.txt', 'ZETA!', 3],
    ],
  );
});

test("a module's own declaration is checked: roles, one driving input, reads of declared inputs", async () => {
  const base = { stage: 's', module: 'stages/s.ts', bound: { a: 'x' } };
  assert.deepEqual(inputProblems({ ...base, kind: 'table', declared: { a: 'drives' } }), [
    "stage 's': stages/s.ts: a tableStage takes its inputs whole, but input 'a' is declared 'drives'; declare it 'whole'",
  ]);
  assert.deepEqual(inputProblems({ ...base, kind: 'row', declared: { a: 'whole' }, forEach: { input: 'a' } }), [
    "stage 's': stages/s.ts: a rowStage declares exactly one driving input ('drives'); it declares none",
  ]);
  assert.deepEqual(inputProblems({ ...base, kind: 'table', declared: { a: 'all' as never } }), [
    "stage 's': stages/s.ts: input 'a' is declared \"all\"; declare it one of 'drives', 'joined', 'whole', 'optional joined', 'optional whole'",
  ]);
  assert.deepEqual(inputProblems({ ...base, kind: 'table', declared: { a: 'whole' }, reads: { b: ['id'] } }), [
    "stage 's': stages/s.ts: its reads name input 'b', which its inputs do not declare",
  ]);
  assert.deepEqual(inputProblems({ ...base, kind: 'table', declared: { a: 'whole' }, partitionBy: ['a', 'c'] }), [
    "stage 's': stages/s.ts: its partition.by names input 'c', which its inputs do not declare",
  ]);
  assert.deepEqual(inputProblems({ ...base, kind: 'table', declared: undefined }), [
    "stage 's': input 'a' is not an input of stages/s.ts; it declares none (add inputs: { … } to the module)",
  ]);
});

test('an optional input the config leaves out reaches the stage as no rows; bound, as its rows', async () => {
  const p = makeToyProject();
  writeFileSync(
    join(p.root, 'stages', 'count.ts'),
    `import { tableStage } from ${stageTs};
export default tableStage({
  inputs: { words: 'whole', extra: 'optional whole' },
  columns: { words: 'INTEGER', extra: 'INTEGER' },
  run({ words, extra }) {
    return [{ words: words.length, extra: extra.length }];
  },
});
`,
  );
  writeFileSync(
    join(p.root, 'stages', 'tagged.ts'),
    `import { rowStage } from ${stageTs};
export default rowStage({
  inputs: { words: 'drives', tags: 'optional joined', notes: 'optional whole' },
  columns: { path: 'VARCHAR', tags: 'INTEGER', notes: 'INTEGER' },
  run({ row, joined, whole }) {
    return { path: row.path, tags: joined.tags.length, notes: whole.notes.length };
  },
});
`,
  );
  const config = (bind: boolean): DagConfig =>
    p.config({
      extraStages: [
        { name: 'count', module: 'stages/count.ts', inputs: { words: 'words', ...(bind ? { extra: 'shout' } : {}) } },
        {
          name: 'tagged',
          module: 'stages/tagged.ts',
          inputs: { words: 'words', ...(bind ? { tags: 'shout', notes: 'docs' } : {}) },
          forEach: bind ? { input: 'words', join: { tags: 'path' } } : 'words',
        },
      ],
    });
  const ws = workspaceFor(p.root, {});
  const run = async (bind: boolean) => {
    const s = await runDag(await resolveDag(config(bind), p.root), ws, { targets: ['count', 'tagged'] });
    assert.equal(s.ok, true, JSON.stringify(s.stages.filter((x) => x.error)));
    return { count: rowsOf(p, 'count'), tagged: rowsOf(p, 'tagged').map((r) => [r.path, r.tags, r.notes]) };
  };
  const without = await run(false);
  assert.deepEqual(without.count, [{ words: 3, extra: 0 }]);
  assert.deepEqual(without.tagged, [
    ['docs/a.txt', 0, 0],
    ['docs/b.txt', 0, 0],
    ['docs/c.txt', 0, 0],
  ]);
  const withIt = await run(true);
  assert.deepEqual(withIt.count, [{ words: 3, extra: 3 }]);
  assert.deepEqual(withIt.tagged, [
    ['docs/a.txt', 1, 3],
    ['docs/b.txt', 1, 3],
    ['docs/c.txt', 1, 3],
  ]);
});

test('a stage that reads an input its module does not declare fails, naming it (CDP_CHECK_READS=1)', async () => {
  assert.equal(process.env.CDP_CHECK_READS, '1', 'the suite runs with CDP_CHECK_READS=1 (scripts/run-tests.mjs)');
  const p = makeToyProject();
  writeFileSync(
    join(p.root, 'stages', 'totals.ts'),
    `import { tableStage } from ${stageTs};
export default tableStage({
  inputs: { words: 'whole' },
  columns: { docs: 'INTEGER' },
  run({ words, shout = [] }) {
    return [{ docs: words.length + shout.length }];
  },
});
`,
  );
  const s = await runDag(await resolveDag(p.config(), p.root), workspaceFor(p.root, {}), { targets: ['totals'] });
  assert.equal(s.stages.find((x) => x.stage === 'totals')!.status, 'failed');
  assert.match(
    s.stages.find((x) => x.stage === 'totals')!.error!,
    /stage 'totals' read input 'shout', which its module does not declare so \(declared: words\); declare it in the module's inputs/,
  );
});

test('stageInputs hands a test what the runner would: optional ones as [], and refuses a missing or undeclared one', () => {
  const declared = { a: 'whole', b: 'optional whole' } as const;
  assert.deepEqual(stageInputs('s', declared, { a: [{ x: 1 }] }), { a: [{ x: 1 }], b: [] });
  assert.throws(() => stageInputs('s', declared, { b: [] }), /^Error: stage 's': required input\(s\) a not given \(declared: a, b\)$/);
  assert.throws(() => stageInputs('s', declared, { a: [], c: [] }), /^Error: stage 's': undeclared input\(s\) c \(declared: a, b\)$/);
});

function rowsOf(p: ToyProject, stage: string): Record<string, unknown>[] {
  const ws = workspaceFor(p.root, {});
  return readRows(ws.store, stage, readLedger(ws.ledger).entries[stage]!.segments!);
}
