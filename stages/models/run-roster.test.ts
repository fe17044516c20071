// Who plays which role: from the command's options (the models file, --simulated, one model from
// CDP_LLM_*) or nothing (offline); a missing patient or judge stops the run with what to add;
// simulated agents only when asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { modelsOf, type RunModels } from './run-roster.ts';
import { optionsFor } from '../../pipeline/cli/options-for.ts';
import type { OneModel, ResolvedOptions } from '../../pipeline/index.ts';
import { DEFAULT_SIMULATED_EVALUATED } from '../agents/roster.ts';
import { SIMULATED_JUDGE_NAMES } from '../agents/judges/simulated-judges.ts';

const names = (xs: readonly { name: string }[]) => xs.map((x) => x.name);

const url = 'http://127.0.0.1:8000/v1';
const m = (name: string, roles: string[], extra: Record<string, unknown> = {}) => ({ name, baseURL: url, roles, ...extra });

function project(models: unknown): string {
  const root = mkdtempSync(join(tmpdir(), 'cdp-models-'));
  if (models !== undefined) writeFileSync(join(root, 'models.json'), JSON.stringify(models));
  return root;
}

/** The run's models as a command with these options decides them, on the bundled sample. */
function runModels(o: {
  root: string;
  env?: Record<string, string>;
  models?: string;
  simulated?: boolean;
  llm?: Partial<OneModel>;
  corpus?: ResolvedOptions['corpus'];
}): RunModels {
  const llm = o.llm ? { model: null, contextWindow: null, concurrency: null, baseURL: '', ...o.llm } : null;
  const given = { env: o.env ?? {}, models: o.models ?? null, simulated: !!o.simulated, llm };
  return modelsOf(
    optionsFor(join(o.root, 'dag.config.ts'), {
      corpus: join(o.root, 'data', 'sample'),
      ...given,
      ...('corpus' in o ? { corpus: o.corpus } : {}),
    }),
  );
}

const own = {
  models: [m('my-med-llm', ['evaluated']), m('baseline-7b', ['evaluated']), m('judge-x', ['judge']), m('patient-x', ['patient'])],
};

test('no models file: the simulated agents, patient and judges play every role, offline', () => {
  const r = runModels({ root: project(undefined), env: {} });
  assert.equal(r.source.kind, 'none');
  assert.equal(r.offline, true);
  assert.deepEqual(names(r.evaluated), [...DEFAULT_SIMULATED_EVALUATED]);
  assert.ok(r.evaluated.every((m) => m.simulated));
  assert.deepEqual(names(r.judges), [...SIMULATED_JUDGE_NAMES]);
  assert.deepEqual(
    r.judges.map((j) => [j.kind, j.simulated, j.calibration.gamma, j.calibration.beta, j.promptBudget]),
    SIMULATED_JUDGE_NAMES.map(() => ['similarity', true, 0.2, 0.1, null]),
  );
  assert.deepEqual([r.patient.name, r.patient.simulated], ['simulated-patient', true]);
  assert.equal(r.builder.real, false);
  assert.deepEqual([r.builder.trees, r.builder.vignettes.name, r.builder.vignettes.simulated], [null, 'simulated-vignette-writer', true]);
  assert.deepEqual([r.problems, r.warnings], [[], []]);
});

test('two evaluated models, a judge and a patient: only they run, and the simulated agents do not', () => {
  const r = runModels({ root: project(own), env: {} });
  assert.equal(r.source.kind, 'file');
  assert.deepEqual(names(r.evaluated), ['my-med-llm', 'baseline-7b']);
  assert.ok(r.evaluated.every((m) => !m.simulated));
  assert.deepEqual(names(r.judges), ['judge-x']);
  assert.deepEqual([r.judges[0]!.kind, r.judges[0]!.simulated], ['llm', false]);
  assert.equal(r.patient.name, 'patient-x');
  assert.deepEqual(r.problems, []);
  // No builder: the run says the benchmark is built offline, it does not pretend otherwise.
  assert.match(r.warnings.join('\n'), /no builder in models\.json: the benchmark is the bundled one, built offline/);
  // Only the bundled sample is "the bundled one": another corpus is named as what it is.
  const elsewhere = runModels({ root: project(own), corpus: '/data/my-corpus' });
  assert.match(
    elsewhere.warnings.join('\n'),
    /no builder in models\.json: the benchmark is built offline from the corpus \(the corpus's own trees/,
  );
  assert.doesNotMatch(elsewhere.warnings.join('\n'), /bundled/);
  assert.deepEqual(r.judges[0]!.calibration, { gamma: 0.7, beta: 0.2, calibrated: false });
  assert.deepEqual(
    [...r.evaluated, ...r.judges].map((m) => m.paper),
    [null, null, null],
  );
});

test('with --simulated (or "simulated": true) the simulated agents run beside them, with their own patient and judges', () => {
  for (const [models, simulated] of [
    [own, true],
    [{ ...own, simulated: true }, false],
  ] as const) {
    const r = runModels({ root: project(models), simulated });
    assert.deepEqual(names(r.evaluated), ['my-med-llm', 'baseline-7b', ...DEFAULT_SIMULATED_EVALUATED]);
    assert.deepEqual(names(r.evaluated.filter((m) => m.simulated)), [...DEFAULT_SIMULATED_EVALUATED]);
    assert.deepEqual(names(r.judges), ['judge-x', ...SIMULATED_JUDGE_NAMES]);
    assert.deepEqual(names(r.judges.filter((j) => !j.simulated)), ['judge-x'], 'real judges never score simulated agents');
    assert.equal(r.patient.name, 'patient-x');
    assert.equal(r.simulatedPatient.name, 'simulated-patient');
  }
});

test('a missing patient or judge is a problem that says what to add, unless --simulated fills in (labelled)', () => {
  const noPatient = runModels({ root: project({ models: [m('a', ['evaluated']), m('j', ['judge'])] }), env: {} });
  assert.equal(noPatient.problems.length, 1);
  assert.match(
    noPatient.problems[0],
    /^models\.json declares evaluated models \(a\) but no patient: add "patient" to the roles of a chat model .* or pass --simulated to use simulated-patient/,
  );
  const noJudge = runModels({ root: project({ models: [m('a', ['evaluated']), m('p', ['patient'])] }), env: {} });
  assert.match(noJudge.problems.join('\n'), /declares evaluated models \(a\) but no judge: add "judge" to the roles/);
  const filled = runModels({ root: project({ models: [m('a', ['evaluated'])] }), simulated: true });
  assert.deepEqual(filled.problems, []);
  assert.equal(filled.patient.name, 'simulated-patient');
  assert.deepEqual(names(filled.judges), [...SIMULATED_JUDGE_NAMES]);
});

test('one model in several roles is named in a warning', () => {
  const r = runModels({ root: project({ models: [m('my-med-llm', ['evaluated', 'judge', 'patient', 'builder'])] }), env: {} });
  assert.deepEqual(r.problems, []);
  const w = r.warnings.join('\n');
  assert.match(w, /my-med-llm is both judge and evaluated model: it scores its own answers/);
  assert.match(w, /my-med-llm is both patient and evaluated model/);
  assert.match(w, /my-med-llm is both builder and evaluated model/);
  assert.equal(r.builder.trees?.name, 'my-med-llm');
  assert.equal(r.builder.inspector?.name, 'my-med-llm');
  assert.equal(r.builder.vignettes.name, 'my-med-llm');
});

test('a model whose key is not set is not used, and says why; if no evaluated model is usable the run stops', () => {
  const r = runModels({
    root: project({ models: [m('gpt', ['evaluated'], { apiKeyEnv: 'OPENAI_API_KEY' }), m('j', ['judge']), m('p', ['patient'])] }),
    env: {},
  });
  assert.match(r.warnings.join('\n'), /gpt is not used: no API key: set OPENAI_API_KEY/);
  assert.match(r.problems.join('\n'), /none of the evaluated models in models\.json is usable \(gpt: no API key: set OPENAI_API_KEY\)/);
  const ok = runModels({
    root: project({ models: [m('gpt', ['evaluated'], { apiKeyEnv: 'OPENAI_API_KEY' }), m('j', ['judge']), m('p', ['patient'])] }),
    env: { OPENAI_API_KEY: 'sk-x' },
  });
  assert.deepEqual(ok.problems, []);
  assert.ok(!JSON.stringify(ok).includes('sk-x'), 'the key value appears nowhere in the resolved configuration');
  // The key is asked for by presence only: the options' view records it so, never its value.
  const options = optionsFor(join(project(undefined), 'dag.config.ts'), { env: { OPENAI_API_KEY: 'sk-x' } });
  const root = project({ models: [m('gpt', ['evaluated'], { apiKeyEnv: 'OPENAI_API_KEY' }), m('j', ['judge']), m('p', ['patient'])] });
  modelsOf({ ...options, root });
  const reads = (options.env as unknown as { reads(): { values: string[]; present: string[] } }).reads();
  assert.deepEqual(reads.present, ['OPENAI_API_KEY']);
  assert.ok(!reads.values.includes('OPENAI_API_KEY'), 'the key variable is never read for its value');
});

test('--models names another file; an invalid file is a problem, not a crash; a file and CDP_LLM_BASE_URL together are refused', () => {
  const root = project(undefined);
  const other = join(root, 'mine.json');
  writeFileSync(other, JSON.stringify(own));
  assert.deepEqual(names(runModels({ root, models: other }).evaluated), ['my-med-llm', 'baseline-7b']);
  assert.match(runModels({ root, models: join(root, 'nope.json') }).problems[0], /models file .*nope\.json does not exist/);
  writeFileSync(other, JSON.stringify({ models: [m('a', ['doctor'])] }));
  const bad = runModels({ root, models: other });
  assert.match(bad.problems[0], /^mine\.json: model "a" \(entry 1\): field "roles": unknown role "doctor"/);
  assert.equal(bad.offline, true);
  const both = runModels({ root: project(own), llm: { baseURL: url, model: 'x' } });
  assert.match(both.problems[0], /both models\.json .* and CDP_LLM_BASE_URL are set/);
});

test('CDP_LLM_BASE_URL + CDP_LLM_MODEL: a one-model file holding every role, with its window from CDP_LLM_CONTEXT_WINDOW', () => {
  const llm = { baseURL: `${url}/`, model: 'Qwen3-8B', contextWindow: '131072' };
  const r = runModels({ root: project(undefined), llm });
  assert.equal(r.source.kind, 'env');
  assert.deepEqual(names(r.evaluated), ['Qwen3-8B']);
  assert.deepEqual(names(r.judges), ['Qwen3-8B']);
  assert.equal(r.patient.name, 'Qwen3-8B');
  assert.equal(r.builder.trees?.name, 'Qwen3-8B');
  const spec = r.declared[0];
  assert.deepEqual([spec.contextWindow, spec.windowAssumed, spec.baseURLs], [131072, undefined, [url]]);
  // A paper name in CDP_LLM_MODEL is just a name: not compared with the paper, and it plays every role.
  assert.deepEqual([r.evaluated[0]!.paper, r.judges[0]!.paper], [null, null]);
  assert.match(r.warnings.join('\n'), /Qwen3-8B is both judge and evaluated model/);
  const noModel = runModels({ root: project(undefined), llm: { baseURL: url } });
  assert.match(noModel.problems[0], /CDP_LLM_BASE_URL is set but CDP_LLM_MODEL is not/);
  const badWindow = runModels({ root: project(undefined), llm: { ...llm, contextWindow: '32k' } });
  assert.match(badWindow.problems[0], /CDP_LLM_CONTEXT_WINDOW must be a positive integer, got "32k"/);
});

test("a judge's calibration and a model's paper name reach the run", () => {
  const r = runModels({
    root: project({
      models: [
        m('mine', ['evaluated'], { paper: 'Qwen3-8B' }),
        m('mini', ['judge'], { paper: 'gpt-5.4-mini' }),
        m('j2', ['judge'], { judge: { gamma: 0.5, beta: 0.3 } }),
        m('p', ['patient']),
      ],
    }),
    env: {},
  });
  assert.deepEqual(
    [...r.evaluated, ...r.judges].map((m) => [m.name, m.paper]),
    [
      ['mine', 'Qwen3-8B'],
      ['mini', 'gpt-5.4-mini'],
      ['j2', null],
    ],
  );
  assert.deepEqual(r.judges[0]!.calibration, { gamma: 0.7, beta: 0.2, calibrated: true });
  assert.deepEqual(r.judges[1]!.calibration, { gamma: 0.5, beta: 0.3, calibrated: true });
});
