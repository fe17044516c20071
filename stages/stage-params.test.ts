// Every stage of both DAGs (MEGA-CDP's dag.config.ts, CPGBench's cpgbench.config.ts) declares
// its params, each with its type and range, so a typo or a value out of range in a config or on
// the command line is refused before anything runs rather than silently changing the key (or
// making 1,680 failure rows, or 4 GB of them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import dagDefinition from '../dag.config.ts';
import cpgDefinition from '../cpgbench.config.ts';
import { builtConfig } from '../pipeline/testing/config-stages.ts';
import { resolveDag, DagConfigError } from '../pipeline/index.ts';
import { resolveParams } from '../pipeline/stage.ts';
import { isParamSchema } from '../pipeline/dag/params.ts';
import { parseOverrides } from '../pipeline/dag/overrides.ts';
import { keyedParams } from '../pipeline/exec/keys.ts';
import { hashValue } from '../pipeline/hash/canonical.ts';
import { runCdp } from '../pipeline/testing/cdp-process.ts';
import dialogues from './tasks/dialogues-multi.stage.ts';
import { realJudge, realModel } from './roster/testing/specs.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = builtConfig(dagDefinition, root);
const cpgConfig = builtConfig(cpgDefinition, root, {}, 'cpgbench.config.ts');

test('every stage module declares its params, each as a schema, and the config gives only known ones', async () => {
  const dag = await resolveDag(config, root);
  const undeclared = [...dag.stages].filter(([, s]) => s.impl.params === undefined).map(([name]) => name);
  assert.deepEqual(undeclared, []);
  const modules = readdirSync(join(root, 'stages'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.stage.ts'));
  assert.ok(modules.length >= 30, `${modules.length} stage modules`);
  for (const file of modules) {
    const params = ((await import(join(root, 'stages', file))) as { default: { params?: Record<string, unknown> } }).default.params;
    assert.equal(typeof params, 'object', `${file} declares its params`);
    const untyped = Object.entries(params!).filter(([, v]) => !isParamSchema(v));
    assert.deepEqual(untyped, [], `${file}: every param is a schema with its type, range and default`);
  }
  // The declared defaults reach the stage: nothing in the config sets step_scores' runs any more.
  assert.equal(config.stages.find((s) => s.name === 'step_scores')!.params?.runs, undefined);
  assert.equal(dag.stages.get('step_scores')!.decl.params!.runs, 5);
  assert.equal(dag.stages.get('dialogues_multi')!.decl.params!.capFactor, 2);
});

test('every stage of cpgbench.config.ts declares its params, and the config gives only known ones; the paper values are the defaults', async () => {
  const dag = await resolveDag(cpgConfig, root);
  const undeclared = [...dag.stages].filter(([, s]) => s.impl.params === undefined).map(([name]) => name);
  assert.deepEqual(undeclared, []);
  assert.deepEqual(
    [...dag.stages.keys()].filter((n) => !n.startsWith('cpg_')),
    ['guidelines'],
    'the one shared stage module: ingestion',
  );
  assert.equal(dag.stages.get('guidelines')!.decl.module, 'stages/ingest/guidelines.stage.ts');
  assert.equal([...dag.stages.keys()].length, 22);
  const params = (stage: string) => dag.stages.get(stage)!.decl.params!;
  assert.equal(params('cpg_documents').minYear, 2015);
  assert.equal(params('cpg_documents').maxTokens, 128000);
  assert.equal(params('cpg_recommendations').maxTokens, 128000);
  assert.match(String(params('cpg_safety').criterion), /severe patient harm, permanent disability, or death within hours to days/);
  assert.equal(params('cpg_conversations').maxAttempts, 5);
  const typo = {
    ...cpgConfig,
    stages: cpgConfig.stages.map((s) => (s.name === 'cpg_documents' ? { ...s, params: { ...s.params, minYaer: 2010 } } : s)),
  };
  await assert.rejects(
    resolveDag(typo, root),
    (err: unknown) =>
      err instanceof DagConfigError &&
      err.problems.some((p) =>
        p.startsWith(
          "stage 'cpg_documents': unknown param 'minYaer' (did you mean 'minYear'?); known: builder, minYear, maxTokens, maxAttempts",
        ),
      ),
  );
});

test('cpgbench.config.ts: a misnamed input, a missing one and a value out of range are refused before anything runs', async () => {
  const edit = (name: string, f: (s: (typeof cpgConfig.stages)[number]) => (typeof cpgConfig.stages)[number]) => ({
    ...cpgConfig,
    stages: cpgConfig.stages.map((s) => (s.name === name ? f(s) : s)),
  });
  const refused = async (config: typeof cpgConfig, start: string) =>
    assert.rejects(
      resolveDag(config, root),
      (err: unknown) => err instanceof DagConfigError && err.problems.some((p) => p.startsWith(start)),
    );
  await refused(
    edit('cpg_safety', (s) => ({ ...s, inputs: { cpg_recomendations: 'cpg_recommendations' } })),
    "stage 'cpg_safety': input 'cpg_recomendations' is not an input of stages/cpgbench/construct/cpg-safety.stage.ts (did you mean 'cpg_recommendations'?)",
  );
  await refused(
    edit('cpg_outcomes', (s) => ({ ...s, inputs: Object.fromEntries(Object.entries(s.inputs!).filter(([k]) => k !== 'cpg_safety')) })),
    "stage 'cpg_outcomes': required input 'cpg_safety' is not given",
  );
  await refused(
    edit('cpg_documents', (s) => ({ ...s, params: { ...s.params, minYear: 15 } })),
    "stage 'cpg_documents': param 'minYear' must be",
  );
  await refused(
    edit('cpg_rates', (s) => ({ ...s, params: { ...s.params, level: 95 } })),
    "stage 'cpg_rates': param 'level' must be",
  );
});

test("a typo in dialogues_multi's params names the stage, the param, the intended one and the known ones", async () => {
  const r = resolveParams('dialogues_multi', dialogues.params as Record<string, unknown>, {
    models: [realModel('m')],
    patient: realModel('p'),
    capFactr: 3,
  });
  assert.deepEqual(r.problems, [
    "stage 'dialogues_multi': unknown param 'capFactr' (did you mean 'capFactor'?); known: models, patient, simulatedPatient, capFactor, capExtra",
  ]);
  const typo = {
    ...config,
    stages: config.stages.map((s) => (s.name === 'dialogues_multi' ? { ...s, params: { ...s.params, capFactr: 3 } } : s)),
  };
  await assert.rejects(
    resolveDag(typo, root),
    (err: unknown) =>
      err instanceof DagConfigError && err.problems.some((p) => p.startsWith("stage 'dialogues_multi': unknown param 'capFactr'")),
  );
});

test('--set outcome_scores.cutoff=3 gives outcome_scores the params, and so the key, of cutoff: 3 in dag.config.ts; the others are untouched', async () => {
  const viaSet = await resolveDag(config, root, { overrides: parseOverrides(['outcome_scores.cutoff=3']) });
  const edited = {
    ...config,
    stages: config.stages.map((s) => (s.name === 'outcome_scores' ? { ...s, params: { ...s.params, cutoff: 3 } } : s)),
  };
  const inConfig = await resolveDag(edited, root);
  const plain = await resolveDag(config, root);
  const params = (d: typeof plain, stage: string) => keyedParams(d.stages.get(stage)!);
  assert.equal(params(viaSet, 'outcome_scores').cutoff, 3);
  assert.equal(params(plain, 'outcome_scores').cutoff, 4);
  assert.equal(hashValue(params(viaSet, 'outcome_scores')), hashValue(params(inConfig, 'outcome_scores')));
  for (const name of plain.stages.keys()) {
    if (name !== 'outcome_scores') assert.equal(hashValue(params(viaSet, name)), hashValue(params(plain, name)), name);
  }
});

test('cdp estimate refuses a --set param the stage does not declare before anything runs', async () => {
  const store = join(mkdtempSync(join(tmpdir(), 'cdp-set-estimate-')), 'store');
  const r = await runCdp(['estimate', '--set', 'outcome_scores.cutof=3'], { CDP_STORE: store });
  assert.equal(r.code, 2, r.stderr);
  assert.equal(
    r.stderr,
    "cdp: dag.config.ts with --set has 1 problem:\n  - --set outcome_scores.cutof=3: stage 'outcome_scores' has no param 'cutof' (did you mean 'cutoff'?); known: judges, cutoff, maxReasks\n",
  );
  assert.equal(r.stdout, '');
  assert.equal(existsSync(store), false);
});

// What a roster value is, as the schema says it (stages/roster/).
const MODEL_REF =
  'name: a non-empty string, simulated: true or false, model: a non-empty string, params: an object whose values are each any value, independentSamples: true or false, seedRule: a non-empty string';
const JUDGE_SPEC = `an object {${MODEL_REF}, kind: one of 'llm', 'similarity', 'embedding', calibration: an object {gamma: a number > 0 and ≤ 1, beta: a number ≥ 0, calibrated: true or false}, promptBudget: an integer ≥ 1 or null, paper: a non-empty string or null}`;

// What --set once let through: cutoff=abc or -1 and runs=0 each made 1,680 failure rows and exited 0;
// cutoff=3.5 was accepted; runs=1e9 grew the store to 4.1 GB.
const BAD_SETS: [string, string][] = [
  ['outcome_scores.cutoff=abc', `stage 'outcome_scores': param 'cutoff' must be an integer from 1 to 5, got "abc"`],
  ['outcome_scores.cutoff=-1', `stage 'outcome_scores': param 'cutoff' must be an integer from 1 to 5, got -1`],
  ['outcome_scores.cutoff=3.5', `stage 'outcome_scores': param 'cutoff' must be an integer from 1 to 5, got 3.5`],
  ['step_scores.runs=0', `stage 'step_scores': param 'runs' must be an integer from 1 to 100, got 0`],
  ['step_scores.runs=1e9', `stage 'step_scores': param 'runs' must be an integer from 1 to 100, got 1000000000`],
  ['model_summary.failurePolicy=worse', `stage 'model_summary': param 'failurePolicy' must be one of 'worst', 'exclude', got "worse"`],
  ['model_summary.resamples=1', `stage 'model_summary': param 'resamples' must be an integer from 2 to 1000000, got 1`],
  ['pathway_metrics.lambda=0', `stage 'pathway_metrics': param 'lambda' must be a number > 0, got 0`],
  ['qc.inspectFraction=5', `stage 'qc': param 'inspectFraction' must be a number from 0 to 1, got 5`],
  ['dialogues_multi.capFactor=1e6', `stage 'dialogues_multi': param 'capFactor' must be a number from 0 to 20, got 1000000`],
  ['threshold_analysis.gridStep=1e-9', `stage 'threshold_analysis': param 'gridStep' must be a number from 0.001 to 1, got 1e-9`],
  ['test_cases.limit=0', `stage 'test_cases': param 'limit' must be an integer ≥ 1 or null, got 0`],
  ['dialogues_multi.patient="p"', `stage 'dialogues_multi': param 'patient' must be an object {${MODEL_REF}}, got "p"`],
];

test('each --set value outside its param type or range is refused by resolveDag, naming stage, param, allowed values and the --set', async () => {
  for (const [set, message] of BAD_SETS) {
    await assert.rejects(
      resolveDag(config, root, { overrides: parseOverrides([set]) }),
      (err: unknown) => {
        assert.ok(err instanceof DagConfigError, String(err));
        assert.deepEqual(err.problems, [`${message} (from --set ${set})`], set);
        return true;
      },
      set,
    );
  }
});

test('a value of the wrong type in dag.config.ts is refused the same way, naming dag.config.ts', async () => {
  const withParams = (stage: string, params: Record<string, unknown>) => ({
    ...config,
    stages: config.stages.map((s) => (s.name === stage ? { ...s, params: { ...s.params, ...params } } : s)),
  });
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'model_summary',
      { commonCases: 'yes' },
      `stage 'model_summary': param 'commonCases' must be true or false, got "yes" (from dag.config.ts)`,
    ],
    [
      'outcome_scores',
      { cutoff: '4' },
      `stage 'outcome_scores': param 'cutoff' must be an integer from 1 to 5, got "4" (from dag.config.ts)`,
    ],
    [
      'step_scores',
      { judges: [{ ...realJudge('j'), calibration: { gamma: 0.7, beta: -1, calibrated: true } }] },
      `stage 'step_scores': param 'judges' must be a list of items each ${JUDGE_SPEC}, got [{"name":"j","simulated":false,"model":"j","params":{},"independentSamples":tru… (from dag.config.ts); at judges.0.calibration.beta: Too small: expected number to be >=0`,
    ],
    [
      'step_scores',
      { judges: [realJudge('j'), realJudge('j')] },
      `stage 'step_scores': param 'judges' must be a list of items each ${JUDGE_SPEC}, got [{"name":"j","simulated":false,"model":"j","params":{},"independentSamples":tru… (from dag.config.ts); names must be distinct`,
    ],
    [
      'dialogues_multi',
      { patient: 'patient-x' },
      `stage 'dialogues_multi': param 'patient' must be an object {${MODEL_REF}}, got "patient-x" (from dag.config.ts)`,
    ],
  ];
  for (const [stage, params, message] of cases) {
    await assert.rejects(resolveDag(withParams(stage, params), root), (err: unknown) => {
      assert.ok(err instanceof DagConfigError, String(err));
      assert.deepEqual(err.problems, [message], stage);
      return true;
    });
  }
});

test('cdp run refuses --set outcome_scores.cutoff=3.5 and step_scores.runs=1e9 with exit 2 before anything runs', async () => {
  const store = join(mkdtempSync(join(tmpdir(), 'cdp-set-range-')), 'store');
  const r = await runCdp(['run', '--set', 'outcome_scores.cutoff=3.5', '--set', 'step_scores.runs=1e9'], { CDP_STORE: store });
  assert.equal(r.code, 2, r.stderr);
  assert.equal(
    r.stderr,
    'cdp: dag.config.ts with --set has 2 problems:\n' +
      "  - stage 'step_scores': param 'runs' must be an integer from 1 to 100, got 1000000000 (from --set step_scores.runs=1e9)\n" +
      "  - stage 'outcome_scores': param 'cutoff' must be an integer from 1 to 5, got 3.5 (from --set outcome_scores.cutoff=3.5)\n",
  );
  assert.equal(r.stdout, '');
  assert.equal(existsSync(store), false, 'nothing was written');
});
