// The models file's schema (zod): every problem the hand-written validator reported is reported,
// each naming the file, the model and the field, word for word; the inputs issue 21 found accepted
// (a shell command after a base URL, names with a newline, a path or SQL, two names equal up to
// case) are refused with a reason; a byte order mark is accepted; and the committed JSON Schema
// (models/models.schema.json, which a models file names in `$schema`) is the one the schema writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModelsFileError, parseModelsFile } from './models-file.ts';
import { modelsJsonSchema, ROLES } from './models-schema.ts';
import { PAPER_MODEL_NAMES } from './paper-names.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const base = { name: 'my-med-llm', baseURL: 'http://127.0.0.1:8000/v1', roles: ['evaluated'] };
const KNOWN =
  'name, baseURL, model, roles, apiKeyEnv, params, contextWindow, concurrency, rpm, tpm, price, batch, timeoutMs, retry, independentSamples, expectedOutputTokens, enabled, judge, paper, note';
const M = 'models.json: model "my-med-llm" (entry 1): field';
const NAME_RULE =
  'has characters a name may not have: a name labels tables, figures and file names, so it holds only letters, digits, spaces and . _ - + ( ) : @, starting with a letter or digit (the id the server knows goes in "model")';

function refusal(text: string): string {
  try {
    parseModelsFile(text, 'models.json');
  } catch (err) {
    assert.ok(err instanceof ModelsFileError, String(err));
    return err.message;
  }
  assert.fail(`accepted: ${text}`);
}

// [the one entry of a models file, the whole message it gets]
const ENTRIES: [unknown, string][] = [
  // What the hand-written validator reported, as clearly or more.
  [{ ...base, baseUrl: 'x' }, `${M} "baseUrl": unknown key (did you mean "baseURL"?); known: ${KNOWN}`],
  [{ ...base, roles: ['evaluated', 'doctor'] }, `${M} "roles": unknown role "doctor"; roles are builder, evaluated, patient, judge`],
  [{ ...base, roles: [] }, `${M} "roles": missing or empty: a list of any of builder, evaluated, patient, judge`],
  [{ ...base, roles: 'judge' }, `${M} "roles": must be a list of any of builder, evaluated, patient, judge, got "judge"`],
  [
    { name: 'm', roles: ['judge'] },
    `models.json: model "m" (entry 1): field "baseURL": missing: the server's OpenAI-compatible base URL, e.g. "http://127.0.0.1:8000/v1"`,
  ],
  [{ ...base, baseURL: 'localhost:8000' }, `${M} "baseURL": "localhost:8000" is not an http(s) URL, e.g. "http://127.0.0.1:8000/v1"`],
  [{ ...base, baseURL: [] }, `${M} "baseURL": an empty list: give at least one URL`],
  [{ ...base, baseURL: 8000 }, `${M} "baseURL": must be a URL or a list of replicas' URLs, got 8000`],
  [
    { baseURL: base.baseURL, roles: ['judge'] },
    'models.json: entry 1: field "name": missing or empty: every model needs the name its tables show',
  ],
  [{ ...base, name: '   ' }, 'models.json: entry 1: field "name": missing or empty: every model needs the name its tables show'],
  [
    { ...base, name: 'simulated-me' },
    'models.json: model "simulated-me" (entry 1): field "name": "simulated" is reserved for the offline stand-ins, so no reader mistakes one for the other',
  ],
  [
    { ...base, roles: ['judge'], judge: { gamma: 1.5 } },
    `${M} "judge": "gamma" must be a number in (0, 1] (the LNDS matching threshold on C), got 1.5`,
  ],
  [
    { ...base, roles: ['judge'], judge: { gamma: 0.7, beta: -1 } },
    `${M} "judge": "beta" must be a finite number ≥ 0 (the OT positional weight), got -1`,
  ],
  [
    { ...base, roles: ['judge'], judge: { threshold: 0.7 } },
    `${M} "judge": unknown key "threshold"; a judge's calibration has "gamma" (LNDS threshold) and "beta" (OT positional weight)`,
  ],
  [{ ...base, roles: ['judge'], judge: 0.7 }, `${M} "judge": must be {"gamma": number in (0, 1], "beta": number ≥ 0}`],
  [
    { ...base, judge: { gamma: 0.7 } },
    `${M} "judge": a calibration for a model without the "judge" role; add "judge" to roles or drop the field`,
  ],
  [{ ...base, contextWindow: '32k' }, `${M} "contextWindow": must be a positive integer, got "32k"`],
  [{ ...base, concurrency: 0 }, `${M} "concurrency": must be a positive integer, got 0`],
  [{ ...base, timeoutMs: 1.5 }, `${M} "timeoutMs": must be a positive integer, got 1.5`],
  [{ ...base, price: { input: 1 } }, `${M} "price": must be {"inputPerMTok": USD, "outputPerMTok": USD} with numbers ≥ 0, got {"input":1}`],
  [
    { ...base, price: { inputPerMTok: -1, outputPerMTok: 0 } },
    `${M} "price": must be {"inputPerMTok": USD, "outputPerMTok": USD} with numbers ≥ 0, got {"inputPerMTok":-1,"outputPerMTok":0}`,
  ],
  [
    { ...base, apiKeyEnv: 'sk-live-0123456789abcdef' },
    `${M} "apiKeyEnv": must be the NAME of an environment variable (e.g. "OPENAI_API_KEY"), not a key`,
  ],
  [{ ...base, params: { messages: [] } }, `${M} "params": "messages" is set by the client, not a sampling parameter`],
  [{ ...base, params: [0.6] }, `${M} "params": must be an object of sampling parameters, e.g. {"temperature": 0.6, "max_tokens": 4096}`],
  [{ ...base, paper: 'GPT-9' }, `${M} "paper": "GPT-9" is not a model of the paper; known: ${PAPER_MODEL_NAMES.join(', ')}`],
  [{ ...base, batch: 'yes' }, `${M} "batch": must be true or false, got "yes"`],
  [{ ...base, model: '' }, `${M} "model": must be a non-empty string, got ""`],
  [{ ...base, note: 3 }, `${M} "note": must be a non-empty string, got 3`],
  ['my-med-llm', 'models.json: entry 1: must be an object with at least "name", "baseURL" and "roles"'],
  // The LLM client's retry settings (H1's validator's messages).
  [{ ...base, retry: 5 }, `${M} "retry": must be {"waitForServerMs": integer ≥ 0, "maxAttempts": integer ≥ 1}, got 5`],
  [
    { ...base, retry: { waitForServer: 1000 } },
    `${M} "retry": unknown key "waitForServer" (did you mean "waitForServerMs"?); known: waitForServerMs, maxAttempts`,
  ],
  [{ ...base, retry: { waitForServerMs: -1 } }, `${M} "retry": "waitForServerMs" must be an integer of milliseconds ≥ 0, got -1`],
  [{ ...base, retry: { maxAttempts: 0 } }, `${M} "retry": "maxAttempts" must be an integer ≥ 1, got 0`],
  // Issue 21: accepted before, refused now.
  [
    { ...base, baseURL: 'http://127.0.0.1:18000/v1 ; rm -rf /' },
    `${M} "baseURL": "http://127.0.0.1:18000/v1 ; rm -rf /" is not a usable http(s) URL: it holds spaces or control characters`,
  ],
  [
    { ...base, baseURL: ['http://gpu1:8000/v1', 'file:///etc/passwd'] },
    `${M} "baseURL": "file:///etc/passwd" is not an http(s) URL, e.g. "http://127.0.0.1:8000/v1"`,
  ],
  [
    { ...base, baseURL: 'http://user:sk-123@gpu1:8000/v1' },
    `${M} "baseURL": "http://user:sk-123@gpu1:8000/v1" is not a usable http(s) URL: it holds credentials, which would be written to logs; put the key in the variable apiKeyEnv names`,
  ],
  [
    { ...base, baseURL: 'http://gpu1:8000/v1?key=1' },
    `${M} "baseURL": "http://gpu1:8000/v1?key=1" is not a usable http(s) URL: it has a query or fragment; a base URL is where /chat/completions is appended`,
  ],
  [{ ...base, name: 'my\nmodel' }, `models.json: model "my\\nmodel" (entry 1): field "name": "my\\nmodel" ${NAME_RULE}`],
  [{ ...base, name: '../../..' }, `models.json: model "../../.." (entry 1): field "name": "../../.." ${NAME_RULE}`],
  [{ ...base, name: '";--' }, `models.json: model "\\";--" (entry 1): field "name": "\\";--" ${NAME_RULE}`],
  [{ ...base, name: 'Qwen/Qwen3-8B' }, `models.json: model "Qwen/Qwen3-8B" (entry 1): field "name": "Qwen/Qwen3-8B" ${NAME_RULE}`],
  [{ ...base, model: 'org/m\r\n' + 'x' }, `${M} "model": "org/m\\r\\nx" holds control characters; give the id the server lists`],
];

test('each bad entry gets one message naming the file, the model and the field', () => {
  for (const [entry, message] of ENTRIES) assert.equal(refusal(JSON.stringify({ models: [entry] })), message, JSON.stringify(entry));
});

test('the file as a whole: broken JSON, wrong shapes, unknown keys, duplicate names, names equal up to case', () => {
  const cases: [string, string][] = [
    ['{"models": [ {"name": "a",} ]}', 'models.json: not valid JSON: Expected double-quoted property name in JSON at position 26'],
    ['5', 'models.json: must be a JSON object {"models": [...]} or an array of models'],
    ['{"simulated": true}', 'models.json: "models" must be an array of model entries'],
    ['{"simulated": "yes", "models": []}', 'models.json: "simulated" must be true or false, got "yes"'],
    [
      '{"model": [], "models": []}',
      'models.json: unknown top-level key "model" (did you mean "models"?); known: models, simulated, $schema, description',
    ],
    [
      JSON.stringify({ models: [base, { ...base, model: 'other' }] }),
      'models.json: model "my-med-llm" (entry 2): field "name": entry 1 has the same name; names label every table, so they must be unique',
    ],
    [
      JSON.stringify({
        models: [
          { ...base, name: 'a' },
          { ...base, name: 'A' },
        ],
      }),
      `models.json: model "A" (entry 2): field "name": entry 1 is named "a", the same up to case; DuckDB's column names and the file names of macOS and Windows ignore case, so tables would merge the two: rename one`,
    ],
  ];
  for (const [text, message] of cases) assert.equal(refusal(text), message, text);
});

test('all problems at once, top-level first, then entry by entry in field order', () => {
  const text = JSON.stringify({
    model: [],
    models: [{ ...base, roles: ['x'], contextWindow: -1 }, { name: 'b' }, { ...base, name: 'B' }],
  });
  assert.equal(
    refusal(text),
    [
      'models.json: 6 problems:',
      'unknown top-level key "model" (did you mean "models"?); known: models, simulated, $schema, description',
      'model "my-med-llm" (entry 1): field "roles": unknown role "x"; roles are builder, evaluated, patient, judge',
      'model "my-med-llm" (entry 1): field "contextWindow": must be a positive integer, got -1',
      `model "b" (entry 2): field "baseURL": missing: the server's OpenAI-compatible base URL, e.g. "http://127.0.0.1:8000/v1"`,
      'model "b" (entry 2): field "roles": missing or empty: a list of any of builder, evaluated, patient, judge',
      `model "B" (entry 3): field "name": entry 2 is named "b", the same up to case; DuckDB's column names and the file names of macOS and Windows ignore case, so tables would merge the two: rename one`,
    ].join('\n  - '),
  );
});

test('a UTF-8 byte order mark (Windows editors write one) is accepted; a bare array is the models list', () => {
  const bom = '\uFEFF' + JSON.stringify({ $schema: './models.schema.json', models: [base] });
  assert.deepEqual(
    parseModelsFile(bom, 'models.json').models.map((m) => m.name),
    ['my-med-llm'],
  );
  assert.deepEqual(
    parseModelsFile('\uFEFF' + JSON.stringify([base]), 'models.json').models.map((m) => m.baseURLs),
    [['http://127.0.0.1:8000/v1']],
  );
  // Names of the paper and of real servers pass the character rule.
  const names = ['Qwen3-8B (ours)', 'gpt-5.4-mini', 'LLaMA-3.3-70B-Instruct', 'judge_v2+ft', 'llama3:8b', '通义千问-7B'];
  const f = parseModelsFile(JSON.stringify({ models: names.map((name) => ({ ...base, name })) }), 'models.json');
  assert.deepEqual(
    f.models.map((m) => m.name),
    names,
  );
});

test('models/models.schema.json is the JSON Schema the zod schema writes, and the paper roster names it', () => {
  const committed = JSON.parse(readFileSync(join(repo, 'models', 'models.schema.json'), 'utf8')) as Record<string, unknown>;
  assert.deepEqual(committed, modelsJsonSchema(), 'regenerate it: npx tsx scripts/write-models-schema.ts');
  const entry = (committed.properties as { models: { items: Record<string, { required?: string[] } & Record<string, unknown>> } }).models
    .items;
  assert.deepEqual(entry.required, ['name', 'baseURL', 'roles']);
  assert.equal(entry.additionalProperties, false);
  const props = entry.properties as unknown as Record<string, { items?: { enum?: string[] }; enum?: string[] }>;
  assert.deepEqual(props.roles.items?.enum, [...ROLES]);
  assert.deepEqual(props.paper.enum, [...PAPER_MODEL_NAMES]);
  const paper = JSON.parse(readFileSync(join(repo, 'models', 'paper.json'), 'utf8')) as { $schema?: string };
  assert.equal(paper.$schema, './models.schema.json');
});
