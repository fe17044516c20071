// The runner reports the LLM client's counters generically: whatever numbers a stage's view
// reports pass through as `counters`, and the summary's LLM columns are read from them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeToyProject } from '../testing/toy-project.ts';
import { resolveDag } from '../dag/validate.ts';
import { runDag } from './executor.ts';
import { workspaceFor } from './workspace.ts';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { openWarehouse } from '../store/warehouse.ts';

test('a stage view’s counters pass through verbatim; offline calls are not LLM calls', async () => {
  const p = makeToyProject();
  try {
    const config = p.config();
    const dag = await resolveDag(config, p.root);
    const ws = workspaceFor(p.root);
    const views: string[] = [];
    const llm = {
      forStage(stage: string) {
        views.push(stage);
        const n = stage === 'totals' ? 1 : 0;
        return {
          counters: () => ({ calls: 7 * n, offline: 3 * n, cached: 2 * n, inputTokens: 40 * n, outputTokens: 9 * n, note: 'not a number' }),
        } as never;
      },
    };
    const summary = await runDag(dag, ws, { llm });
    assert.equal(summary.ok, true);
    const totals = summary.stages.find((s) => s.stage === 'totals')!;
    assert.deepEqual(totals.counters, { calls: 7, offline: 3, cached: 2, inputTokens: 40, outputTokens: 9 });
    assert.deepEqual([totals.llmCalls, totals.llmCached, totals.tokensIn, totals.tokensOut], [4, 2, 40, 9]);
    const docs = summary.stages.find((s) => s.stage === 'docs')!;
    assert.deepEqual(docs.counters, {}, 'a source has no LLM view');
    assert.ok(views.includes('totals'));

    const wh = await openWarehouse(join(p.root, 'data', 'warehouse.duckdb'), join(p.root, 'data', 'store'), { readOnly: true });
    try {
      const rows = (await wh.con.runAndReadAll(`select stage, llm_calls, counters from runs where stage = 'totals'`)).getRowObjectsJson();
      assert.equal(rows.length, 1);
      assert.equal(Number(rows[0]!.llm_calls), 4);
      assert.deepEqual(JSON.parse(String(rows[0]!.counters)), { calls: 7, offline: 3, cached: 2, inputTokens: 40, outputTokens: 9 });
    } finally {
      wh.close();
    }
  } finally {
    rmSync(p.root, { recursive: true, force: true });
  }
});
