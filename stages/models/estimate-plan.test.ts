// `cdp estimate` knows what it does not know, against a local server that builds the benchmark,
// answers the evaluation prompts and lists a small window for one model: on a fresh store it
// says it assumes every test case passes QC (QC needs the builder's vignettes) and that the
// evaluated model's window is assumed; after `cdp models --check` it uses the window the server
// reported and counts the prompts over it; once the construction stages are in the store it
// counts the real test cases. Its output is a plan, never a run's "ran, N rows computed" lines.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCdp } from '../../pipeline/testing/cdp-process.ts';
import { plainAnswer, promptKind } from './testing/plain-model.ts';
import type { ChatBody } from '../../pipeline/llm/testing/fake-openai-server.ts';
import { createHash } from 'node:crypto';
import { writeVignette } from '../agents/writers/vignette-writer.ts';
import { writeNarrative } from '../agents/writers/narrative-writer.ts';
import { readConditionPathPrompt, readNarrativePrompt } from '../construct/prompt-inputs.ts';

/**
 * What the builder writes: for about half the cases a vignette that reflects the pathway (the
 * offline writer's, from the prompt alone) and for the others one too vague for QC; a narrative
 * of the path's steps; a clean inspection. So QC leaves fewer test cases than the estimate's
 * stand-ins would.
 */
function answer(body: ChatBody): string {
  const text = body.messages[0]?.content ?? '';
  if (text.includes('"consistent": true|false')) return '{"consistent": true, "problems": []}';
  switch (promptKind(body)) {
    case 'case-vignette-synthesis':
      if (createHash('sha256').update(text).digest()[0] % 2) return writeVignette(readConditionPathPrompt(text)).vignette;
      return 'The patient is an adult seen in clinic. The clinical question concerns the next step of care.';
    case 'reasoning-narrative-conversion':
      return JSON.stringify(writeNarrative(readNarrativePrompt(text).cdp).steps);
    default:
      return plainAnswer(body);
  }
}

/** An OpenAI-compatible server that lists its models' windows (vLLM's max_model_len) and answers chats. */
async function server(windows: Record<string, number>): Promise<{ url: string; chats: () => number; server: Server }> {
  let chats = 0;
  const s = createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method === 'GET' && req.url === '/v1/models') {
        res.end(
          JSON.stringify({ object: 'list', data: Object.entries(windows).map(([id, w]) => ({ id, object: 'model', max_model_len: w })) }),
        );
        return;
      }
      chats++;
      const body = JSON.parse(raw) as ChatBody;
      const content = answer(body);
      res.end(
        JSON.stringify({
          id: `c${chats}`,
          object: 'chat.completion',
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
    });
  });
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/v1`, chats: () => chats, server: s };
}

interface EstimateJson {
  total: { requests: number; overflows: number };
  rows: { stage: string; model: string; calls: number; overflows: number }[];
  assumptions: string[];
  windows: { model: string; window: number; source: string }[];
}

test('cdp estimate: assumptions on a fresh store, the server-reported window, real test cases once construction is cached', async () => {
  const srv = await server({ 'org/my-med-llm': 2048, 'org/builder': 131072, 'org/judge': 131072, 'org/patient': 131072 });
  after(() => srv.server.close());
  const dir = mkdtempSync(join(tmpdir(), 'cdp-estimate-plan-'));
  const store = join(dir, 'store');
  const modelsFile = join(dir, 'models.json');
  const model = (name: string, roles: string[], extra = {}) => ({ name, baseURL: srv.url, model: `org/${name}`, roles, ...extra });
  writeFileSync(
    modelsFile,
    JSON.stringify({
      models: [
        model('builder', ['builder'], { contextWindow: 131072 }),
        // No window declared: 32768 is assumed until the server is asked.
        model('my-med-llm', ['evaluated']),
        model('judge', ['judge'], { contextWindow: 131072 }),
        model('patient', ['patient'], { contextWindow: 131072 }),
      ],
    }),
  );
  const env = { CDP_STORE: store, CDP_NO_FAST_PATH: '1' };
  const cdp = (args: string[]) => runCdp([...args, '--models', modelsFile], env);
  const estimate = async (): Promise<EstimateJson> => {
    const r = await cdp(['estimate', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /: (ran|reused)(, \d+ rows computed)?/, 'no run lines');
    return JSON.parse(r.stdout) as EstimateJson;
  };

  // A fresh store: QC would judge vignettes the builder has not written.
  const fresh = await estimate();
  assert.equal(srv.chats(), 0, 'an estimate sends nothing');
  assert.equal(existsSync(store), false, 'and stores nothing');
  const assumed =
    /^assumes all (\d+) test cases pass QC; QC needs the vignettes, which builder has not written yet \(the estimate stood in for it in vignettes, .*\): after `cdp run test_cases` builds the benchmark, the estimate counts the real test cases$/.exec(
      fresh.assumptions[0],
    );
  assert.ok(assumed, fresh.assumptions.join('\n'));
  assert.deepEqual(
    fresh.windows.map((w) => [w.model, w.window, w.source]),
    [
      ['builder', 131072, 'declared'],
      ['my-med-llm', 32768, 'assumed'],
      ['judge', 131072, 'declared'],
      ['patient', 131072, 'declared'],
    ],
  );
  assert.ok(
    fresh.assumptions.includes(
      "window my-med-llm: 32768 tokens, assumed (none declared or checked): run cdp models --check to read the server's",
    ),
  );
  const text = await cdp(['estimate']);
  assert.match(text.stdout, /^assumptions:\n {2}- assumes all \d+ test cases pass QC;/);
  assert.match(
    text.stdout,
    /\nplan \(nothing was sent or stored; identical requests count once\):\nstage +model +requests +input tokens +output tokens +cost \(USD\) +overflows\n/,
  );

  // The server's window, read once, is used from then on.
  const check = await cdp(['models', '--check']);
  assert.equal(check.code, 0, check.stdout);
  assert.match(check.stdout, /my-med-llm .* 2048 \(server\) /);
  const recorded = JSON.parse(readFileSync(join(store, 'model-windows.json'), 'utf8')) as { modelId: string; window: number }[];
  assert.deepEqual(recorded.map((w) => [w.modelId, w.window]).sort(), [
    ['org/builder', 131072],
    ['org/judge', 131072],
    ['org/my-med-llm', 2048],
    ['org/patient', 131072],
  ]);
  const checked = await estimate();
  assert.deepEqual(
    checked.windows.find((w) => w.model === 'my-med-llm'),
    {
      model: 'my-med-llm',
      window: 2048,
      source: 'server',
      server: checked.windows.find((w) => w.model === 'my-med-llm')!['server' as never],
    },
  );
  assert.match(
    checked.assumptions.find((a) => a.startsWith('window my-med-llm'))!,
    /^window my-med-llm: 2048 tokens, read from the server by cdp models --check, \d{4}-\d\d-\d\d \d\d:\d\d$/,
  );
  const over = checked.rows.filter((r) => r.model === 'my-med-llm').reduce((n, r) => n + r.overflows, 0);
  assert.ok(over > 0, 'prompts with a guideline do not fit 2048 tokens: counted as overflows');
  assert.equal(
    fresh.rows.filter((r) => r.model === 'my-med-llm').reduce((n, r) => n + r.overflows, 0),
    0,
    'none foreseen with the assumed window',
  );
  assert.equal(checked.total.overflows, over);

  // The benchmark built: the estimate counts its test cases.
  const built = await cdp(['run', 'test_cases']);
  assert.equal(built.code, 0, built.stderr);
  const real = await cdp(['sql', 'select count(*)::int as n from test_cases', '--json']);
  const n = (JSON.parse(real.stdout) as { n: number }[])[0].n;
  const cached = await estimate();
  assert.equal(cached.assumptions[0], `${n} test cases, counted: the benchmark is built`);
  assert.ok(!cached.assumptions.some((a) => a.startsWith('assumes')), cached.assumptions.join('\n'));
  assert.ok(n > 0 && n < Number(assumed[1]), `QC left ${n} of the ${assumed[1]} test cases the stand-ins' vignettes would pass`);
  // The plan follows the real test set: the evaluated model is asked about its cases only.
  const single = (e: EstimateJson) => e.rows.find((r) => r.stage === 'predictions_single' && r.model === 'my-med-llm');
  assert.ok((single(cached)?.calls ?? 0) + (single(cached)?.overflows ?? 0) <= n);
});
