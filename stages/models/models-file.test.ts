// The models file's validation: every error names the file, the model and the field, and all of a
// file's problems are reported at once; a valid file gives the client's specs with the defaults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODEL_DEFAULTS, ModelsFileError, parseModelsFile } from './models-file.ts';
import { PAPER_BUILDER, PAPER_EVALUATED, PAPER_JUDGES } from './paper-names.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const base = { name: 'my-med-llm', baseURL: 'http://127.0.0.1:8000/v1', roles: ['evaluated'] };
const file = (models: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ models, ...extra });

function problems(text: string): string[] {
  try {
    parseModelsFile(text, 'models.json');
  } catch (err) {
    assert.ok(err instanceof ModelsFileError, String(err));
    assert.ok(err.message.startsWith('models.json: '), err.message);
    return err.problems;
  }
  assert.fail('expected the file to be refused');
}

test('a minimal entry gets the documented defaults; the key is referred to by its variable only', () => {
  const f = parseModelsFile(file([{ ...base, apiKeyEnv: 'VLLM_KEY' }]), 'models.json');
  assert.equal(f.simulated, false);
  assert.equal(f.models.length, 1);
  const m = f.models[0];
  assert.deepEqual(
    { name: m.name, modelId: m.modelId, roles: m.roles, baseURLs: m.baseURLs, apiKeyEnv: m.apiKeyEnv, provider: m.provider },
    {
      name: 'my-med-llm',
      modelId: 'my-med-llm',
      roles: ['evaluated'],
      baseURLs: ['http://127.0.0.1:8000/v1'],
      apiKeyEnv: 'VLLM_KEY',
      provider: 'openai-compatible',
    },
  );
  assert.equal(m.contextWindow, MODEL_DEFAULTS.contextWindow);
  assert.equal(m.windowAssumed, true);
  assert.equal(m.concurrency, 16);
  assert.equal(m.timeoutMs, 600_000);
  assert.equal(m.independentSamples, true);
  assert.deepEqual(m.price, { inputPerMTok: 0, outputPerMTok: 0 });
  assert.deepEqual(m.params, {});
  assert.equal(m.calibration, undefined, 'no calibration for a model that is not a judge');
});

test('every field is carried over as given: replicas, params sent as given, limits, price, batch, paper', () => {
  const f = parseModelsFile(
    file(
      [
        {
          name: 'Qwen3-8B (ours)',
          baseURL: ['http://gpu1:8000/v1/', 'http://gpu2:8000/v1'],
          model: 'Qwen/Qwen3-8B',
          roles: ['evaluated', 'judge'],
          params: { temperature: 0.6, top_p: 0.95, max_tokens: 4096 },
          contextWindow: 131072,
          concurrency: 32,
          rpm: 600,
          tpm: 2_000_000,
          price: { inputPerMTok: 0.05, outputPerMTok: 0.2 },
          batch: false,
          timeoutMs: 120000,
          independentSamples: false,
          judge: { gamma: 0.85 },
          paper: 'Qwen3-8B',
          note: 'our vLLM',
        },
      ],
      { simulated: true },
    ),
    'models.json',
  );
  const m = f.models[0];
  assert.equal(f.simulated, true);
  assert.deepEqual(m.baseURLs, ['http://gpu1:8000/v1', 'http://gpu2:8000/v1'], 'trailing slashes dropped');
  assert.deepEqual(m.params, { temperature: 0.6, top_p: 0.95, max_tokens: 4096 });
  assert.deepEqual(
    [m.contextWindow, m.windowAssumed, m.concurrency, m.rpm, m.tpm, m.timeoutMs],
    [131072, undefined, 32, 600, 2_000_000, 120000],
  );
  assert.deepEqual(m.price, { inputPerMTok: 0.05, outputPerMTok: 0.2 });
  assert.equal(m.independentSamples, false);
  assert.equal(m.paper, 'Qwen3-8B');
  // gamma given, beta from the LLM-judge default (Appendix B.1: 0.2).
  assert.deepEqual(m.calibration, { gamma: 0.85, beta: 0.2, calibrated: true });
});

test("a judge without a calibration gets the paper's when it stands for a paper judge, else the documented fallback", () => {
  const f = parseModelsFile(
    file([
      { ...base, name: 'mini', roles: ['judge'], paper: 'gpt-5.4-mini' },
      { ...base, name: 'q', roles: ['judge'], paper: 'qwen3-8b' },
      { ...base, name: 'mine', roles: ['judge'] },
    ]),
    'models.json',
  );
  assert.deepEqual(
    f.models.map((m) => m.calibration),
    [
      { gamma: 0.7, beta: 0.2, calibrated: true },
      { gamma: 0.9, beta: 0.2, calibrated: true },
      { gamma: 0.7, beta: 0.2, calibrated: false },
    ],
  );
});

test('each validation error names the file, the model and the field', () => {
  const cases: [unknown, RegExp][] = [
    [{ ...base, baseUrl: 'x' }, /^model "my-med-llm" \(entry 1\): field "baseUrl": unknown key \(did you mean "baseURL"\?\)/],
    [
      { ...base, roles: ['evaluated', 'doctor'] },
      /^model "my-med-llm" \(entry 1\): field "roles": unknown role "doctor"; roles are builder, evaluated, patient, judge$/,
    ],
    [{ name: 'm', roles: ['judge'] }, /^model "m" \(entry 1\): field "baseURL": missing/],
    [{ ...base, baseURL: 'localhost:8000' }, /field "baseURL": "localhost:8000" is not an http\(s\) URL/],
    [{ ...base, roles: [] }, /field "roles": missing or empty/],
    [{ baseURL: base.baseURL, roles: ['judge'] }, /^entry 1: field "name": missing or empty/],
    [{ ...base, name: 'simulated-me' }, /field "name": "simulated" is reserved/],
    [
      { ...base, roles: ['judge'], judge: { gamma: 1.5 } },
      /^model "my-med-llm" \(entry 1\): field "judge": "gamma" must be a number in \(0, 1\]/,
    ],
    [{ ...base, roles: ['judge'], judge: { gamma: 0.7, beta: -1 } }, /field "judge": "beta" must be a finite number ≥ 0/],
    [{ ...base, roles: ['judge'], judge: { threshold: 0.7 } }, /field "judge": unknown key "threshold"/],
    [{ ...base, judge: { gamma: 0.7 } }, /field "judge": a calibration for a model without the "judge" role/],
    [{ ...base, contextWindow: '32k' }, /field "contextWindow": must be a positive integer, got "32k"/],
    [{ ...base, price: { input: 1 } }, /field "price": must be \{"inputPerMTok": USD, "outputPerMTok": USD\}/],
    [{ ...base, apiKeyEnv: 'sk-live-0123456789abcdef' }, /field "apiKeyEnv": must be the NAME of an environment variable .*not a key/],
    [{ ...base, params: { messages: [] } }, /field "params": "messages" is set by the client/],
    [{ ...base, paper: 'GPT-9' }, /field "paper": "GPT-9" is not a model of the paper; known: gpt-5.2, Gemini-3.1-Pro-Preview/],
    [{ ...base, batch: 'yes' }, /field "batch": must be true or false/],
    [{ ...base, retry: 5 }, /field "retry": must be \{"waitForServerMs": integer ≥ 0, "maxAttempts": integer ≥ 1\}, got 5/],
    [{ ...base, retry: { waitForServer: 1000 } }, /field "retry": unknown key "waitForServer" \(did you mean "waitForServerMs"\?\)/],
    [{ ...base, retry: { waitForServerMs: -1 } }, /field "retry": "waitForServerMs" must be an integer of milliseconds ≥ 0, got -1/],
    [{ ...base, retry: { maxAttempts: 0 } }, /field "retry": "maxAttempts" must be an integer ≥ 1, got 0/],
  ];
  for (const [entry, expected] of cases) {
    const p = problems(file([entry]));
    assert.equal(p.length, 1, `${JSON.stringify(entry)} → ${p.join(' | ')}`);
    assert.match(p[0], expected);
  }
});

test("an unknown key is hinted by the runner's did-you-mean rule (closestName), as a typo in dag.config.ts or --set is", () => {
  const hint = (entry: unknown) => /\(did you mean "([^"]+)"\?\)/.exec(problems(file([entry]))[0] ?? '')?.[1] ?? null;
  // Transposed letters, a missing letter, a case slip: within a third of the word's length.
  assert.equal(hint({ ...base, modle: 'x' }), 'model');
  assert.equal(hint({ ...base, concurency: 4 }), 'concurrency');
  assert.equal(hint({ ...base, ContextWindow: 4096 }), 'contextWindow');
  // A word far from every key gets no guess (the former prefix rule said "paper" here).
  assert.equal(hint({ ...base, paperwork: 'x' }), null);
});

test('two models with one name, an unknown top-level key and broken JSON are refused; all problems at once', () => {
  const dup = problems(file([base, { ...base, model: 'other' }]));
  assert.deepEqual(dup, [
    'model "my-med-llm" (entry 2): field "name": entry 1 has the same name; names label every table, so they must be unique',
  ]);
  const many = problems(JSON.stringify({ model: [], models: [{ ...base, roles: ['x'] }, { name: 'b' }] }));
  assert.equal(many.length, 4, many.join('\n'));
  assert.match(many[0], /unknown top-level key "model" \(did you mean "models"\?\)/);
  assert.match(problems('{"models": [ {"name": "a",} ]}')[0], /^not valid JSON: /);
  assert.match(problems('{"simulated": true}')[0], /"models" must be an array/);
});

test('the paper roster ships as models/paper.json: 19 models, every one standing for a paper model, inactive until configured', () => {
  const f = parseModelsFile(readFileSync(join(repo, 'models', 'paper.json'), 'utf8'), 'models/paper.json');
  assert.deepEqual(
    f.models.filter((m) => m.roles.includes('evaluated')).map((m) => m.paper),
    [...PAPER_EVALUATED],
  );
  assert.deepEqual(
    f.models.filter((m) => m.roles.includes('judge')).map((m) => m.paper),
    [...PAPER_JUDGES],
  );
  assert.deepEqual(
    f.models.filter((m) => m.roles.includes('builder')).map((m) => m.name),
    [PAPER_BUILDER],
  );
  for (const m of f.models) {
    // The paper's Qwen3-8B judge and Qwen3-8B evaluated model differ only in case: one is renamed.
    assert.equal(m.paper, m.name === 'judge-qwen3-8b' ? 'qwen3-8b' : m.name);
    assert.ok((m.contextWindow ?? 0) >= 40_000, `${m.name}: the paper's 40K floor`);
    assert.deepEqual(m.params, {}, `${m.name}: the paper used default configurations`);
    // Proprietary models need their provider's key; open ones are disabled until pointed at a server.
    assert.ok(m.apiKeyEnv || m.active === false, `${m.name} must not be active without configuration`);
  }
  assert.deepEqual(f.models.find((m) => m.name === 'judge-qwen3-8b')?.calibration, { gamma: 0.9, beta: 0.2, calibrated: true });
});

test("a model's retry settings are carried over; the wait budget may be 0; absent, the client's defaults apply", () => {
  const f = parseModelsFile(
    file([
      { ...base, retry: { waitForServerMs: 600_000, maxAttempts: 8 } },
      { ...base, name: 'fail-fast', retry: { waitForServerMs: 0 } },
      { ...base, name: 'plain' },
    ]),
    'models.json',
  );
  assert.deepEqual(
    f.models.map((m) => m.retry),
    [{ waitForServerMs: 600_000, maxAttempts: 8 }, { waitForServerMs: 0 }, undefined],
  );
});

test("a model's retry settings are carried over; the wait budget may be 0; absent, the client's defaults apply", () => {
  const f = parseModelsFile(
    file([
      { ...base, retry: { waitForServerMs: 600_000, maxAttempts: 8 } },
      { ...base, name: 'fail-fast', retry: { waitForServerMs: 0 } },
      { ...base, name: 'plain' },
    ]),
    'models.json',
  );
  assert.deepEqual(
    f.models.map((m) => m.retry),
    [{ waitForServerMs: 600_000, maxAttempts: 8 }, { waitForServerMs: 0 }, undefined],
  );
});
