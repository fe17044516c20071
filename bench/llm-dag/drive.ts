/**
 * The two sides of the lean-call-path comparison (issue 23 item 2), against one server at one
 * concurrency: a plain `node:http` load generator (keep-alive, `c` loops of POSTs, each response
 * read whole and dropped: the most a client in this process can get from the server), and the
 * DAG (a row stage whose every unit makes one LLM call through the client, as a judging stage
 * does, the stage's width and the model's concurrency both `c`).
 */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveDag } from '../../pipeline/dag/validate.ts';
import { runDag, type LlmLike } from '../../pipeline/exec/executor.ts';
import { workspaceFor } from '../../pipeline/exec/workspace.ts';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import type { DagConfig } from '../../pipeline/dag/define.ts';

const here = dirname(fileURLToPath(import.meta.url));
const FILLER = 'The predicted step matches the reference step on the key decision point. '.repeat(26);

export interface Rate {
  /** Requests per second. */
  rate: number;
  /** CPU of this process per request, ms. */
  cpuMsPerRequest: number;
}

/** `n` POSTs of judge-sized chat bodies, `c` at a time, over keep-alive connections. */
export async function plainLoad(baseURL: string, n: number, c: number, tag: string): Promise<Rate> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: c });
  const u = new URL(`${baseURL}/chat/completions`);
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({
        model: 'bench-model',
        messages: [
          { role: 'system', content: 'You are a judge. Score each predicted step from 1 to 5.' },
          { role: 'user', content: `${tag} case ${i}. ${FILLER}` },
        ],
      });
      const req = http.request(
        {
          hostname: u.hostname,
          port: u.port,
          path: u.pathname,
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (next < n) await one(next++);
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  agent.destroy();
  return { rate: n / secs, cpuMsPerRequest: (cpu.user + cpu.system) / 1000 / n };
}

/**
 * The DAG: `n` rows, then one call per row through the client. Its request rate is over the
 * window from the first call's start to the last call's answer (the stage then writes its
 * artifact: `stageSeconds` is its whole time). The model's declared concurrency is `c` (at most
 * `c` requests in flight, as the load generator has); the stage keeps `width` units in flight
 * (default 2c: a unit whose answer is being made durable, or whose rows are being written, does
 * not hold a request slot).
 */
export async function dagLoad(baseURL: string, n: number, c: number, tag: string, width = 2 * c): Promise<Rate & { stageSeconds: number }> {
  const root = mkdtempSync(join(tmpdir(), 'llm-dag-bench-'));
  try {
    const config: DagConfig = {
      sources: {},
      stages: [
        { name: 'rows', module: join(here, 'rows.stage.ts'), params: { n, tag } },
        { name: 'ask', module: join(here, 'ask.stage.ts'), inputs: { rows: 'rows' }, forEach: 'rows', concurrency: width },
      ],
    };
    const ws = workspaceFor(root, config, {});
    const dag = await resolveDag(config, root);
    const client = createLlmClient({
      cacheDir: join(root, 'llm-cache'),
      storeLogDir: join(ws.store, 'llm'),
      roster: [
        {
          name: 'bench',
          roles: ['judge'],
          provider: 'openai-compatible',
          baseURLs: [baseURL],
          modelId: 'bench-model',
          concurrency: c,
          contextWindow: 128_000,
        },
      ],
      env: {},
      progress: () => {},
    });
    const summary = await runDag(dag, ws, { llm: client, targets: ['rows'] });
    if (!summary.ok) throw new Error('the rows stage failed');
    // The calls' window, seen from the stage's side of the client.
    let first = Infinity;
    let last = 0;
    let cpuAtFirst: NodeJS.CpuUsage | null = null;
    const llm: LlmLike = {
      forStage(stage) {
        const view = client.forStage(stage);
        return {
          ...view,
          async chat(req) {
            if (first === Infinity) {
              first = performance.now();
              cpuAtFirst = process.cpuUsage();
            }
            const r = await view.chat(req);
            last = performance.now();
            return r;
          },
        };
      },
    };
    const run = await runDag(dag, ws, { llm });
    const cpu = process.cpuUsage(cpuAtFirst ?? undefined);
    await client.close();
    const ask = run.stages.find((s) => s.stage === 'ask');
    if (!ask || ask.rowsComputed !== n || ask.rowsFailed) throw new Error(`the ask stage: ${JSON.stringify(ask)}`);
    // CPU over the window and the artifact write after it: an upper bound of the calls' own.
    return { rate: n / ((last - first) / 1000), cpuMsPerRequest: (cpu.user + cpu.system) / 1000 / n, stageSeconds: ask.seconds };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
