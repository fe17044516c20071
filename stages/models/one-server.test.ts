// `CDP_LLM_BASE_URL` + `CDP_LLM_MODEL`: the bundled DAG run through `cdp` against one
// OpenAI-compatible server on 127.0.0.1, which replaces every offline stand-in. The server here
// answers with the same offline writers, so the expected results are known exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAIServer, type ChatBody } from '../../pipeline/llm/testing/fake-openai-server.ts';
import { createCuratedBuilderHandler } from '../agents/curated-builder.ts';
import { offlineVignetteWriter, offlineNarrativeWriter } from '../agents/writers/offline-writers.ts';
import type { ChatRequest } from '../../pipeline/llm/types.ts';
import { runCdp } from '../../pipeline/testing/cdp-process.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const KEY = 'sk-test-secret-value-0123456789';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const cdp = (args: string[], env: NodeJS.ProcessEnv) => runCdp(args, env);

test('one server for every role: the construction DAG over HTTP, the key written nowhere, a rerun sends nothing', async () => {
  const builder = createCuratedBuilderHandler();
  const server = await startFakeOpenAIServer({
    async answer(body: ChatBody) {
      const req = { model: body.model, messages: body.messages } as ChatRequest;
      const prompt = body.messages[0].content;
      if (prompt.includes('convert it into a decision tree represented as a JSON object')) return builder(req);
      if (prompt.includes('convert this clinical decision path into a single, coherent')) return offlineVignetteWriter(req);
      if (prompt.includes('produce a single JSON array of strings')) return offlineNarrativeWriter(req);
      if (prompt.includes('You are a medical expert reviewing a benchmark case')) return '{"consistent": true, "problems": []}';
      throw new Error(`unexpected prompt: ${prompt.slice(0, 80)}`);
    },
  });
  try {
    const store = mkdtempSync(join(tmpdir(), 'cdp-one-server-'));
    // The sample's documents without its trees: every tree is asked of the builder.
    const corpus = mkdtempSync(join(tmpdir(), 'cdp-one-server-corpus-'));
    cpSync(join(repo, 'data', 'sample', 'guidelines'), join(corpus, 'guidelines'), { recursive: true });
    const env = {
      CDP_STORE: store,
      CDP_LLM_BASE_URL: server.url,
      CDP_LLM_MODEL: 'local-model',
      CDP_LLM_API_KEY: KEY,
      CDP_LLM_CONTEXT_WINDOW: '1000000',
    };
    const first = await cdp(['run', 'qc_summary', '--json', '--corpus', corpus], env);
    assert.equal(first.code, 0, first.stderr);
    const byStage = Object.fromEntries(
      (JSON.parse(first.stdout) as { stages: { stage: string; llmCalls: number; counters: Record<string, number> }[] }).stages.map((s) => [
        s.stage,
        s,
      ]),
    );
    assert.equal(byStage.trees.llmCalls, 6);
    assert.equal(byStage.vignettes.llmCalls, 87);
    assert.equal(byStage.narratives.llmCalls, 87);
    assert.equal(
      byStage.trees.counters.offline + byStage.vignettes.counters.offline + byStage.narratives.counters.offline,
      0,
      'no stand-in answered',
    );
    // Identical prompts in flight at once share one request (two paths with the same conditions
    // and outcomes but different conclusions give the same Prompt 2).
    // With a real builder configured, the seeded QC sample is inspected by it too.
    assert.ok(byStage.qc_inspection.llmCalls >= 1, 'the QC sample was inspected');
    const requests = server.counters.chat;
    const calls = 180 + byStage.qc_inspection.llmCalls;
    assert.ok(requests <= calls && requests >= calls - 10, `requests: ${requests} for ${calls} calls`);
    assert.ok(
      server.authHeaders.every((h) => h === `Bearer ${KEY}`),
      'the key from the environment is sent',
    );

    const sql = async (q: string) => JSON.parse((await cdp(['sql', q, '--json'], env)).stdout) as Record<string, unknown>[];
    assert.deepEqual(await sql(`select distinct builder from trees`), [{ builder: 'local-model' }]);
    assert.deepEqual(await sql(`select distinct generator from vignettes`), [{ generator: 'local-model' }]);
    assert.deepEqual(
      await sql(`select count(distinct key)::int as n, count(distinct model)::int as models from llm_calls where status = 'ok'`),
      [{ n: requests, models: 1 }],
    );
    // Every logged call says the role it was made in: the construction stages' are the builder's.
    assert.deepEqual(await sql(`select role, count(*)::int as n from llm_calls group by role`), [{ role: 'builder', n: requests }]);
    assert.deepEqual(await sql(`select value from qc_summary where measure = 'vignette problem rate'`), [{ value: 0 }]);
    assert.deepEqual(
      await sql(`select value::int as n from qc_summary where measure = 'instances inspected by an LLM'`),
      await sql(`select count(*)::int as n from qc where inspect`),
    );

    for (const f of filesUnder(store)) assert.ok(!readFileSync(f).includes(KEY), `the API key was written to ${f}`);

    server.resetCounters();
    const again = await cdp(['run', 'qc_summary', '--force', '--json'], env);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(server.counters.chat, 0, 'a forced rerun is served from the call cache');
  } finally {
    await server.close();
  }
});
