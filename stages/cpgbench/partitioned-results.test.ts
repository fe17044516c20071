// CPGBench's result stages partitioned: cpg_outcomes by guideline, cpg_rates by group. On the
// bundled sample each artifact must be what the computation over every judgement gives (the one
// before partitions: rates.ts and specialty-test.ts over outcomes.ts's items and cells), row for
// row and in order: from scratch with the partitions on two worker threads, then after one
// guideline is added, which computes its own cpg_outcomes partition and the five cpg_rates groups
// it is in (overall, its region, specialty and language, the safety subset), counted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson } from '../../pipeline/hash/canonical.ts';
import { ThreadPool } from '../../pipeline/threads/pool.ts';
import type { RunSummary } from '../../pipeline/exec/executor.ts';
import { addSepsisGuideline, cpgProject, type CpgProject } from './testing/cpgbench-project.ts';
import { computeRates } from './results/rates.ts';
import { cellsOf, itemsOf } from './results/outcomes.ts';
import { specialtyTests } from './results/specialty-test.ts';

const INPUTS = ['cpg_task_inputs', 'cpg_recommendations', 'cpg_safety', 'cpg_detection_judgements', 'cpg_adherence_judgements'];
const BOOTSTRAP = { resamples: 10000, seed: 42, level: 0.95 };

/** The artifacts of cpg_rates and cpg_specialty_tests against one computation over every judgement row. */
function assertWhole(p: CpgProject): void {
  const raw = Object.fromEntries(INPUTS.map((s) => [s, p.rows(s)]));
  // The rows carry the roster's flags: with no roster given the cells are the rows' (the computation before cpg_outcomes).
  const items = itemsOf(raw),
    cells = cellsOf(raw, { models: [], judges: [] });
  const rates = computeRates(items, cells, BOOTSTRAP).map((r) => ({ ...r, ...BOOTSTRAP }));
  const json = (rows: object[]) => rows.map((r) => canonicalJson(r));
  assert.ok(rates.length > 100);
  assert.deepEqual(json(p.rows('cpg_rates')), json(rates), 'cpg_rates: partitioned = whole');
  assert.deepEqual(json(p.rows('cpg_specialty_tests')), json(specialtyTests(items, cells)), 'cpg_specialty_tests = whole');
}

const partitions = (s: RunSummary, stage: string) => s.stages.find((x) => x.stage === stage)?.partitions;

test('the rates partitioned by guideline and group equal one whole computation; a guideline added computes its partition and its five groups', async () => {
  const p = cpgProject();
  const pool = new ThreadPool({ size: 2, tuning: { coldMs: 0, warmMs: 0 } });
  try {
    const first = await p.run({ threads: pool });
    assert.equal(first.ok, true, JSON.stringify(first.stages.filter((s) => s.error)));
    // Five included guidelines with benchmark items; 1 overall + regions + specialties + languages + safety groups.
    assert.deepEqual(partitions(first, 'cpg_outcomes'), { computed: 5, reused: 0 });
    const groups = new Set(p.rows('cpg_rates').map((r) => `${String(r.grouping)}/${String(r.group)}`)).size;
    assert.deepEqual(partitions(first, 'cpg_rates'), { computed: groups, reused: 0 });
    assert.ok(pool.stats().threaded > 0, 'partitions computed on the workers');
    assertWhole(p);

    const rec = { strength: 'strong', evidence_level: 'low', context: 'An adult with suspected septic shock.', goal: 'Reduce mortality.' };
    addSepsisGuideline(p.corpus, [
      {
        ...rec,
        recommendation: 'Give antibiotics within one hour to adults with suspected septic shock.',
        action: 'Give antibiotics.',
        safety_critical: true,
      },
    ]);
    const second = await p.run();
    assert.equal(second.ok, true, JSON.stringify(second.stages.filter((s) => s.error)));
    assert.deepEqual(partitions(second, 'cpg_outcomes'), { computed: 1, reused: 5 }, 'only the new guideline');
    const after = new Set(p.rows('cpg_rates').map((r) => `${String(r.grouping)}/${String(r.group)}`)).size;
    // overall, region United States, specialty Emergency Medicine, language en, safety-critical.
    assert.deepEqual(partitions(second, 'cpg_rates'), { computed: 5, reused: after - 5 });
    assertWhole(p);

    const third = await p.run();
    assert.ok(
      third.stages.every((s) => s.status !== 'ran'),
      'a rerun recomputes nothing',
    );
  } finally {
    await pool.close();
    p.remove();
  }
});
