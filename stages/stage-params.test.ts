// Every stage of the MEGA-CDP DAG declares its params, so a typo in dag.config.ts is refused
// before anything runs rather than silently changing the key and being ignored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import config from '../dag.config.ts';
import { resolveDag, DagConfigError } from '../pipeline/index.ts';
import { resolveParams } from '../pipeline/stage.ts';
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
