// Stage width from the models (issue 23 item 1): a stage crossing two live models, wired with the
// widths stage-width.ts derives from their declared concurrency, keeps each model's requests at
// its declared concurrency while units wait, and never above it; units waiting on the narrow
// model do not hold up the wide one (a single lane as wide as both together does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DagConfig, StageDecl } from '../../pipeline/dag/define.ts';
import { resolveDag } from '../../pipeline/dag/validate.ts';
import { runDag } from '../../pipeline/exec/executor.ts';
import { workspaceFor } from '../../pipeline/exec/workspace.ts';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import { startFakeOpenAIServer, type ChatBody } from '../../pipeline/llm/testing/fake-openai-server.ts';
import type { ModelSpec } from '../../pipeline/llm/types.ts';
import { crossedWidth, laneWidthsFor, OFFLINE_WIDTH, widthFor } from './stage-width.ts';

const here = dirname(fileURLToPath(import.meta.url));
const LATENCY_MS = 50;

const live = (name: string, baseURL: string, concurrency: number, extra: Partial<ModelSpec> = {}): ModelSpec => ({
  name,
  roles: ['evaluated'],
  provider: 'openai-compatible',
  baseURLs: [baseURL],
  modelId: `${name}-id`,
  apiKeyOptional: true,
  contextWindow: 32_000,
  concurrency,
  ...extra,
});

/** A server that answers after LATENCY_MS and counts, per model id, the requests open at once. */
async function countingServer() {
  const open: Record<string, number> = {};
  const most: Record<string, number> = {};
  const server = await startFakeOpenAIServer({
    answer: async (body: ChatBody) => {
      open[body.model] = (open[body.model] ?? 0) + 1;
      most[body.model] = Math.max(most[body.model] ?? 0, open[body.model]);
      await new Promise((r) => setTimeout(r, LATENCY_MS));
      open[body.model]--;
      return `The first step for ${body.model}: check the blood pressure.`;
    },
  });
  return { server, most };
}

/** Runs `ask` (rows × models A, B) with the width the test gives it; the most requests each model had open. */
async function runAsk(rows: number, width: (roster: ModelSpec[]) => Partial<StageDecl>) {
  const { server, most } = await countingServer();
  const root = mkdtempSync(join(tmpdir(), 'cdp-width-'));
  try {
    const roster = [live('A', server.url, 3), live('B', server.url, 11)];
    const config: DagConfig = {
      sources: {},
      stages: [
        { name: 'rows', module: join(here, 'testing/prompt-rows.stage.ts'), params: { n: rows } },
        {
          name: 'ask',
          module: join(here, 'testing/ask-each-model.stage.ts'),
          inputs: { rows: 'rows' },
          forEach: { input: 'rows', cross: { param: 'models', as: 'model' } },
          params: { models: [{ name: 'A' }, { name: 'B' }] },
          ...width(roster),
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
    const summary = await runDag(await resolveDag(config, root), ws, { llm: client });
    await client.close();
    const ask = summary.stages.find((s) => s.stage === 'ask')!;
    return { ask, most, chats: server.counters.chat };
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

test("each model's requests reach its declared concurrency (A 3, B 11) and never exceed it, with the widths derived from the roster", async () => {
  const { ask, most, chats } = await runAsk(60, (roster) => crossedWidth(roster, ['A', 'B']));
  assert.equal(ask.status, 'ran');
  assert.deepEqual([ask.rowsComputed, ask.rowsFailed, chats], [120, 0, 120]);
  assert.deepEqual(most, { 'A-id': 3, 'B-id': 11 });
});

test('one lane as wide as both models together (3 + 11) leaves the wide model short: its units queue behind the narrow one', async () => {
  const { ask, most } = await runAsk(60, () => ({ concurrency: 14 }));
  assert.deepEqual([ask.rowsComputed, ask.rowsFailed], [120, 0]);
  assert.equal(most['A-id'], 3);
  assert.ok(most['B-id']! < 11, `B had ${most['B-id']} requests open at once`);
});

test("the widths: two units per request slot of a live model (its concurrency on each replica); stand-ins, inactive and unknown models share the stage's offline width", () => {
  const roster: ModelSpec[] = [
    live('A', 'http://a/v1', 3),
    live('R', 'http://r1/v1', 5, { baseURLs: ['http://r1/v1', 'http://r2/v1'] }),
    live('D', 'http://d/v1', undefined as unknown as number, { concurrency: undefined }),
    live('off', 'http://o/v1', 4, { active: false }),
    live('bulk', 'http://b/v1', 4, { batch: true }),
    { name: 'sim', roles: ['evaluated'], provider: 'offline', simulated: true },
  ];
  assert.deepEqual(laneWidthsFor(roster, ['A', 'R', 'D', 'off', 'bulk', 'sim', 'absent']), { A: 6, R: 20, D: 16, bulk: 1024 });
  assert.deepEqual([widthFor(roster, 'A'), widthFor(roster, 'sim'), widthFor(roster, null)], [6, OFFLINE_WIDTH, OFFLINE_WIDTH]);
  assert.deepEqual(crossedWidth(roster, ['sim']), { concurrency: OFFLINE_WIDTH, laneWidths: {} });
});
