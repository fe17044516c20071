// Every stage of both DAGs (MEGA-CDP's dag.config.ts, CPGBench's cpgbench.config.ts) declares
// its params, so a typo in a config is refused before anything runs rather than silently
// changing the key and being ignored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import config from '../dag.config.ts';
import cpgConfig from '../cpgbench.config.ts';
import { resolveDag, DagConfigError } from '../pipeline/index.ts';
import { resolveParams } from '../pipeline/stage.ts';
import { parseOverrides } from '../pipeline/dag/overrides.ts';
import { keyedParams } from '../pipeline/exec/keys.ts';
import { hashValue } from '../pipeline/hash/canonical.ts';
import { runCdp } from '../pipeline/testing/cdp-process.ts';
import dialogues from './tasks/dialogues-multi.stage.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

test('every stage of dag.config.ts declares its params, and the config gives only known ones', async () => {
  const dag = await resolveDag(config, root);
  const undeclared = [...dag.stages].filter(([, s]) => s.impl.params === undefined).map(([name]) => name);
  assert.deepEqual(undeclared, []);
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
  assert.equal([...dag.stages.keys()].length, 21);
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

test("a typo in dialogues_multi's params names the stage, the param, the intended one and the known ones", async () => {
  const r = resolveParams('dialogues_multi', dialogues.params as Record<string, unknown>, { models: ['m'], patient: 'p', capFactr: 3 });
  assert.deepEqual(r.problems, [
    "stage 'dialogues_multi': unknown param 'capFactr' (did you mean 'capFactor'?); known: models, simulated, patient, simulatedPatient, capFactor, capExtra",
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
    "cdp: dag.config.ts with --set has 1 problem:\n  - --set outcome_scores.cutof=3: stage 'outcome_scores' has no param 'cutof' (did you mean 'cutoff'?); known: judges, realJudges, cutoff, maxReasks\n",
  );
  assert.equal(r.stdout, '');
  assert.equal(existsSync(store), false);
});
