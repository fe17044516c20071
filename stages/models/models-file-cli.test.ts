// The models file as `cdp` reads it: `cdp run --dry-run` refuses a bad one as `cdp run` does, a
// directory given to --models is a problem naming it (not an EISDIR stack trace), a file saved
// with a byte order mark is read, and `cdp models` lists a roster with problems instead of refusing it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCdp } from '../../pipeline/testing/cdp-process.ts';

const cdp = (args: string[], env: NodeJS.ProcessEnv) => runCdp(args, { CDP_NO_FAST_PATH: '1', ...env });
const model = { name: 'my-med-llm', baseURL: 'http://127.0.0.1:9/v1', roles: ['evaluated'] };

test('cdp run --dry-run refuses a bad models file with the same message as cdp run, and runs nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-models-dry-'));
  const file = join(dir, 'models.json');
  writeFileSync(file, JSON.stringify({ models: [{ ...model, baseURL: 'http://127.0.0.1:18000/v1 ; rm -rf /' }] }));
  const env = { CDP_STORE: join(dir, 'store') };
  const dry = await cdp(['run', '--dry-run', '--models', file], env);
  const run = await cdp(['run', '--models', file], env);
  for (const r of [dry, run]) {
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /nothing was run:\n {2}- \S*models\.json: model "my-med-llm" \(entry 1\): field "baseURL": "http:\/\/127\.0\.0\.1:18000\/v1 ; rm -rf \/" is not a usable http\(s\) URL: it holds spaces or control characters\n/,
    );
  }
  assert.equal(dry.stderr, run.stderr);
  assert.equal(existsSync(join(dir, 'store', 'ledger.json')), false, 'nothing ran');
});

test('--models DIR is a problem naming the directory and the file inside it; no stack trace', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-models-dir-'));
  const folder = join(dir, 'models');
  mkdirSync(folder);
  writeFileSync(join(folder, 'models.json'), JSON.stringify({ models: [model] }));
  const env = { CDP_STORE: join(dir, 'store') };
  const run = await cdp(['run', '--models', folder], env);
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    new RegExp(
      `- models file ${folder} is a directory \\(--models, CDP_MODELS or the store's record\\); give the JSON file itself, e\\.g\\. ${folder}/models\\.json\\n`,
    ),
  );
  assert.doesNotMatch(run.stderr, /EISDIR|\n {4}at /);
  const listed = await cdp(['models', '--json', '--models', folder], env);
  assert.equal(listed.code, 1);
  assert.deepEqual((JSON.parse(listed.stdout) as { problems: string[] }).problems, [
    `models file ${folder} is a directory (--models, CDP_MODELS or the store's record); give the JSON file itself, e.g. ${folder}/models.json`,
  ]);
});

test('a models file saved with a UTF-8 byte order mark is read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-models-bom-'));
  const file = join(dir, 'models.json');
  // A whole roster (one model in every role), so that the configuration has no problem but the BOM.
  const roles = ['evaluated', 'judge', 'patient'];
  writeFileSync(file, '\uFEFF' + JSON.stringify({ $schema: './models.schema.json', models: [{ ...model, roles, contextWindow: 65536 }] }));
  const listed = await cdp(['models', '--json', '--models', file], { CDP_STORE: join(dir, 'store') });
  assert.equal(listed.code, 0, listed.stderr);
  const out = JSON.parse(listed.stdout) as { models: { name: string; contextWindow: number }[]; problems: string[] };
  assert.deepEqual(
    out.models.map((m) => [m.name, m.contextWindow]),
    [['my-med-llm', 65536]],
  );
  assert.deepEqual(out.problems, []);
});

test('cdp models lists a roster whose configuration has problems (a role nobody plays), with its problems; cdp run refuses it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-models-problems-'));
  const file = join(dir, 'models.json');
  // An evaluated model and nobody to judge or play the patient: the DAG cannot be built (no judges).
  writeFileSync(file, JSON.stringify({ models: [{ ...model, model: 'org/my-med-llm', contextWindow: 65536 }] }));
  const env = { CDP_STORE: join(dir, 'store') };
  const listed = await cdp(['models', '--json', '--models', file], env);
  assert.equal(listed.code, 1, listed.stderr);
  const out = JSON.parse(listed.stdout) as { models: { name: string; active: boolean }[]; problems: string[] };
  assert.deepEqual(
    out.models.map((m) => [m.name, m.active]),
    [['my-med-llm', true]],
  );
  assert.equal(out.problems.length, 2, out.problems.join('\n'));
  assert.match(out.problems[0]!, /declares evaluated models \(my-med-llm\) but no patient: add "patient" to the roles of a chat model/);
  assert.match(out.problems[1]!, /declares evaluated models \(my-med-llm\) but no judge: add "judge" to the roles of a chat model/);
  const text = await cdp(['models', '--models', file], env);
  assert.equal(text.code, 1, text.stderr);
  assert.match(text.stdout, /^my-med-llm +evaluated +yes /m);
  assert.match(text.stdout, /^problem: .*but no judge: /m);
  const run = await cdp(['run', '--models', file], env);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /but no judge: /);
  assert.equal(existsSync(join(dir, 'store', 'ledger.json')), false, 'nothing ran');
});
