// One call cache for every store of a project: a second store whose models file differs from
// the first's in one model's max_tokens sends only that model's requests, and each store's
// llm_calls view shows the calls its own run used, every one with its role.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAIServer } from '../../pipeline/llm/testing/fake-openai-server.ts';
import { plainAnswer } from './testing/plain-model.ts';
import { runCdp } from '../../pipeline/testing/cdp-process.ts';

test('two stores, one model changed: the second store sends only that model’s requests; each view shows its own calls, all with a role', async () => {
  const server = await startFakeOpenAIServer({ answer: (b) => plainAnswer(b, { steps: 2, questions: 1 }) });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'cdp-two-stores-'));
    // Both stores share the project's one cache (as they do by default, under data/llm-cache).
    const cache = join(dir, 'llm-cache');
    const modelsFile = (name: string, maxTokens: number) => {
      const file = join(dir, name);
      const model = (n: string, id: string, roles: string[], extra = {}) => ({
        name: n,
        baseURL: server.url,
        model: id,
        roles,
        contextWindow: 1_000_000,
        ...extra,
      });
      writeFileSync(
        file,
        JSON.stringify({
          models: [
            model('my-med-llm', 'org/my-med-llm', ['evaluated'], { params: { max_tokens: maxTokens } }),
            model('baseline-7b', 'org/baseline-7b', ['evaluated']),
            model('judge-x', 'org/judge', ['judge']),
            model('patient-x', 'org/patient', ['patient']),
          ],
        }),
      );
      return file;
    };
    const run = async (store: string, file: string) => {
      const env = { CDP_STORE: join(dir, store), CDP_LLM_CACHE: cache, CDP_NO_FAST_PATH: '' };
      const r = await runCdp(['run', '--models', file, '--limit', '3'], env);
      assert.equal(r.code, 0, r.stderr);
      return env;
    };
    const sql = async (env: NodeJS.ProcessEnv, q: string) => {
      const r = await runCdp(['sql', q, '--json'], env);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as Record<string, unknown>[];
    };

    const a = await run('store-a', modelsFile('a.json', 512));
    const first = { ...server.counters.byModel };
    assert.deepEqual(Object.keys(first).sort(), ['org/baseline-7b', 'org/judge', 'org/my-med-llm', 'org/patient']);

    server.resetCounters();
    const b = await run('store-b', modelsFile('b.json', 1024));
    // The doctor's answers do not depend on max_tokens here, so the judge's and the patient's
    // prompts are the same as in store A's run: served from the shared cache too.
    assert.deepEqual(server.counters.byModel, { 'org/my-med-llm': first['org/my-med-llm'] }, 'only the changed model is asked');
    assert.ok(server.requests.every((r) => r.max_tokens === 1024));

    // Each store's view: the calls its run used — store B's includes the ones store A made.
    const byModel = `select model, count(*)::int as n, count(role)::int as with_role from llm_calls group by model order by model`;
    const viewA = await sql(a, byModel);
    const viewB = await sql(b, byModel);
    assert.deepEqual(
      viewB.map((r) => r.model),
      ['baseline-7b', 'judge-x', 'my-med-llm', 'patient-x'],
    );
    assert.deepEqual(viewA, viewB, 'the same calls by model (B’s my-med-llm calls are its own, the rest copied from A’s)');
    for (const r of [...viewA, ...viewB]) assert.equal(r.with_role, r.n, `${String(r.model)}: every call has its role`);
    const roles = await sql(b, `select model, string_agg(distinct role, ',') as roles from llm_calls group by model order by model`);
    assert.deepEqual(roles, [
      { model: 'baseline-7b', roles: 'evaluated' },
      { model: 'judge-x', roles: 'judge' },
      { model: 'my-med-llm', roles: 'evaluated' },
      { model: 'patient-x', roles: 'patient' },
    ]);
    // Store A's view does not show store B's new calls.
    const countA = await sql(a, `select count(*)::int as n from llm_calls where model = 'my-med-llm'`);
    const mineA = await sql(a, `select count(distinct key)::int as n from llm_calls where model = 'my-med-llm'`);
    assert.deepEqual(countA, mineA);
    assert.equal(countA[0].n, first['org/my-med-llm']);
  } finally {
    await server.close();
  }
});
