// Which of a model's settings enter the keys of the units that call it: every field of a
// models-file entry is classified, the answer-relevant ones travel in its ModelRef, the rest do not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashValue } from '../../pipeline/hash/canonical.ts';
import { SEED_RULE } from '../../pipeline/llm/request-key.ts';
import { FIELD_ROLES, evaluatedModel, modelRef } from './model-identity.ts';
import { parseModelsFile } from './models-file.ts';

// An entry that sets every field the models file knows.
const full = {
  name: 'my-med-llm',
  baseURL: ['http://127.0.0.1:8000/v1', 'http://127.0.0.1:8001/v1'],
  model: 'org/my-med-llm',
  roles: ['evaluated', 'judge'],
  apiKeyEnv: 'VLLM_API_KEY',
  params: { temperature: 0.6, max_tokens: 4096 },
  contextWindow: 131072,
  concurrency: 16,
  rpm: 600,
  tpm: 2_000_000,
  price: { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  batch: false,
  timeoutMs: 600_000,
  independentSamples: true,
  expectedOutputTokens: 2048,
  enabled: true,
  judge: { gamma: 0.7, beta: 0.2 },
  paper: 'Qwen3-8B',
  note: 'free text',
};
const parse = (entry: object) => parseModelsFile(JSON.stringify({ models: [entry] }), 'models.json').models[0]!;

test('every field a models-file entry can produce is classified as answer, label or transport', () => {
  const spec = parse(full);
  const unclassified = Object.keys(spec).filter((k) => !(k in FIELD_ROLES));
  assert.deepEqual(unclassified, []);
  assert.deepEqual(
    Object.entries(FIELD_ROLES)
      .filter(([, r]) => r === 'answer')
      .map(([k]) => k)
      .sort(),
    ['independentSamples', 'modelId', 'params'],
  );
});

test('the ModelRef holds the id, every sampling param, the sample rule and the seed rule, and nothing else', () => {
  assert.deepEqual(modelRef(parse(full)), {
    name: 'my-med-llm',
    simulated: false,
    model: 'org/my-med-llm',
    params: { temperature: 0.6, max_tokens: 4096 },
    independentSamples: true,
    seedRule: SEED_RULE,
  });
  assert.deepEqual(evaluatedModel(parse(full)).paper, 'Qwen3-8B');
  // Defaults: the id is the name, no params, independent samples.
  assert.deepEqual(modelRef(parse({ name: 'm', baseURL: 'http://127.0.0.1:1/v1', roles: ['evaluated'] })), {
    name: 'm',
    simulated: false,
    model: 'm',
    params: {},
    independentSamples: true,
    seedRule: SEED_RULE,
  });
});

test('changing a transport field leaves the ref (and so every key) unchanged; changing an answer field does not', () => {
  const base = hashValue(modelRef(parse(full)));
  const transport: Record<string, unknown> = {
    baseURL: 'http://10.0.0.1:9000/v1',
    apiKeyEnv: 'OTHER_KEY',
    contextWindow: 32768,
    concurrency: 1,
    rpm: 1,
    tpm: 1,
    price: { inputPerMTok: 5, outputPerMTok: 15 },
    batch: true,
    timeoutMs: 1000,
    expectedOutputTokens: 1,
    note: 'moved',
    paper: 'Qwen3-32B',
    judge: { gamma: 0.5, beta: 0.1 },
  };
  for (const [k, v] of Object.entries(transport)) assert.equal(hashValue(modelRef(parse({ ...full, [k]: v }))), base, k);
  const answer: Record<string, unknown> = {
    model: 'org/my-med-llm-v2',
    params: { temperature: 0.6, max_tokens: 2048 },
    independentSamples: false,
  };
  for (const [k, v] of Object.entries(answer)) assert.notEqual(hashValue(modelRef(parse({ ...full, [k]: v }))), base, k);
});
