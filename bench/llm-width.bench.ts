/**
 * Stage width from the models (issue 23 items 1 and 7): a row stage crossing live models, wired
 * with the widths stages/models/stage-width.ts derives from their declared concurrency, against a
 * local server with 100 ms latency (its own process). The DAG's request rate is set beside the
 * issue's target, 0.8 × min(declared concurrency, units waiting) ÷ latency, per case; the server's
 * most requests in flight at once is checked against the sum of the declared concurrency.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DagConfig } from '../pipeline/dag/define.ts';
import { resolveDag } from '../pipeline/dag/validate.ts';
import { runDag, type LlmLike } from '../pipeline/exec/executor.ts';
import { workspaceFor } from '../pipeline/exec/workspace.ts';
import { createLlmClient } from '../pipeline/llm/client.ts';
import type { ModelSpec } from '../pipeline/llm/types.ts';
import { crossedWidth } from '../stages/models/stage-width.ts';
import type { BenchReport, BenchRow } from './report.ts';
import { startFakeServerProcess } from '../pipeline/llm/testing/fake-server-process.ts';

const here = dirname(fileURLToPath(import.meta.url));
const LATENCY_MS = 100;
const TESTING = join(here, '..', 'stages', 'models', 'testing');

/** The cases: each model's declared concurrency and the rows (one unit per row × model). */
const CASES: { name: string; models: Record<string, number>; rows: number }[] = [
  { name: 'one model, concurrency 64', models: { m64: 64 }, rows: 2000 },
  { name: 'two models, concurrency 16 and 128', models: { m16: 16, m128: 128 }, rows: 1600 },
  { name: 'one model, concurrency 256 (the issue’s case)', models: { m256: 256 }, rows: 6000 },
];

/** The server's counters (GET /__stats), after resetting nothing: read before and after a case. */
async function serverMaxInFlight(url: string): Promise<number> {
  const r = await fetch(`${url.replace(/\/v1$/, '')}/__stats`);
  return ((await r.json()) as { maxInFlight: number }).maxInFlight;
}

/** One case's DAG: its request rate over the window from the first call to the last answer, per model and in all. */
async function runCase(url: string, c: (typeof CASES)[number]) {
  const root = mkdtempSync(join(tmpdir(), 'llm-width-bench-'));
  try {
    const names = Object.keys(c.models);
    const roster: ModelSpec[] = names.map((name) => ({
      name,
      roles: ['evaluated'],
      provider: 'openai-compatible',
      baseURLs: [url],
      modelId: `${name}-id`,
      apiKeyOptional: true,
      contextWindow: 32_000,
      concurrency: c.models[name],
    }));
    const config: DagConfig = {
      sources: {},
      stages: [
        { name: 'rows', module: join(TESTING, 'prompt-rows.stage.ts'), params: { n: c.rows } },
        {
          name: 'ask',
          module: join(TESTING, 'ask-each-model.stage.ts'),
          inputs: { rows: 'rows' },
          forEach: { input: 'rows', cross: { param: 'models', as: 'model' } },
          params: { models: names.map((name) => ({ name })) },
          ...crossedWidth(roster, names),
        },
      ],
    };
    const ws = workspaceFor(root);
    const client = createLlmClient({
      cacheDir: join(root, 'llm-cache'),
      storeLogDir: join(ws.store, 'llm'),
      roster,
      env: {},
      progress: () => {},
    });
    const window: Record<string, { first: number; last: number; n: number }> = {};
    const llm: LlmLike = {
      forStage(stage) {
        const view = client.forStage(stage);
        return {
          ...view,
          async chat(req) {
            const w = (window[req.model] ??= { first: performance.now(), last: 0, n: 0 });
            const r = await view.chat(req);
            w.last = performance.now();
            w.n++;
            return r;
          },
        };
      },
    };
    const run = await runDag(await resolveDag(config, root), ws, { llm });
    await client.close();
    const ask = run.stages.find((s) => s.stage === 'ask');
    if (!ask || ask.rowsComputed !== c.rows * names.length || ask.rowsFailed) throw new Error(`the ask stage: ${JSON.stringify(ask)}`);
    const all = {
      first: Math.min(...Object.values(window).map((w) => w.first)),
      last: Math.max(...Object.values(window).map((w) => w.last)),
    };
    const rate = (w: { first: number; last: number }, n: number) => n / ((w.last - w.first) / 1000);
    return {
      perModel: names.map((m) => ({ model: m, rate: rate(window[m], window[m].n) })),
      rate: rate(all, c.rows * names.length),
      stageSeconds: ask.seconds,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export default async function bench(): Promise<BenchReport> {
  const { url, child } = await startFakeServerProcess(LATENCY_MS);
  const rows: BenchRow[] = [];
  try {
    for (const c of CASES) {
      const before = await serverMaxInFlight(url);
      const got = await runCase(url, c);
      const declared = Object.values(c.models).reduce((a, b) => a + b, 0);
      const names = Object.keys(c.models);
      // Every unit waits from the start, so min(declared, units waiting) is the model's concurrency
      // while its units last; with two models, each is set beside its own (the narrow one's units
      // outlast the wide one's, so their sum is no reference for the whole window).
      const idealOf = (m: string) => Math.min(c.models[m], c.rows) / (LATENCY_MS / 1000);
      if (names.length === 1) {
        rows.push({
          name: `DAG request rate, ${c.name}, ${c.rows} units`,
          value: got.rate,
          unit: 'req/s',
          reference: { name: 'min(declared concurrency, units waiting) ÷ latency', value: idealOf(names[0]) },
          target: { text: '≥ 0.8 × reference', met: got.rate >= 0.8 * idealOf(names[0]) },
        });
      } else {
        for (const m of got.perModel) {
          rows.push({
            name: `DAG request rate, ${c.name}: ${m.model}, ${c.rows} of ${c.rows * names.length} units`,
            value: m.rate,
            unit: 'req/s',
            reference: { name: 'min(its concurrency, its units waiting) ÷ latency', value: idealOf(m.model) },
            target: { text: '≥ 0.8 × reference', met: m.rate >= 0.8 * idealOf(m.model) },
          });
        }
      }
      const most = await serverMaxInFlight(url);
      rows.push({
        name: `  most requests in flight at the server (declared ${declared})`,
        value: Math.max(most, before),
        unit: 'requests',
        target: { text: `= ${declared} (reached, never exceeded)`, met: most === Math.max(declared, before) },
      });
      rows.push({ name: `  the stage's wall time`, value: got.stageSeconds, unit: 's' });
    }
  } finally {
    child.kill('SIGTERM');
  }
  return {
    title: 'Stage width from the models: request rate against a 100 ms server',
    rows,
    notes: [
      `Server: pipeline/llm/testing/fake-openai-server.ts in its own process, ${LATENCY_MS} ms latency per request. The DAG: a row stage of rows × crossed models (stages/models/testing/ask-each-model.stage.ts), one chat call per unit through the LLM client, its unit pool wired by stages/models/stage-width.ts from the roster (a lane per model, two units per request slot); the client's per-model semaphore bounds the requests. Rates are over the window from a model's first call to its last answer, as the stage sees them; every answer is made durable before its unit sees it. The server's most-in-flight count is over the whole server, so it is checked once per case against the case's total and only grows across cases (cases run in increasing total).`,
    ],
  };
}
