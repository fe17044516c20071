// A researcher's own models from a models file, through `cdp`, against one local
// OpenAI-compatible server serving four model names: two evaluated models, a judge and a
// patient. Each request reaches the right model, no real call is spent on a simulated agent, a
// smoke run (--limit 5) and then the full run never send one request twice, a rerun sends
// nothing, and the key is written nowhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAIServer, type ChatBody } from '../../pipeline/llm/testing/fake-openai-server.ts';
import { plainAnswer, promptKind, type PromptKind } from './testing/plain-model.ts';
import { runCdp } from '../../pipeline/testing/cdp-process.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const KEY = 'sk-own-models-secret-4c1d9e';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const cdp = (args: string[], env: NodeJS.ProcessEnv) => runCdp(args, { CDP_NO_FAST_PATH: '', ...env });

// Which prompts each model may receive: its role's, and nothing else.
const EXPECTED: Record<string, PromptKind[]> = {
  'org/my-med-llm': ['single-turn-inference', 'multi-turn-inference'],
  'org/baseline-7b': ['single-turn-inference', 'multi-turn-inference'],
  'org/patient': ['multi-turn-patient-environment'],
  'org/judge': ['single-turn-step-level-consistency-scoring', 'multi-turn-step-level-consistency-scoring', 'outcome-accuracy-scoring'],
};

const bodyHash = (b: ChatBody) => createHash('sha256').update(JSON.stringify(b)).digest('hex');

test('own models from a models file: right model per request, nothing spent on stand-ins, smoke then full run never asks twice', async () => {
  const server = await startFakeOpenAIServer({
    answer: (b) => plainAnswer(b, b.model === 'org/baseline-7b' ? { steps: 3, questions: 1 } : { steps: 2, questions: 2 }),
  });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'cdp-own-models-'));
    const store = join(dir, 'store');
    const modelsFile = join(dir, 'models.json');
    const model = (name: string, id: string, roles: string[], extra = {}) => ({
      name,
      baseURL: server.url,
      model: id,
      roles,
      contextWindow: 1_000_000,
      ...extra,
    });
    writeFileSync(
      modelsFile,
      JSON.stringify({
        models: [
          model('my-med-llm', 'org/my-med-llm', ['evaluated'], { apiKeyEnv: 'OWN_MODELS_TEST_KEY' }),
          model('baseline-7b', 'org/baseline-7b', ['evaluated']),
          model('judge-x', 'org/judge', ['judge']),
          model('patient-x', 'org/patient', ['patient']),
        ],
      }),
    );
    const env = { CDP_STORE: store, OWN_MODELS_TEST_KEY: KEY };
    const sql = async (q: string) => {
      const r = await cdp(['sql', q, '--json'], env);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as Record<string, unknown>[];
    };

    // cdp models: roles, endpoints, no key.
    const listed = await cdp(['models', '--models', modelsFile, '--json'], env);
    assert.equal(listed.code, 0, listed.stderr);
    const m = JSON.parse(listed.stdout) as {
      models: { name: string; active: boolean; reason: string; endpoint: string[] }[];
      roles: Record<string, unknown>;
    };
    assert.deepEqual(
      m.models.map((x) => [x.name, x.active, x.reason]),
      [
        ['my-med-llm', true, 'evaluated'],
        ['baseline-7b', true, 'evaluated'],
        ['judge-x', true, 'judges'],
        ['patient-x', true, 'plays the patient'],
      ],
    );
    assert.deepEqual(m.roles, {
      builder: null,
      evaluated: ['my-med-llm', 'baseline-7b'],
      patient: 'patient-x',
      judges: ['judge-x'],
      simulated: false,
    });

    // An estimate on the fresh store predicts every LLM stage and writes nothing anywhere.
    const reportsBefore = filesUnder(join(repo, 'reports'))
      .filter((f) => !f.includes(`${join('reports', 'site')}`))
      .map((f) => [f, readFileSync(f)] as const);
    const est = await cdp(['estimate', '--models', modelsFile, '--json'], env);
    assert.equal(est.code, 0, est.stderr);
    const estimate = JSON.parse(est.stdout) as { stages: { stage: string; requests: number }[]; total: { requests: number } };
    assert.deepEqual(estimate.stages.map((x) => x.stage).sort(), [
      'dialogues_multi',
      'outcome_scores',
      'predictions_single',
      'step_scores',
    ]);
    assert.ok(estimate.total.requests > 0);
    assert.throws(() => statSync(store), /ENOENT/, 'cdp estimate wrote nothing: no store, no warehouse, no reports');
    assert.equal(server.requests.length, 0, 'cdp estimate sent nothing');

    // A smoke run: 5 cases, both settings, every judge.
    const smoke = await cdp(['run', '--models', modelsFile, '--limit', '5'], env);
    assert.equal(smoke.code, 0, smoke.stderr);
    assert.match(smoke.stderr, /covered: test_cases 5, predictions_single 5, dialogues_multi 5, predicted_pathways 5, step_scores 5/);
    assert.match(smoke.stderr, /warning: no builder in .*models\.json: the benchmark is the bundled one, built offline/);
    assert.deepEqual(await sql(`select model, count(*)::int as n from predictions_single group by model order by model`), [
      { model: 'baseline-7b', n: 5 },
      { model: 'my-med-llm', n: 5 },
    ]);
    const smokeRequests = server.requests.length;
    assert.ok(smokeRequests > 0);

    // The full run: the smoke run's calls and units are reused, nothing is asked twice.
    const full = await cdp(['run', '--models', modelsFile, '--json'], env);
    assert.equal(full.code, 0, full.stderr);
    const byStage = Object.fromEntries(
      (JSON.parse(full.stdout) as { stages: { stage: string; rowsReused: number; covered?: { count: number } }[] }).stages.map((s) => [
        s.stage,
        s,
      ]),
    );
    const cases = (await sql(`select count(*)::int as n from cdps where split = 'test'`))[0].n as number;
    assert.ok(cases > 5);
    assert.equal(byStage.test_cases.covered?.count, cases);
    assert.equal(byStage.predictions_single.rowsReused, 5 * 2, "the smoke run's units are reused");
    assert.equal(byStage.dialogues_multi.rowsReused, 5 * 2);

    const hashes = server.requests.map(bodyHash);
    assert.equal(new Set(hashes).size, hashes.length, 'no request was sent twice across the smoke and the full run');
    for (const b of server.requests) {
      const kind = promptKind(b);
      assert.ok(EXPECTED[b.model]?.includes(kind), `${b.model} received a ${kind} prompt`);
    }
    const perModel = server.counters.byModel;
    assert.deepEqual(Object.keys(perModel).sort(), Object.keys(EXPECTED).sort());

    // Nothing simulated ran, and the reports say who produced them.
    assert.deepEqual(await sql(`select count(*)::int as n from predicted_pathways where simulated`), [{ n: 0 }]);
    assert.deepEqual(await sql(`select distinct judge from step_scores order by judge`), [{ judge: 'judge-x' }]);
    // Table 2 is over the run's judge (one judge: its metric pairs), not the simulated ones.
    assert.deepEqual(
      await sql(`select distinct fixed from correlations where fixed not in ('dtw_pcc', 'ot_pcc', 'lnds_pcs') order by fixed`),
      [{ fixed: 'judge-x' }],
    );
    assert.match(
      readFileSync(join(store, 'reports', 'index.md'), 'utf8'),
      /Produced by: the bundled sample \(data\/sample, 6 guidelines\); .*; evaluated: real models: baseline-7b, my-med-llm\./,
    );
    // One independent sample per case: as many doctor first turns as (case × model).
    const firstTurns = server.requests.filter((b) => promptKind(b) === 'multi-turn-inference' && b.messages.length === 1);
    assert.equal(firstTurns.length, cases * 2);
    assert.equal(new Set(firstTurns.map((b) => b.seed)).size, cases, 'a seed per case, the same for both models');

    assert.ok(server.authHeaders.includes(`Bearer ${KEY}`), 'the key from the environment is sent');
    // A rerun sends nothing; --simulated adds the stand-ins without a single real request.
    server.resetCounters();
    const again = await cdp(['run', '--models', modelsFile], env);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(server.counters.chat, 0, 'a rerun makes no request');
    const withSim = await cdp(['run', '--models', modelsFile, '--simulated'], env);
    assert.equal(withSim.code, 0, withSim.stderr);
    assert.equal(server.counters.chat, 0, 'no real judge or patient call is spent on a simulated agent');
    assert.deepEqual(await sql(`select count(*)::int as n from step_scores where simulated and judge = 'judge-x'`), [{ n: 0 }]);
    assert.deepEqual(await sql(`select distinct patient from dialogues_multi where simulated`), [{ patient: 'simulated-patient' }]);
    assert.ok(
      ((await sql(`select count(*)::int as n from step_scores where simulated`))[0].n as number) > 0,
      'the simulated judges scored the agents',
    );

    for (const f of filesUnder(dir)) assert.ok(!readFileSync(f).includes(KEY), `the API key was written to ${f}`);
    // Reports belong to their store: the project's reports/ was not touched by this store's runs.
    for (const [f, bytes] of reportsBefore) assert.ok(readFileSync(f).equals(bytes), `${f} was rewritten by a run on another store`);
    for (const out of [listed, smoke, full, again, withSim])
      assert.ok(!(out.stdout + out.stderr).includes(KEY), 'the key appears in no output');
  } finally {
    await server.close();
  }
});

test('a models file that does not validate, or a missing role, stops cdp run before anything runs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-own-models-bad-'));
  const file = join(dir, 'models.json');
  writeFileSync(
    file,
    JSON.stringify({
      models: [
        { name: 'a', baseURL: 'http://127.0.0.1:9/v1', roles: ['evaluated'] },
        { name: 'j', baseURL: 'http://127.0.0.1:9/v1', roles: ['judge', 'doctor'] },
      ],
    }),
  );
  const env = { CDP_STORE: join(dir, 'store') };
  const bad = await cdp(['run', '--models', file], env);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /nothing was run:\n {2}- \S*models\.json: model "j" \(entry 2\): field "roles": unknown role "doctor"/);
  writeFileSync(file, JSON.stringify({ models: [{ name: 'a', baseURL: 'http://127.0.0.1:9/v1', roles: ['evaluated'] }] }));
  const missing = await cdp(['run', '--models', file], env);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /but no patient: add "patient" to the roles/);
  assert.match(missing.stderr, /but no judge: add "judge" to the roles/);
  assert.throws(() => statSync(join(dir, 'store', 'ledger.json')), /ENOENT/, 'nothing ran');
  const estimate = await cdp(['estimate', '--models', file], env);
  assert.equal(estimate.code, 2, 'estimate refuses the same problems');
  const badLimit = await cdp(['run', '--limit', '0'], env);
  assert.equal(badLimit.code, 2);
  assert.equal(badLimit.stderr, 'cdp: --limit must be a positive whole number of cases, got "0"\n');
});
