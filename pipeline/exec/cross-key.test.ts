// A crossed param (one unit per row × element, as the task stages cross their models) keys the
// stage by its elements but each unit by its own element only: adding an element reruns the stage
// and computes that element's units alone; removing one computes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeToyProject, type ToyProject } from '../testing/toy-project.ts';
import { resolveDag } from '../dag/validate.ts';
import { parseOverrides } from '../dag/overrides.ts';
import { runDag } from './executor.ts';
import { workspaceFor } from './workspace.ts';
import { readLedger } from '../store/ledger.ts';
import { readRows } from '../store/artifacts.ts';
import type { DagConfig } from '../dag/define.ts';

const stageImport = JSON.stringify(join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'stage.ts'));

function project(): { p: ToyProject; config: (models: string[]) => DagConfig } {
  const p = makeToyProject();
  writeFileSync(
    join(p.root, 'stages', 'tag.ts'),
    `import { rowStage, z } from ${stageImport};
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
export default rowStage<{ models: string[] }>({
  inputs: { words: 'drives' },
  params: { models: z.array(z.string()) },
  columns: { path: 'VARCHAR', model: 'VARCHAR' },
  run({ row, cross }, ctx) {
    appendFileSync(join(ctx.root, 'compute.log'), 'tag:' + row.path + ':' + cross + '\\n');
    return { path: row.path, model: cross };
  },
});
`,
  );
  const config = (models: string[]) =>
    p.config({
      extraStages: [
        {
          name: 'tag',
          module: 'stages/tag.ts',
          inputs: { words: 'words' },
          forEach: { input: 'words', cross: { param: 'models', as: 'model' } },
          params: { models },
        },
      ],
    });
  return { p, config };
}

test('adding an element of a crossed param reruns the stage and computes only its units; removing one computes none', async () => {
  const { p, config } = project();
  const ws = workspaceFor(p.root, {});
  const run = async (models: string[], o: { dryRun?: boolean; set?: string[] } = {}) => {
    const dag = await resolveDag(config(models), p.root, { overrides: parseOverrides(o.set) });
    return (await runDag(dag, ws, { dryRun: o.dryRun })).stages.find((s) => s.stage === 'tag')!;
  };
  const tagged = () => p.computed().filter((l) => l.startsWith('tag:'));
  const rows = () =>
    readRows(ws.store, 'tag', readLedger(ws.ledger).entries.tag!.segments!)
      .map((r) => `${String(r.model)} ${String(r.path)}`)
      .sort();

  assert.equal((await run(['m1'])).rowsComputed, 3);
  assert.deepEqual(await run(['m1']).then((s) => s.status), 'reused');

  const dry = await run(['m1', 'm2'], { dryRun: true });
  assert.equal(dry.status, 'would-run');
  assert.deepEqual(dry.reasons, ["crossed param 'models': added m2"]);

  const added = await run(['m1', 'm2']);
  assert.equal(added.status, 'ran');
  assert.deepEqual(added.reasons, ["crossed param 'models': added m2"]);
  assert.equal(added.rowsComputed, 3, "only m2's units");
  assert.equal(added.rowsReused, 3);
  assert.deepEqual(tagged().slice(3).sort(), ['tag:docs/a.txt:m2', 'tag:docs/b.txt:m2', 'tag:docs/c.txt:m2']);
  assert.equal(rows().length, 6);

  const removed = await run(['m2']);
  assert.equal(removed.status, 'ran');
  assert.deepEqual(removed.reasons, ["crossed param 'models': removed m1"]);
  assert.equal(removed.rowsComputed, 0);
  assert.deepEqual(rows(), ['m2 docs/a.txt', 'm2 docs/b.txt', 'm2 docs/c.txt']);
  assert.equal(tagged().length, 6, 'nothing computed again');

  // The same list given by --set keys the stage as the config's: reused.
  assert.equal((await run(['m1'], { set: ['tag.models=["m2"]'] })).status, 'reused');
  // Reordering the elements changes no unit, but the stage's key (the artifact's row order follows the list).
  const reordered = await run(['m3', 'm2']);
  assert.equal(reordered.rowsComputed, 3);
  assert.deepEqual(reordered.reasons, ["crossed param 'models': added m3"]);
});

test("an element's own settings key its units: changing one member of one element reruns that element's units, and the reason names it", async () => {
  const p = makeToyProject();
  writeFileSync(
    join(p.root, 'stages', 'weigh.ts'),
    `import { rowStage, z } from ${stageImport};
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
type El = { name: string; settings: Record<string, number> };
const el = z.object({ name: z.string(), settings: z.record(z.string(), z.number()) });
export default rowStage<{ items: El[]; helper: El }>({
  inputs: { words: 'drives' },
  params: { items: z.array(el), helper: el },
  columns: { path: 'VARCHAR', item: 'VARCHAR', w: 'DOUBLE' },
  run({ row, cross }, ctx) {
    const el = cross as El;
    appendFileSync(join(ctx.root, 'compute.log'), 'weigh:' + row.path + ':' + el.name + '\\n');
    return { path: row.path, item: el.name, w: el.settings.weight * ctx.params.helper.settings.scale };
  },
});
`,
  );
  const ws = workspaceFor(p.root, {});
  const el = (name: string, weight: number, extra: Record<string, number> = {}) => ({ name, settings: { weight, ...extra } });
  const run = async (items: unknown[], helper: unknown, dryRun = false) => {
    const config = p.config({
      extraStages: [
        {
          name: 'weigh',
          module: 'stages/weigh.ts',
          inputs: { words: 'words' },
          forEach: { input: 'words', cross: { param: 'items', as: 'item' } },
          params: { items, helper },
        },
      ],
    });
    return (await runDag(await resolveDag(config, p.root), ws, { dryRun })).stages.find((s) => s.stage === 'weigh')!;
  };
  const weighed = () => p.computed().filter((l) => l.startsWith('weigh:'));
  const h1 = { name: 'h', settings: { scale: 1 } };
  assert.equal((await run([el('a', 1), el('b', 2)], h1)).rowsComputed, 6);

  const dry = await run([el('a', 1), el('b', 3, { bias: 0 })], h1, true);
  assert.deepEqual(dry.reasons, ["crossed param 'items': b changed: settings.bias, settings.weight"]);
  const changed = await run([el('a', 1), el('b', 3, { bias: 0 })], h1);
  assert.deepEqual([changed.rowsComputed, changed.rowsReused], [3, 3], "only b's units");
  assert.deepEqual(
    weighed()
      .slice(6)
      .map((l) => l.split(':')[2]),
    ['b', 'b', 'b'],
  );

  // A non-crossed param shared by every unit: all of them rerun, and the reason says which member changed.
  const rescaled = await run([el('a', 1), el('b', 3, { bias: 0 })], { name: 'h', settings: { scale: 2 } });
  assert.deepEqual(rescaled.reasons, ['params changed: helper (h changed: settings.scale)']);
  assert.equal(rescaled.rowsComputed, 6);
  const swapped = await run([el('a', 1), el('b', 3, { bias: 0 }), el('c', 1)], { name: 'h2', settings: { scale: 2 } }, true);
  assert.deepEqual(swapped.reasons, ['params changed: helper (h → h2)', "crossed param 'items': added c"]);
});
