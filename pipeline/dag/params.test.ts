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

// Each bad value as `--set` or dag.config.ts would give it, refused with the allowed values in words.
const BAD_VALUES: [string, z.ZodType, unknown, string][] = [
  ['cutoff', z.int().min(1).max(5).default(4), 'abc', 'must be an integer from 1 to 5, got "abc"'],
  ['cutoff', z.int().min(1).max(5).default(4), -1, 'must be an integer from 1 to 5, got -1'],
  ['cutoff', z.int().min(1).max(5).default(4), 3.5, 'must be an integer from 1 to 5, got 3.5'],
  ['runs', z.int().min(1).max(100).default(5), 0, 'must be an integer from 1 to 100, got 0'],
  ['runs', z.int().min(1).max(100).default(5), 1e9, 'must be an integer from 1 to 100, got 1000000000'],
  ['maxReasks', z.int().min(0).default(2), '2', 'must be an integer ≥ 0, got "2"'],
  ['lambda', z.number().gt(0).default(0.1), 0, 'must be a number > 0, got 0'],
  ['level', z.number().gt(0).lt(1).default(0.95), 1, 'must be a number > 0 and < 1, got 1'],
  ['raterNoise', z.number().min(0).max(1).default(0.1), 1.5, 'must be a number from 0 to 1, got 1.5'],
  ['tauA', z.union([z.number().gt(0), z.literal(Infinity)]).default(1), -2, 'must be a number > 0 or Infinity, got -2'],
  ['failurePolicy', z.enum(['worst', 'exclude']).default('worst'), 'worse', `must be one of 'worst', 'exclude', got "worse"`],
  ['commonCases', z.boolean().default(false), 'yes', 'must be true or false, got "yes"'],
  ['limit', z.int().min(1).nullable().default(null), 0, 'must be an integer ≥ 1 or null, got 0'],
  ['simulatedPatient', z.string().min(1).optional(), '', 'must be a non-empty string, got ""'],
  [
    'judges',
    z.array(z.string()),
    ['a', 3],
    'must be a list of strings, got ["a",3] (ORIGIN); at judges.1: Invalid input: expected string, received number',
  ],
  [
    'judges',
    z
      .array(z.string())
      .min(1)
      .refine((j) => new Set(j).size === j.length, 'judges must be distinct'),
    ['a', 'a'],
    'must be a non-empty list of strings, got ["a","a"] (ORIGIN); judges must be distinct',
  ],
  [
    'calibration',
    z.record(z.string(), z.object({ gamma: z.number().gt(0).max(1), beta: z.number().min(0) })).default({}),
    { j: { gamma: 2, beta: 0 } },
    'must be an object whose values are each an object {gamma: a number > 0 and ≤ 1, beta: a number ≥ 0}, got {"j":{"gamma":2,"beta":0}} (ORIGIN); at calibration.j.gamma: Too big: expected number to be <=1',
  ],
];

test('a value outside its type or range is refused, naming the stage, the param, the allowed values and where it came from', () => {
  for (const [name, schema, value, message] of BAD_VALUES) {
    for (const origin of [`--set s.${name}=${String(value)}`, 'dag.config.ts']) {
      const r = resolveParams('s', { [name]: schema }, { [name]: value }, { origin: () => origin });
      const full = message.includes('(ORIGIN)') ? message.replace('ORIGIN', `from ${origin}`) : `${message} (from ${origin})`;
      assert.deepEqual(r.problems, [`stage 's': param '${name}' ${full}`], `${name} = ${JSON.stringify(value)}`);
    }
  }
  // Without an origin the value is the config's.
  assert.deepEqual(resolveParams('s', { runs: z.int().min(1).default(5) }, { runs: 0 }).problems, [
    "stage 's': param 'runs' must be an integer ≥ 1, got 0 (from dag.config.ts)",
  ]);
});

test('values in range pass as given: the schema checks, it never rewrites (so no key changes)', () => {
  const declared = {
    calibration: z.record(z.string(), z.object({ gamma: z.number() })).default({}),
    runs: z.int().min(1).default(5),
    tauA: z.union([z.number().gt(0), z.literal(Infinity)]).default(1),
  };
  // An unknown member of an object is stripped by zod's parse; the params keep it, as given.
  const given = { calibration: { j: { gamma: 0.5, note: 'kept' } }, runs: 3, tauA: Infinity };
  const r = resolveParams('s', declared, given);
  assert.deepEqual(r, { params: given, problems: [] });
  assert.equal(r.params.calibration, given.calibration, 'the very object given');
  assert.deepEqual(resolveParams('s', declared, {}).params, { calibration: {}, runs: 5, tauA: 1 });
});

test('a default out of its own range and a param declared without a type are refused, naming the module', () => {
  assert.deepEqual(resolveParams('s', { runs: z.int().min(1).default(0) }, {}, { module: 'stages/s.stage.ts' }).problems, [
    "stage 's': param 'runs' must be an integer ≥ 1, got 0 (its default in stages/s.stage.ts)",
  ]);
  assert.deepEqual(resolveParams('s', { runs: 5 }, {}).problems, [
    "stage 's': param 'runs' is declared without a type (5); declare it as a schema in the stage module, e.g. runs: z.int().min(1).default(5) (DESIGN.md, \"Adding a param\")",
  ]);
});
