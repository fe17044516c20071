import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { RateRow } from '../results/rates.ts';
import { figure5 } from './figures.ts';
import { table1 } from './paper-tables.ts';
import { publishedRates, CPG_PUBLISHED_FILES } from './published.ts';
import { orderings, scoreValues, scorecardTables } from './scorecard.ts';
import { leaderboard, leaderboardTable } from './leaderboard.ts';
import { recordedBootstrap } from './rate-rows.ts';

const row = (model: string, task: string, rate: number, extra: Partial<RateRow> = {}): RateRow => ({
  model,
  judge: 'gpt-4o-judge',
  simulated: false,
  judge_simulated: false,
  task: task as RateRow['task'],
  grouping: 'overall',
  group: 'all',
  n: 40,
  correct: rate * 40,
  answer_failures: 1,
  server_failures: 0,
  unscored: 0,
  missing_cases: 0,
  incomplete: false,
  rate,
  ci_low: rate - 0.05,
  ci_high: rate + 0.05,
  cluster_ci_low: rate - 0.1,
  cluster_ci_high: rate + 0.1,
  guidelines: 12,
  few_guidelines: false,
  ...extra,
});

// Three models standing for paper models: adherence in the paper's order (GPT5 > GPT4o > Llama),
// content detection in the reverse of the paper's (GPT4o 82.65 > GPT5 79.47 > Llama 79.38; ours Llama > GPT5 > GPT4o).
const RATES: RateRow[] = [
  ...[
    ['m-a', 0.8, 0.5, 0.9],
    ['m-b', 0.7, 0.4, 0.6],
    ['m-c', 0.9, 0.3, 0.3],
    ['m-private', 0.99, 0.99, 0.99],
  ].flatMap(([m, content, adherence, title]) => [
    row(m as string, 'content_detection', content as number),
    row(m as string, 'title_grounding', title as number),
    row(m as string, 'adherence', adherence as number),
    row(m as string, 'average', ((content as number) + (adherence as number) + (title as number)) / 3),
  ]),
];
const PAPER_NAMES = { 'm-a': 'GPT5', 'm-b': 'GPT4o', 'm-c': 'Llama3-8B-inst' };
const texts = Object.fromEntries(
  Object.values(CPG_PUBLISHED_FILES).map((f) => [f, readFileSync(new URL(`../../../data/published/${f}`, import.meta.url), 'utf8')]),
);

test('the published tables parse to 8 models × 4 columns each, as printed', () => {
  const p = publishedRates(texts);
  assert.equal(p.length, 2 * 8 * 4);
  assert.equal(p.find((x) => x.table === 'Table 1' && x.model === 'GPT5' && x.task === 'adherence')!.value, 63.18);
  assert.equal(p.find((x) => x.table === 'Table 3' && x.model === 'Baichuan-m2-32B' && x.task === 'title_grounding')!.value, 4.5);
  assert.throws(() => publishedRates({}), /cpgbench-table1-overall\.csv not found/);
  assert.throws(
    () => publishedRates({ ...texts, [CPG_PUBLISHED_FILES.safety]: 'model,adherence_pct\nGPT5,1\n' }),
    /missing column\(s\) content_detection_pct/,
  );
});

test('the scorecard compares only models that declare "paper", and judges the orderings', () => {
  const values = scoreValues(publishedRates(texts), RATES, 'gpt-4o-judge', PAPER_NAMES);
  const adherence = values.filter((v) => v.table === 'Table 1' && v.task === 'adherence' && v.ours !== null);
  assert.deepEqual(
    adherence.map((v) => [v.paperModel, v.runModel, v.paper, Math.round(v.ours! * 100) / 100]),
    [
      ['GPT5', 'm-a', 63.18, 50],
      ['GPT4o', 'm-b', 41.75, 40],
      ['Llama3-8B-inst', 'm-c', 21.77, 30],
    ],
  );
  assert.ok(!values.some((v) => v.runModel === 'm-private'), 'a model without "paper" is never compared');
  assert.equal(
    values.filter((v) => v.table === 'Table 3' && v.ours !== null).length,
    0,
    'no safety rows in this run: nothing to compare in Table 3',
  );
  const o = orderings(values);
  const get = (task: string) => o.find((x) => x.table === 'Table 1' && x.task === task)!;
  assert.deepEqual([get('adherence').sameOrder, get('adherence').pairs, get('adherence').tau], [3, 3, 1]);
  assert.deepEqual([get('content_detection').sameOrder, get('content_detection').tau], [0, -1]);
  assert.deepEqual([o.find((x) => x.table === 'Table 3')!.models, o.find((x) => x.table === 'Table 3')!.tau], [0, null]);
  const [values_, order] = scorecardTables(values, false, 'gpt-4o-judge');
  assert.match(values_!.caption, /^Compared: GPT5, GPT4o, Llama3-8B-inst \(models that declare "paper"\), judged by gpt-4o-judge\./);
  assert.deepEqual(
    order!.rows.find((r) => r[0] === 'Table 1' && r[1] === 'Adherence'),
    ['Table 1', 'Adherence', '3', '3 of 3', '1.00'],
  );
  const sim = scorecardTables(
    scoreValues(
      publishedRates(texts),
      RATES.map((r) => ({ ...r, simulated: true })),
      'j',
      PAPER_NAMES,
    ),
    true,
    'j',
  );
  assert.match(sim[0]!.title, /simulated stand-ins, no claim/);
  assert.ok(
    sim[0]!.rows.every((r) => r[5] === '—'),
    'nothing compared',
  );
});

test('Table 1 cells carry the case CI, the guideline CI (marked when from < 10 guidelines) and the counts, read from the rows', () => {
  const few = RATES.map((r) => (r.model === 'm-c' ? { ...r, guidelines: 3, few_guidelines: true } : r));
  const t = table1(few, [{ resamples: 2000, seed: 7, level: 0.9 }], 'gpt-4o-judge');
  assert.equal(
    t.title,
    'Table 1: content detection, title grounding and adherence rates on every recommendation (judge: gpt-4o-judge, 40 recommendations)',
  );
  assert.deepEqual(
    t.rows.map((r) => r[0]),
    ['m-private', 'm-a', 'm-b', 'm-c'],
    'by the average, best first',
  );
  assert.equal(t.rows[1]![3], '50.00 (45.00–55.00); by guideline (40.00–60.00); n=40 · answer 1');
  assert.equal(t.rows[3]![3], '30.00 (25.00–35.00); by guideline (20.00–40.00) † 3 guidelines; n=40 · answer 1');
  assert.match(t.caption, /CIs: 90% percentile bootstrap, 2000 resamples, seed 7, /);
});

test('recordedBootstrap: the one bootstrap the rate rows record; rows that disagree or lack one are refused, naming the column', () => {
  assert.deepEqual(
    recordedBootstrap([
      { resamples: 500, seed: 7, level: 0.9 },
      { resamples: 500, seed: 7, level: 0.9 },
    ]),
    {
      resamples: 500,
      seed: 7,
      level: 0.9,
    },
  );
  assert.equal(recordedBootstrap([]), null);
  assert.throws(
    () =>
      recordedBootstrap([
        { resamples: 500, seed: 7, level: 0.9 },
        { resamples: 500, seed: 8, level: 0.9 },
      ]),
    /several values of 'seed' \(7, 8\)/,
  );
  assert.throws(() => recordedBootstrap([{ resamples: 500, level: 0.9 }]), /record no 'seed'/);
});

test('Figure 5 draws detection minus adherence in percentage points, per specialty and model', () => {
  const spec = (m: string, task: string, group: string, rate: number) => row(m, task, rate, { grouping: 'specialty', group });
  const rows = [
    spec('m-a', 'content_detection', 'Pediatrics', 0.8),
    spec('m-a', 'adherence', 'Pediatrics', 0.35),
    spec('m-a', 'average', 'all', 0.5),
  ];
  const f = figure5([...rows, row('m-a', 'average', 0.5)], 'gpt-4o-judge');
  const bars = f.panels[0]!.marks.find((m) => m.type === 'barY')!.data;
  assert.deepEqual(
    bars.map((b) => [b.group, b.model, b.value]),
    [['Pediatrics', 'm-a', 45]],
  );
});

test('the leaderboard ranks by the average and gives the paired difference to the next model over the same items', () => {
  const rows = RATES.filter((r) => r.model === 'm-a' || r.model === 'm-b');
  const items = ['r1', 'r2', 'r3', 'r4'];
  const averages = new Map([
    ['m-a', new Map(items.map((i, k) => [i, k % 2 ? 1 : 2 / 3]))],
    ['m-b', new Map(items.map((i) => [i, 1 / 3]))],
  ]);
  const board = leaderboard(rows, averages, 'gpt-4o-judge', { resamples: 500, seed: 1 });
  assert.deepEqual(
    board.map((e) => [e.rank, e.model, e.next?.model ?? null]),
    [
      [1, 'm-a', 'm-b'],
      [2, 'm-b', null],
    ],
  );
  assert.ok(Math.abs(board[0]!.next!.diff!.diff - (5 / 6 - 1 / 3)) < 1e-12);
  assert.equal(board[0]!.next!.diff!.n, 4);
  const t = leaderboardTable(board, { resamples: 500, seed: 1, level: 0.9 });
  assert.match(t.caption, /with a 90% paired-bootstrap CI \(500 resamples, seed 1, the rates. bootstrap\)/);
  assert.equal(t.rows[0]![6], 'm-b');
  assert.match(t.rows[0]![7]!, /^\+50\.00 \(/);
});
