import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Row } from '../../pipeline/stage.ts';
import { caseValues, leaderboard, leaderboardData, leaderboardFigure, leaderboardTable } from './leaderboard.ts';
import { leaderboardFiles } from './leaderboard.stage.ts';
import { summaryRows } from './summary-rows.ts';

// NumPy's values on a hand-made warehouse: stages/report/fixtures/make_leaderboard_reference.py.
type Pair = { n: number; diff: number; ci_low: number; ci_high: number };
const ref = JSON.parse(readFileSync(new URL('./fixtures/leaderboard_reference.json', import.meta.url), 'utf8')) as {
  pcc: Record<string, Record<string, number>>;
  acc: Record<string, Record<string, number>>;
  means: Record<string, { pcc: number; acc: number }>;
  order: string[];
  pairs: Record<string, { pcc: Pair; acc: Pair }>;
};
const JUDGE = 'gpt-5.4-mini';

/** The warehouse tables: per-case rows for two judges (the other one must be ignored) and a failed row. */
function warehouse(): Record<string, Row[]> {
  const pathway_metrics: Row[] = [],
    outcome_scores: Row[] = [],
    model_summary: Row[] = [];
  for (const [model, cases] of Object.entries(ref.pcc)) {
    const simulated = model.startsWith('simulated');
    for (const [cdp_id, v] of Object.entries(cases)) {
      const base = { setting: 'single', model, cdp_id, guideline_id: 'g1', simulated };
      pathway_metrics.push(
        { ...base, judge: JUDGE, dtw_pcc: v, error: null },
        { ...base, judge: 'simulated-tfidf', dtw_pcc: 1 - v, error: null },
      );
      outcome_scores.push({ ...base, judge: JUDGE, correct: ref.acc[model]![cdp_id] === 1, error: null });
    }
    const failed = model === 'model-b' ? 1 : 0;
    if (failed) {
      pathway_metrics.push({ setting: 'single', model, cdp_id: 'c6', judge: JUDGE, dtw_pcc: null, error: 'call failed', simulated });
      outcome_scores.push({ setting: 'single', model, cdp_id: 'c6', judge: JUDGE, correct: null, error: 'call failed', simulated });
    }
    const n = Object.keys(cases).length;
    for (const [metric, mean] of [
      ['dtw_pcc', ref.means[model]!.pcc],
      ['acc', ref.means[model]!.acc],
    ] as const) {
      model_summary.push({
        setting: 'single',
        judge: JUDGE,
        metric,
        model,
        simulated,
        mean,
        ci_low: mean - 0.1,
        ci_high: mean + 0.1,
        n,
        failures: failed,
      });
    }
    model_summary.push({
      setting: 'single',
      judge: 'simulated-tfidf',
      metric: 'dtw_pcc',
      model,
      simulated,
      mean: 0.5,
      ci_low: 0.4,
      ci_high: 0.6,
      n,
    });
  }
  return { pathway_metrics, outcome_scores, model_summary };
}

const close = (a: number, b: number, tol: number, what: string) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b} (tolerance ${tol})`);

test('leaderboard on a hand-made warehouse: rank, n, failures and paired differences as NumPy computes them', () => {
  const w = warehouse();
  const summary = summaryRows(w.model_summary!);
  const entries = leaderboard(summary, caseValues(w, JUDGE), [JUDGE], { resamples: 10000, seed: 42 });
  assert.deepEqual(
    entries.map((e) => [e.model, e.rank, e.simulated]),
    [
      ['model-a', 1, false],
      ['model-b', 2, false],
      ['model-c', 3, false],
      ['simulated-oracle', 1, true],
    ],
  );
  assert.deepEqual(
    entries.filter((e) => !e.simulated).map((e) => e.model),
    ref.order,
  );
  const b = entries[1]!;
  assert.equal(b.cells.dtw_pcc!.n, 5);
  assert.equal(b.cells.dtw_pcc!.failures, 1);
  close(b.cells.dtw_pcc!.mean, 0.418, 1e-12, 'model-b PCC');
  for (const [i, key] of [
    [0, 'model-a|model-b'],
    [1, 'model-b|model-c'],
  ] as const) {
    const next = entries[i]!.next!;
    assert.equal(next.model, key.split('|')[1]);
    for (const metric of ['pcc', 'acc'] as const) {
      const got = next[metric]!,
        want = ref.pairs[key]![metric];
      assert.equal(got.n, want.n, `${key} ${metric} n`);
      close(got.diff, want.diff, 1e-12, `${key} ${metric} diff`);
      close(got.ciLow, want.ci_low, 0.01, `${key} ${metric} CI low`);
      close(got.ciHigh, want.ci_high, 0.01, `${key} ${metric} CI high`);
    }
  }
  // The last of a group has no neighbour; the simulated agent is never compared with a real model.
  assert.equal(entries[2]!.next, null);
  assert.equal(entries[3]!.next, null);
  // Pairing is the point: the paired CI of a − b excludes 0 while the two models' own CIs overlap.
  assert.ok(entries[0]!.next!.pcc!.ciHigh < 0);
  assert.ok(entries[0]!.cells.dtw_pcc!.ci_high! > entries[1]!.cells.dtw_pcc!.ci_low!);
});

test('leaderboard table, CSV and figure print n, failures and the differences', () => {
  const w = warehouse();
  const entries = leaderboard(summaryRows(w.model_summary!), caseValues(w, JUDGE), [JUDGE], { resamples: 10000, seed: 42 });
  const t = leaderboardTable(entries);
  assert.equal(t.rows.length, 4);
  assert.deepEqual(t.rows[1]!.slice(0, 5), ['single-turn', '2', 'model-b', '41.80 (31.80–51.80)', '5 / 1']);
  assert.equal(t.rows[3]![1], 'sim 1');
  assert.match(t.rows[0]![10]!, /^-4\.80 \(-[0-9.]+–-[0-9.]+\), n=5$/);
  const csv = leaderboardData(entries);
  const row = Object.fromEntries(csv.columns.map((c, i) => [c, csv.rows[0]![i]]));
  assert.equal(row.pcc_diff, '-4.80');
  assert.equal(row.pcc_diff_n, '5');
  assert.equal(row.next_model, 'model-b');
  assert.equal(row.acc_diff, '40.00');
  const fig = leaderboardFigure(entries);
  const whiskers = fig.panels[0]!.marks.find((m) => m.type === 'ruleY')!;
  assert.deepEqual(
    whiskers.data.map((d) => [d.label, d.low, d.high]),
    [
      ['1. model-a', 26.33, 46.33],
      ['2. model-b', 31.8, 51.8],
      ['3. model-c', 50.67, 70.67],
      ['sim 1. simulated-oracle', -9.17, 10.83],
    ],
  );
  const files = leaderboardFiles(w, { judges: [JUDGE], resamples: 500, seed: 42, level: 0.95 });
  assert.deepEqual(
    files.map((f) => f.path),
    ['tables/leaderboard.md', 'tables/leaderboard.csv', 'figures/leaderboard.svg', 'figures/leaderboard.png'],
  );
  assert.match(String(files[2]!.content), /n=5, failed 1/);
});
