// A stable benchmark (issue 11 item 6): adding or removing a guideline changes no other
// guideline's split or CDP rows, and downstream of `cdps` only the new guideline's rows are
// computed. The stage and task declarations are dag.config.ts's own (configStages).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Row, StageContext, TableStage } from '../../pipeline/stage.ts';
import type { DagConfig } from '../../pipeline/dag/define.ts';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import { configStages } from '../../pipeline/testing/config-stages.ts';
import { HTN_MARKDOWN, HTN_TREE, INSOMNIA_MARKDOWN, INSOMNIA_TREE } from '../agents/testing/benchmark-cases.ts';
import { ORACLE_NAME } from '../agents/oracle.ts';
import { offlineHandlers as agentProviders, SIMULATED_ROSTER } from '../agents/roster.ts';
import { CONSTRUCTION_STAND_INS } from '../models/run-roster.ts';
import { createRng } from '../stats/rng.ts';
import { resolveDag } from '../../pipeline/dag/validate.ts';
import { runDag } from '../../pipeline/exec/executor.ts';
import { workspaceFor } from '../../pipeline/exec/workspace.ts';
import { stageRows } from '../../pipeline/testing/stage-rows.ts';
import { OFFLINE_WRITERS } from '../agents/writers/offline-writers.ts';
import { VIGNETTE_GENERATOR } from '../agents/writers/vignette-writer.ts';
import { NARRATIVE_GENERATOR } from '../agents/writers/narrative-writer.ts';
import { enumeratePaths } from './paths.ts';
import { splitScore } from './split.ts';
import cdpsStage from './cdps.stage.ts';
import dagDefinition from '../../dag.config.ts';
import { builtConfig } from '../../pipeline/testing/config-stages.ts';
import { simulatedAgents, simulatedPatient, simulatedWriter } from '../roster/testing/specs.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const dagConfig = builtConfig(dagDefinition, repo);
const CDPS_PARAMS = dagConfig.stages.find((s) => s.name === 'cdps')!.params as { testFraction: number; seed: number };

/** A guideline of the fixture: an English hypertension tree or a Chinese insomnia tree under `id`. */
function guideline(id: string, kind: 'htn' | 'ins', valid = true): { guideline: Row; tree: Row } {
  const en = kind === 'htn';
  return {
    guideline: {
      guideline_id: id,
      language: en ? 'en' : 'zh',
      title: en ? 'Hypertension in adults' : '失眠障碍诊断指南',
      markdown: en ? HTN_MARKDOWN : INSOMNIA_MARKDOWN,
    },
    tree: { guideline_id: id, tree_json: valid ? JSON.stringify(en ? HTN_TREE : INSOMNIA_TREE) : null, valid },
  };
}

type Params = typeof CDPS_PARAMS;
const ctx = (root = repo): StageContext<Params> =>
  ({
    stage: 'cdps',
    params: CDPS_PARAMS,
    root,
    file: (path: string) => resolve(root, path),
    llm: undefined,
    log: () => {},
    signal: new AbortController().signal,
  }) as never;

async function cdpRows(gs: { guideline: Row; tree: Row }[], pins: Row[] = [], root = repo): Promise<Map<string, Row>> {
  const inputs = { guidelines: gs.map((g) => g.guideline), trees: gs.map((g) => g.tree), split_pins: pins };
  const rows = await (cdpsStage as TableStage<Params>).run(inputs, ctx(root));
  return new Map(rows.map((r) => [String(r.cdp_id), r]));
}

const pathCount = (kind: 'htn' | 'ins') =>
  enumeratePaths(kind === 'htn' ? HTN_TREE : INSOMNIA_TREE, { guideline_id: 'x', language: 'en', split: 'test' }).cdps.length;

describe("cdps stage: other guidelines' rows untouched", () => {
  test('property: over random sets of guidelines, adding or removing some leaves every other CDP row identical', async () => {
    const rng = createRng(11);
    for (let trial = 0; trial < 40; trial++) {
      const make = () => guideline(`g${rng.nextUint32().toString(36)}`, rng.nextInt(2) === 0 ? 'htn' : 'ins', rng.nextInt(8) !== 0);
      const base = Array.from({ length: 1 + rng.nextInt(8) }, make);
      const extra = Array.from({ length: 1 + rng.nextInt(3) }, make);
      const before = await cdpRows(base);
      const added = await cdpRows([...extra.slice(0, 1), ...base, ...extra.slice(1)]);
      const kept = base.filter(() => rng.nextInt(3) !== 0);
      const removed = await cdpRows(kept);
      const extraIds = new Set(extra.map((g) => g.guideline.guideline_id));
      assert.equal(added.size, before.size + [...added.values()].filter((r) => extraIds.has(r.guideline_id)).length, `trial ${trial}`);
      for (const [id, row] of before) assert.deepEqual(added.get(id), row, `trial ${trial}: ${id} changed when guidelines were added`);
      for (const [id, row] of removed) assert.deepEqual(row, before.get(id), `trial ${trial}: ${id} changed when guidelines were removed`);
      const keptIds = new Set(kept.filter((g) => g.tree.valid).map((g) => g.guideline.guideline_id));
      assert.equal(removed.size, [...before.values()].filter((r) => keptIds.has(r.guideline_id)).length);
      for (const row of before.values()) {
        assert.equal(row.split, splitScore(String(row.guideline_id), CDPS_PARAMS.seed) < CDPS_PARAMS.testFraction ? 'test' : 'non-test');
      }
    }
  });

  test('a pin file as input split_pins overrides the rule for its guidelines only; a bad pin fails naming the line', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cdp-pins-'));
    try {
      // Under the config's rule htn-a is test and htn-b non-test (scores 0.338 and 0.530 for seed 156).
      const gs = [guideline('htn-a', 'htn'), guideline('htn-b', 'htn'), guideline('ins-a', 'ins')];
      const split = (m: Map<string, Row>) => Object.fromEntries([...m.values()].map((r) => [r.guideline_id, r.split]));
      assert.deepEqual(split(await cdpRows(gs)), { 'htn-a': 'test', 'htn-b': 'non-test', 'ins-a': 'test' });
      writeFileSync(join(root, 'pins.csv'), 'guideline_id,split\nhtn-a,non-test\nhtn-b,test\nnot-in-run,test\n');
      assert.deepEqual(split(await cdpRows(gs, [{ path: 'pins.csv' }], root)), { 'htn-a': 'non-test', 'htn-b': 'test', 'ins-a': 'test' });
      writeFileSync(join(root, 'bad.csv'), 'guideline_id,split\nhtn-a,holdout\n');
      await assert.rejects(
        cdpRows(gs, [{ path: 'bad.csv' }], root),
        /bad\.csv line 2: column "split" must be test or non-test, got "holdout"/,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

test('DAG: adding a guideline computes only its rows downstream of cdps; adding a failed tree or removing one computes none', async () => {
  const base = [guideline('htn-a', 'htn'), guideline('htn-b', 'htn'), guideline('ins-a', 'ins'), guideline('ins-b', 'ins')];
  const added = guideline('htn-d', 'htn'); // test under the config's rule (score 0.023)
  const failed = guideline('ins-d', 'ins', false);
  const models = simulatedAgents([ORACLE_NAME, 'simulated-omission-0.3']);
  const downstream = ['vignettes', 'narratives', 'predictions_single', 'dialogues_multi'];
  const config = (gs: { guideline: Row; tree: Row }[]): DagConfig => ({
    sources: {},
    stages: [
      { name: 'guidelines', module: join(repo, 'stages/tasks/testing/fixed-rows.stage.ts'), params: { rows: gs.map((g) => g.guideline) } },
      { name: 'trees', module: join(repo, 'stages/tasks/testing/fixed-rows.stage.ts'), params: { rows: gs.map((g) => g.tree) } },
      // test_cases leaves out what QC flags, so the QC stages come along (the fixture's cases are clean).
      ...configStages(dagConfig, ['cdps', 'tree_nodes', 'qc', 'qc_inspection', 'test_cases', ...downstream], repo, {
        vignettes: { writer: simulatedWriter(VIGNETTE_GENERATOR) },
        narratives: { writer: simulatedWriter(NARRATIVE_GENERATOR) },
        predictions_single: { models },
        dialogues_multi: { models, patient: simulatedPatient() },
      }),
    ],
  });
  // One project root and store across the runs: each run sees the previous runs' unit results.
  const root = mkdtempSync(join(tmpdir(), 'cdp-stable-split-'));
  const ws = workspaceFor(root);
  const rows = (stage: string) => stageRows(ws, stage);
  const runWith = async (gs: { guideline: Row; tree: Row }[]) => {
    const client = createLlmClient({
      cacheDir: join(ws.store, 'llm'),
      roster: [...SIMULATED_ROSTER, ...CONSTRUCTION_STAND_INS],
      offlineHandlers: { ...OFFLINE_WRITERS, ...agentProviders() },
    });
    try {
      const summary = await runDag(await resolveDag(config(gs), root), ws, { llm: client });
      assert.equal(summary.ok, true, JSON.stringify(summary.stages.filter((s) => s.error)));
      return Object.fromEntries(summary.stages.map((s) => [s.stage, { computed: s.rowsComputed, reused: s.rowsReused }]));
    } finally {
      await client.close();
    }
  };
  try {
    const htn = pathCount('htn'),
      ins = pathCount('ins');
    const first = await runWith(base);
    const cases = 2 * htn + 2 * ins;
    // The task stages run one unit per test case (htn-a and ins-a are test) × model.
    const tests = htn + ins;
    const all = [cases, cases, tests * models.length, tests * models.length];
    assert.deepEqual(
      downstream.map((s) => first[s]),
      all.map((n) => ({ computed: n, reused: 0 })),
    );
    const cdpsBefore = new Map(rows('cdps').map((r) => [r.cdp_id, r]));
    const testBefore = new Set(rows('predictions_single').map((r) => r.cdp_id));
    const testGuidelines = new Set([...cdpsBefore.values()].filter((r) => r.split === 'test').map((r) => r.guideline_id));
    assert.deepEqual([...testGuidelines].sort(), ['htn-a', 'ins-a']);

    const second = await runWith([...base.slice(0, 2), added, ...base.slice(2)]);
    assert.equal(second.cdps!.computed, cases + htn);
    assert.deepEqual(
      downstream.map((s) => second[s]),
      [
        { computed: htn, reused: cases },
        { computed: htn, reused: cases },
        { computed: htn * models.length, reused: tests * models.length },
        { computed: htn * models.length, reused: tests * models.length },
      ],
    );
    const cdpsAfter = rows('cdps');
    assert.equal(cdpsAfter.filter((x) => x.guideline_id !== 'htn-d').length, cdpsBefore.size);
    for (const r of cdpsAfter.filter((x) => x.guideline_id !== 'htn-d')) assert.deepEqual(r, cdpsBefore.get(r.cdp_id), String(r.cdp_id));
    const newCases = rows('predictions_single').filter((r) => !testBefore.has(r.cdp_id));
    assert.equal(newCases.length, htn * models.length);
    assert.ok(
      newCases.every((r) => r.guideline_id === 'htn-d'),
      "the only new test cases are the added guideline's",
    );
    const third = await runWith([...base.slice(0, 2), added, ...base.slice(2), failed]);
    assert.deepEqual(
      downstream.map((s) => third[s]!.computed),
      [0, 0, 0, 0],
      'a guideline whose tree failed adds no rows and moves none',
    );

    const fourth = await runWith([base[1]!, added, ...base.slice(2)]);
    assert.deepEqual(
      downstream.map((s) => fourth[s]),
      [
        { computed: 0, reused: cases },
        { computed: 0, reused: cases },
        // htn-a (a test guideline) is gone: htn-d and ins-a remain, all reused.
        { computed: 0, reused: tests * models.length },
        { computed: 0, reused: tests * models.length },
      ],
    );
    const cdpsFinal = rows('cdps');
    assert.equal(cdpsFinal.length, cases);
    for (const r of cdpsFinal)
      assert.deepEqual(
        r,
        cdpsAfter.find((x) => x.cdp_id === r.cdp_id),
        `${r.cdp_id} changed on removal`,
      );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('DAG: a pin file wired as a files source on input split_pins; editing it reruns cdps with the new pins', async () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-split-pins-'));
  try {
    const gs = [guideline('htn-a', 'htn'), guideline('htn-b', 'htn')];
    const cdps = configStages(dagConfig, ['cdps'], repo)[0]!;
    const config: DagConfig = {
      sources: { split_pins: { kind: 'files', patterns: ['splits.csv'] } },
      stages: [
        {
          name: 'guidelines',
          module: join(repo, 'stages/tasks/testing/fixed-rows.stage.ts'),
          params: { rows: gs.map((g) => g.guideline) },
        },
        { name: 'trees', module: join(repo, 'stages/tasks/testing/fixed-rows.stage.ts'), params: { rows: gs.map((g) => g.tree) } },
        { ...cdps, inputs: { ...cdps.inputs, split_pins: 'split_pins' } },
      ],
    };
    const ws = workspaceFor(root);
    const run = async () => {
      const summary = await runDag(await resolveDag(config, root), ws, {});
      assert.equal(summary.ok, true, JSON.stringify(summary.stages.filter((s) => s.error)));
      const rows = stageRows(ws, 'cdps');
      const split = Object.fromEntries(rows.map((r) => [r.guideline_id, r.split]));
      return { status: summary.stages.find((s) => s.stage === 'cdps')!.status, split };
    };
    writeFileSync(join(root, 'splits.csv'), 'guideline_id,split\nhtn-b,test\n');
    assert.deepEqual(await run(), { status: 'ran', split: { 'htn-a': 'test', 'htn-b': 'test' } });
    assert.equal((await run()).status, 'reused');
    writeFileSync(join(root, 'splits.csv'), 'guideline_id,split\nhtn-a,non-test\n');
    assert.deepEqual(await run(), { status: 'ran', split: { 'htn-a': 'non-test', 'htn-b': 'non-test' } });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
