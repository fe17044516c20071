// The partitioned statistics on the bundled sample: the runner computes model_summary,
// correlations and preference_agreement partition by partition; each artifact must be exactly what
// one call of the stage over every row of its inputs gives (the computation before partitions),
// row for row and in order. From scratch, then after a change to the multi-turn setting alone (a
// one-turn cap), which recomputes only the partitions holding multi-turn rows and takes the others
// from the memo: the artifact put together from both is again the whole call's. The first run
// computes the partitions on two worker threads (no threshold), the second on the main thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import dagDefinition from '../../dag.config.ts';
import { builtConfig } from '../../pipeline/testing/config-stages.ts';
import { resolveDag } from '../../pipeline/index.ts';
import { readLedger } from '../../pipeline/store/ledger.ts';
import { readRows } from '../../pipeline/store/artifacts.ts';
import { canonicalJson } from '../../pipeline/hash/canonical.ts';
import type { Row, TableStage } from '../../pipeline/stage.ts';
import { runCdp, REPO } from '../../pipeline/testing/cdp-process.ts';
import { fakeCtx } from './testing/stage-harness.ts';

const PARTITIONED = ['model_summary', 'correlations', 'preference_agreement'];

type Figures = Record<string, { stage: string; status: string; partitions?: { computed: number; reused: number } }>;

async function run(env: NodeJS.ProcessEnv, extra: string[] = []): Promise<Figures> {
  const r = await runCdp(['run', ...PARTITIONED, '--json', ...extra], env);
  assert.equal(r.code, 0, r.stderr.slice(-2000));
  return Object.fromEntries((JSON.parse(r.stdout) as { stages: Figures[string][] }).stages.map((s) => [s.stage, s]));
}

/** Each partitioned stage's artifact against one whole call of its module over its input artifacts. */
async function assertWhole(store: string, extra: string[] = []): Promise<void> {
  const set = Object.fromEntries(extra.filter((_, i) => extra[i - 1] === '--set').map((kv) => kv.split('=') as [string, string]));
  const dag = await resolveDag(builtConfig(dagDefinition, REPO), REPO);
  const ledger = readLedger(join(store, 'ledger.json'));
  const rows = (stage: string) => readRows(store, stage, ledger.entries[stage]!.segments!);
  for (const name of PARTITIONED) {
    const stage = dag.stages.get(name)!;
    const impl = stage.impl as TableStage;
    assert.ok(impl.partition, `${name} is partitioned`);
    assert.ok(!Object.keys(set).some((k) => k.startsWith(`${name}.`)), 'the --set is not one of these stages’ params');
    const inputs: Record<string, Row[]> = {};
    for (const [local, from] of Object.entries(stage.decl.inputs ?? {})) inputs[local] = rows(from);
    for (const [local, d] of Object.entries(impl.inputs ?? {})) if (d.startsWith('optional') && !(local in inputs)) inputs[local] = [];
    const whole = await impl.run(inputs, fakeCtx(stage.decl.params ?? {}, undefined, [], REPO));
    const written = rows(name);
    assert.ok(written.length > 0, `${name} has rows`);
    assert.deepEqual(
      written.map((x) => canonicalJson(x)),
      whole.map((x) => canonicalJson(x)),
      `${name}: partitioned = whole`,
    );
  }
}

test(
  'on the sample, each partitioned stage writes exactly the rows of one whole call; a change to one setting recomputes its partitions',
  { timeout: 600_000 },
  async () => {
    const store = mkdtempSync(join(tmpdir(), 'cdp-part-sample-'));
    try {
      // A store given: its reports go to <store>/reports.
      const env = { CDP_STORE: store };
      const first = await run(env, ['--workers', '2', '--workers-threshold', '0']);
      for (const name of PARTITIONED) {
        const p = first[name]!.partitions!;
        assert.ok(p.computed > 1 && p.reused === 0, `${name}: ${p.computed} partitions computed from scratch`);
      }
      await assertWhole(store);

      // A turn cap of one turn changes every dialogue, and nothing of the single-turn setting.
      const cap = ['--set', 'dialogues_multi.capFactor=0', '--set', 'dialogues_multi.capExtra=1'];
      const second = await run(env, [...cap, '--workers', '1']);
      const ms = second.model_summary!.partitions!;
      const models = ms.computed + ms.reused;
      assert.deepEqual(ms, { computed: models / 2, reused: models / 2 }, 'model_summary: the multi-turn setting × each model');
      assert.deepEqual(second.correlations!.partitions, { computed: 2, reused: 1 }, "correlations: 'all' and multi; single reused");
      await assertWhole(store, cap);
    } finally {
      rmSync(store, { recursive: true, force: true });
    }
  },
);
