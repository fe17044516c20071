import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Row } from '../../pipeline/stage.ts';
import { pairedDifference } from '../stats/paired-bootstrap.ts';
import { caseValues, diffCell, leaderboard, leaderboardData, leaderboardFigure, leaderboardTable } from './leaderboard.ts';
import leaderboardStage, { leaderboardFiles } from './leaderboard.stage.ts';
import { resolveParams } from '../../pipeline/stage.ts';
import { valuesByCase } from './policy-values.ts';
import { cellKey, summaryRows } from './summary-rows.ts';
import { realJudge } from '../roster/testing/specs.ts';
import { recorded, settingRows } from './testing/report-rows.ts';

// NumPy's values on a hand-made warehouse: stages/report/fixtures/make_leaderboard_reference.py.
type Pair = { n: number; diff: number; ci_low: number; ci_high: number; guidelines?: number };
const ref = JSON.parse(readFileSync(new URL('./fixtures/leaderboard_reference.json', import.meta.url), 'utf8')) as {
  pcc: Record<string, Record<string, number>>;
  acc: Record<string, Record<string, number>>;
  means: Record<string, { pcc: number; acc: number }>;
  order: string[];
  guideline: Record<string, string>;
  pairs: Record<string, { pcc: Pair; acc: Pair }>;
  cluster_pairs: Record<string, { pcc: Pair; acc: Pair }>;
};
const JUDGE = 'gpt-5.4-mini';

/**
 * The warehouse tables: per-case rows for two judges (the other one must be ignored), model-b's
 * server failure on c6 (its judging rows are failure rows, its pathway says 'server'), and the
 * model_summary rows those make under the default policy.
 */
function warehouse(): Record<string, Row[]> {
  const pathway_metrics: Row[] = [],
    outcome_scores: Row[] = [],
    model_summary: Row[] = [],
    predicted_pathways: Row[] = [];
  for (const [model, cases] of Object.entries(ref.pcc)) {
    const simulated = model.startsWith('simulated');
    for (const [cdp_id, v] of Object.entries(cases)) {
      const base = { setting: 'single', model, cdp_id, guideline_id: ref.guideline[cdp_id], simulated };
      pathway_metrics.push(
        { ...base, judge: JUDGE, dtw_pcc: v, error: null },
        { ...base, judge: 'simulated-tfidf', dtw_pcc: 1 - v, error: null },
      );
      outcome_scores.push({ ...base, judge: JUDGE, correct: ref.acc[model]![cdp_id] === 1, error: null });
      predicted_pathways.push({ ...base, usable: true, failure: null });
    }
    const failed = model === 'model-b' ? 1 : 0;
    if (failed) {
      const base = { setting: 'single', model, cdp_id: 'c6', guideline_id: 'g3', simulated };
      pathway_metrics.push({ ...base, judge: JUDGE, dtw_pcc: null, error: 'pathway not judged' });
      outcome_scores.push({ ...base, judge: JUDGE, correct: null, error: 'pathway not judged' });
      predicted_pathways.push({ ...base, usable: false, failure: 'server' });
    }
    const n = Object.keys(cases).length;
    const counts = {
      n,
      cases: n + failed,
      failures: failed,
      server_failures: failed,
      excluded: failed,
      incomplete: failed > 0,
      policy: 'worst',
    };
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
        ...counts,
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
      ...counts,
    });
  }
  return { pathway_metrics, outcome_scores, model_summary, predicted_pathways };
}

const close = (a: number | null, b: number, tol: number, what: string) =>
  assert.ok(a !== null && Math.abs(a - b) <= tol, `${what}: ${a} vs ${b} (tolerance ${tol})`);

const checkPair = (got: ReturnType<typeof pairedDifference>, want: Pair, what: string) => {
  assert.ok(got, what);
  assert.equal(got.n, want.n, `${what} n`);
  close(got.diff, want.diff, 1e-12, `${what} diff`);
  close(got.ciLow, want.ci_low, 0.01, `${what} CI low`);
  close(got.ciHigh, want.ci_high, 0.01, `${what} CI high`);
};

test('leaderboard on a hand-made warehouse: ranks, the incomplete model apart, and paired differences as NumPy computes them', () => {
  const w = warehouse();
  const summary = summaryRows(w.model_summary!);
  const values = caseValues(w, summary, JUDGE);
  const entries = leaderboard(summary, values, [realJudge(JUDGE)], { resamples: 10000, seed: 42 });
  // model-b's server failure leaves its means over 5 of 6 cases: it is ranked apart, after the complete models.
  assert.deepEqual(
    entries.map((e) => [e.model, e.group, e.rank]),
    [
      ['model-a', 'real', 1],
      ['model-c', 'real', 2],
      ['model-b', 'real-incomplete', 1],
      ['simulated-oracle', 'simulated', 1],
    ],
  );
  assert.deepEqual(
    [...entries]
      .filter((e) => !e.simulated)
      .sort((x, y) => x.cells.dtw_pcc!.mean - y.cells.dtw_pcc!.mean)
      .map((e) => e.model),
    ref.order,
    'by PCC alone the order is NumPy’s',
  );
  const b = entries[2]!;
  assert.deepEqual([b.cells.dtw_pcc!.n, b.cells.dtw_pcc!.server_failures], [5, 1]);
  assert.equal(b.note, 'incomplete: 1 server failure — retry with `cdp run --retry-failed`');
  close(b.cells.dtw_pcc!.mean, 0.418, 1e-12, 'model-b PCC');
  // Neighbours within a group: a and c; the values are the ones model_summary's means use.
  const next = entries[0]!.next!;
  assert.equal(next.model, 'model-c');
  checkPair(next.pcc, ref.pairs['model-a|model-c']!.pcc, 'a|c pcc');
  checkPair(next.acc, ref.pairs['model-a|model-c']!.acc, 'a|c acc');
  assert.equal(next.pcc!.guidelines, 3);
  // The policy's values of a and b, paired: over the 5 cases both means use.
  for (const [pair, metric] of [
    ['model-a|model-b', 'dtw_pcc'],
    ['model-b|model-c', 'acc'],
  ] as const) {
    const [x, y] = pair.split('|') as [string, string];
    const of = (m: string) => valuesByCase(values.cells.get(cellKey('single', JUDGE, metric, m)))!;
    checkPair(pairedDifference(of(x), of(y), { resamples: 10000, seed: 42 }), ref.pairs[pair]![metric === 'dtw_pcc' ? 'pcc' : 'acc'], pair);
  }
  // The last of a group has no neighbour; the incomplete and the simulated are never compared with the complete real ones.
  assert.deepEqual([entries[1]!.next, entries[2]!.next, entries[3]!.next], [null, null, null]);
  assert.ok(entries[0]!.next!.pcc!.ciHigh! < 0, 'pairing: the paired CI of a − c excludes 0');
});

test('leaderboard with cluster: the paired differences resample guidelines, as NumPy does', () => {
  const w = warehouse();
  const summary = summaryRows(w.model_summary!);
  const entries = leaderboard(summary, caseValues(w, summary, JUDGE), [realJudge(JUDGE)], { resamples: 10000, seed: 42, cluster: true });
  const next = entries[0]!.next!;
  for (const metric of ['pcc', 'acc'] as const) {
    const want = ref.cluster_pairs['model-a|model-c']![metric];
    checkPair(next[metric], want, `cluster ${metric}`);
    assert.equal(next[metric]!.resampled, 'guidelines');
    assert.equal(next[metric]!.guidelines, want.guidelines);
  }
  const t = leaderboardTable(entries, { cluster: true, settings: recorded() });
  assert.match(t.caption, /95% bootstrap CI resampling guidelines \(cluster bootstrap\), 10,000 resamples, seed 42/);
  assert.match(t.rows[0]![10]!, /, n=6 † 3 guidelines$/, 'a difference from 3 guidelines is marked');
});

test('leaderboard table, CSV and figure print n, the failures by kind, the incomplete model and the differences', () => {
  const w = warehouse();
  const summary = summaryRows(w.model_summary!);
  const entries = leaderboard(summary, caseValues(w, summary, JUDGE), [realJudge(JUDGE)], { resamples: 10000, seed: 42 });
  const t = leaderboardTable(entries);
  assert.equal(t.rows.length, 4);
  assert.deepEqual(t.rows[2]!.slice(0, 5), [
    'single-turn',
    'incomplete 1',
    'model-b (incomplete: 1 server failure — retry with `cdp run --retry-failed`)',
    '41.80 (31.80–51.80)',
    'n=5 · server 1',
  ]);
  assert.equal(t.rows[3]![1], 'sim 1');
  assert.match(t.rows[0]![10]!, /^-24\.33 \(-[0-9.]+–-[0-9.]+\), n=6 † 3 guidelines$/);
  assert.match(t.caption, /Failure policy worst: answer failures .* score the worst value; server and patient failures/);
  const csv = leaderboardData(entries);
  const row = Object.fromEntries(csv.columns.map((c, i) => [c, csv.rows[2]![i]]));
  assert.deepEqual(
    [row.group, row.incomplete, row.pcc_n, row.pcc_cases, row.pcc_server_failures],
    ['real-incomplete', 'true', '5', '6', '1'],
  );
  const first = Object.fromEntries(csv.columns.map((c, i) => [c, csv.rows[0]![i]]));
  assert.deepEqual([first.next_model, first.pcc_diff, first.pcc_diff_n, first.pcc_diff_guidelines], ['model-c', '-24.33', '6', '3']);
  const fig = leaderboardFigure(entries);
  const whiskers = fig.panels[0]!.marks.find((m) => m.type === 'ruleY')!;
  assert.deepEqual(
    whiskers.data.map((d) => [d.label, d.low, d.high]),
    [
      ['1. model-a', 26.33, 46.33],
      ['2. model-c', 50.67, 70.67],
      ['incomplete 1. model-b', 31.8, 51.8],
      ['sim 1. simulated-oracle', -9.17, 10.83],
    ],
  );
  const files = leaderboardFiles(
    { ...w, run_settings: settingRows({ model_summary: [{ policy: 'worst', resamples: 500, seed: 3, level: 0.9 }] }) },
    { judges: [realJudge(JUDGE)] },
  );
  assert.deepEqual(
    files.map((f) => f.path),
    [
      'tables/leaderboard.md',
      'tables/leaderboard.csv',
      'figures/leaderboard.svg',
      'figures/leaderboard.png',
      'figures/leaderboard.vl.json',
    ],
  );
  assert.match(String(files[2]!.content), /n=5 · server 1/);
  const bad = resolveParams('report_leaderboard', leaderboardStage.params, { cluster: 'yes' }).problems;
  assert.deepEqual(bad.length, 1);
  assert.match(bad[0]!, /stage 'report_leaderboard': param 'cluster' must be/);
  // The paired bootstrap is model_summary's as recorded (500 resamples, seed 3, 90%), and the captions say so.
  const direct = leaderboard(summary, caseValues(w, summary, JUDGE), [realJudge(JUDGE)], { resamples: 500, seed: 3, level: 0.9 });
  const md = String(files[0]!.content);
  assert.ok(md.includes(` ${diffCell(direct[0]!.next!.pcc)} |`), 'the differences use the recorded bootstrap');
  assert.match(md, /mean in % \(90% bootstrap CI resampling cases, 500 resamples, seed 3\)/);
  assert.match(md, /a 90% paired-bootstrap CI resampling cases \(500 resamples, seed 3\)/);
  assert.doesNotMatch(md, /95%|10,000/);
  assert.match(String(files[2]!.content), /the whisker is the 90% case-bootstrap CI, 500 resamples, seed 3/);
});

test('a run with nothing ranked writes no leaderboard files and says why', () => {
  const files = leaderboardFiles(
    { model_summary: [], pathway_metrics: [], outcome_scores: [], predicted_pathways: [], run_settings: [] },
    { judges: [] },
  );
  assert.deepEqual(
    files.map((f) => [f.path, f.content, f.absent]),
    [
      'tables/leaderboard.md',
      'tables/leaderboard.csv',
      'figures/leaderboard.svg',
      'figures/leaderboard.png',
      'figures/leaderboard.vl.json',
    ].map((p) => [p, null, 'model_summary has no rows: no model was evaluated and scored in this run']),
  );
});
