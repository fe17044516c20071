import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRows } from '../store/artifacts.ts';
import { z } from 'zod';
import { closestName, resolveParams } from './params.ts';
import { resolveDag, DagConfigError } from './validate.ts';
import { makeToyProject, type ToyProject } from '../testing/toy-project.ts';
import { runDag } from '../exec/executor.ts';
import { workspaceFor } from '../exec/workspace.ts';
import { readLedger } from '../store/ledger.ts';
import type { DagConfig } from './define.ts';

const declared = {
  models: z.array(z.string()),
  simulated: z.array(z.string()).optional(),
  capFactor: z.number().min(0).max(20).default(2),
  capExtra: z.number().min(0).default(4),
};

test('the config overrides the declared defaults; an undefined value counts as not given', () => {
  const r = resolveParams('dialogues_multi', declared, { models: ['m'], capFactor: 3, capExtra: undefined });
  assert.deepEqual(r, { params: { capFactor: 3, capExtra: 4, models: ['m'] }, problems: [] });
  // An optional param without a default is known but stays absent unless given.
  assert.equal('simulated' in r.params, false);
  assert.deepEqual(resolveParams('x', declared, { models: [], simulated: ['s'] }).params.simulated, ['s']);
});

test('an unknown param names the stage, the param, the likely intended one and the known ones', () => {
  const r = resolveParams('dialogues_multi', declared, { models: ['m'], capFactr: 3 });
  assert.deepEqual(r.problems, [
    "stage 'dialogues_multi': unknown param 'capFactr' (did you mean 'capFactor'?); known: models, simulated, capFactor, capExtra",
  ]);
  assert.deepEqual(resolveParams('qc_summary', {}, { seed: 1 }).problems, [
    "stage 'qc_summary': unknown param 'seed'; known: none (the stage takes no params)",
  ]);
});

test('a required param the config does not give is refused, saying where to give it', () => {
  assert.deepEqual(resolveParams('dialogues_multi', declared, {}).problems, [
    "stage 'dialogues_multi': param 'models' (a list of strings) has no default; give it in dag.config.ts (params: { models: … })",
  ]);
});

test('a stage module that declares no params gets the config values unchecked', () => {
  assert.deepEqual(resolveParams('toy', undefined, { anything: 1, gone: undefined }), { params: { anything: 1 }, problems: [] });
});

test('closestName suggests within a third of the word, case differences always, else nothing', () => {
  assert.equal(closestName('capFactr', ['capExtra', 'capFactor']), 'capFactor');
  assert.equal(closestName('MAXREASKS', ['runs', 'maxReasks']), 'maxReasks');
  assert.equal(closestName('temperature', ['runs', 'maxReasks']), null);
  assert.equal(closestName('rns', ['runs']), 'runs');
});

test('resolveDag refuses an unknown param before anything runs', async () => {
  const p = makeToyProject();
  const config = p.config();
  config.stages.find((s) => s.name === 'totals')!.params = { scael: 2 };
  await assert.rejects(resolveDag(config, p.root), (err: unknown) => {
    assert.ok(err instanceof DagConfigError);
    assert.deepEqual(err.problems, ["stage 'totals': unknown param 'scael' (did you mean 'scale'?); known: scale"]);
    return true;
  });
  assert.equal(p.computed().length, 0);
});

async function run(p: ToyProject, config: DagConfig) {
  const dag = await resolveDag(config, p.root);
  return runDag(dag, workspaceFor(p.root, config), {});
}
const statusOf = (s: Awaited<ReturnType<typeof run>>, stage: string) => s.stages.find((r) => r.stage === stage)!;
const withoutTotalsParams = (p: ToyProject): DagConfig => {
  const c = p.config();
  delete c.stages.find((s) => s.name === 'totals')!.params;
  return c;
};

test('a default enters the key: omitting a param is the same key as giving its default', async () => {
  const p = makeToyProject();
  await run(p, p.config({ totalsScale: 1 }));
  const keyGiven = readLedger(workspaceFor(p.root, {}).ledger).entries.totals!.key;
  const s = await run(p, withoutTotalsParams(p));
  assert.equal(statusOf(s, 'totals').status, 'reused');
  const entry = readLedger(workspaceFor(p.root, {}).ledger).entries.totals!;
  assert.equal(entry.key, keyGiven);
  assert.deepEqual(entry.components?.params.value, { scale: 1 });
});

// In fresh processes, as a user edits a stage module between two `cdp run`s (a process imports a
// module once, so an in-process rerun would still see the old default).
test('changing a default reruns the stage with the new value, and names the param', () => {
  const p = makeToyProject();
  const cdpBin = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'cdp.mjs');
  const runJson = () => {
    const r = spawnSync(process.execPath, [cdpBin, 'run', '--json'], {
      cwd: p.root,
      encoding: 'utf8',
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    assert.ok(r.stdout.trim(), `cdp run printed nothing; stderr: ${r.stderr}`);
    return JSON.parse(r.stdout) as { stages: { stage: string; status: string; reasons?: string[] }[] };
  };
  const config = withoutTotalsParams(p);
  writeFileSync(
    join(p.root, 'dag.config.ts'),
    `import { defineDag } from ${JSON.stringify(join(dirname(fileURLToPath(import.meta.url)), '..', 'index.ts'))};
export default defineDag(${JSON.stringify(config)});\n`,
  );
  assert.equal(runJson().stages.find((s) => s.stage === 'totals')!.status, 'ran');
  const totals = join(p.root, 'stages', 'totals.ts');
  writeFileSync(totals, readFileSync(totals, 'utf8').replace('z.number().default(1)', 'z.number().default(10)'));
  const second = runJson().stages;
  const t = second.find((s) => s.stage === 'totals')!;
  assert.equal(t.status, 'ran');
  assert.equal(t.reasons?.[0], 'params changed: scale', `reasons: ${JSON.stringify(t.reasons)}`);
  assert.equal(second.find((s) => s.stage === 'words')!.status, 'reused');
  const entry = readLedger(workspaceFor(p.root, {}).ledger).entries.totals!;
  assert.deepEqual(entry.components?.params.value, { scale: 10 });
  assert.deepEqual(rowsOf(p, 'totals'), [{ docs: 3, words: 60 }]);
});

function rowsOf(p: ToyProject, stage: string): Record<string, unknown>[] {
  const e = readLedger(workspaceFor(p.root, {}).ledger).entries[stage]!;
  return readRows(workspaceFor(p.root, {}).store, stage, e.segments!);
}
