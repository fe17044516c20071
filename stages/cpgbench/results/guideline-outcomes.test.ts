// cpg_outcomes' rows (guideline-outcomes.ts) carry exactly the rates' inputs: decoding them gives
// back the items and cells, and the rates of any one group computed from only its guidelines' rows
// are the rows of that group in one computation over everything; the cluster CIs of columns
// batched over one guideline sequence are those of one call per column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterBootstrap } from '../../stats/bootstrap.ts';
import { computeRates, groupItems, groupKey, type CellOutcomes, type Item, type Outcome, type Task } from './rates.ts';
import { fromGuidelineOutcomes, guidelineOutcomeRows } from './guideline-outcomes.ts';
import { withRosterCells } from './outcomes.ts';

// 5 guidelines of 3 recommendations (g5 of unknown region), two cells with every outcome kind.
const ITEMS: Item[] = ['g1', 'g2', 'g3', 'g4', 'g5'].flatMap((g, gi) =>
  [1, 2, 3].map((n) => ({
    recommendation_id: `${g}#${n}`,
    guideline_id: g,
    region: gi === 4 ? null : gi % 2 ? 'Germany' : 'WHO',
    specialty: gi < 2 ? 'Pediatrics' : 'Surgery',
    language: gi % 2 ? 'de' : 'en',
    safety_critical: n === 1 ? true : n === 2 ? false : null,
  })),
);
const KINDS: (Outcome | undefined)[] = [1, 0, 1, 'answer', 1, 'server', 0, 'unscored', undefined, 1, 1, 0, 1, 0, 1];
const outcomes = (shift: number) =>
  Object.fromEntries(
    (['content_detection', 'title_grounding', 'adherence'] as Task[]).map((t, k) => [
      t,
      new Map(
        ITEMS.flatMap((i, j) =>
          KINDS[(j + k + shift) % KINDS.length] === undefined ? [] : [[i.recommendation_id, KINDS[(j + k + shift) % KINDS.length]!]],
        ),
      ),
    ]),
  ) as Record<Task, Map<string, Outcome>>;
const CELLS: CellOutcomes[] = [
  { model: 'm-a', judge: 'j', simulated: false, judge_simulated: false, outcomes: outcomes(0) },
  { model: 'm-b', judge: 'j', simulated: true, judge_simulated: false, outcomes: outcomes(4) },
];
const OPTS = { resamples: 300, seed: 3 };

test('cpg_outcomes rows: one per guideline, decoded back to the same items and outcomes', () => {
  const rows = guidelineOutcomeRows([...ITEMS].reverse(), CELLS);
  assert.deepEqual(
    rows.map((r) => [r.guideline_id, r.region, r.safety, (r.recommendation_ids as string[]).join(' ')]),
    [
      ['g1', 'WHO', 'tf-', 'g1#1 g1#2 g1#3'],
      ['g2', 'Germany', 'tf-', 'g2#1 g2#2 g2#3'],
      ['g3', 'WHO', 'tf-', 'g3#1 g3#2 g3#3'],
      ['g4', 'Germany', 'tf-', 'g4#1 g4#2 g4#3'],
      ['g5', null, 'tf-', 'g5#1 g5#2 g5#3'],
    ],
  );
  // m-a's content detection on g3: KINDS[6..8] = 0, unscored, missing.
  assert.deepEqual((rows[2]!.content_detection as string[])[0], '0u-');
  const back = fromGuidelineOutcomes(rows);
  assert.deepEqual(back.items, ITEMS);
  assert.deepEqual(back.cells, CELLS);
});

test('the rates of each group from its guidelines’ rows alone are that group’s rows of one computation over every item', () => {
  const whole = computeRates(ITEMS, CELLS, OPTS);
  const rows = guidelineOutcomeRows(ITEMS, CELLS);
  const groups = groupItems(ITEMS);
  assert.equal(whole.length, groups.length * CELLS.length * 4);
  for (const g of groups) {
    const mine = rows.filter((r) =>
      g.grouping === 'safety' ? String(r.safety).includes('t') : groupKey(g.grouping, r as never) === g.group,
    );
    const { items, cells } = fromGuidelineOutcomes(mine);
    const part = computeRates(items, cells, OPTS, g);
    assert.deepEqual(
      part,
      whole.filter((r) => r.grouping === g.grouping && r.group === g.group),
      `${g.grouping}/${g.group}`,
    );
  }
});

test('cluster CIs batched over one guideline sequence are those of one clusterBootstrap call per column', () => {
  const rows = computeRates(ITEMS, CELLS, OPTS).filter((r) => r.grouping === 'overall' && r.task !== 'average');
  for (const r of rows) {
    const cell = CELLS.find((c) => c.model === r.model)!;
    // The column as rates.ts defines it: server failures and unscored items out, answer failures and missing items 0.
    const kept = ITEMS.filter((i) => !['server', 'unscored'].includes(String(cell.outcomes[r.task as Task].get(i.recommendation_id))));
    const values = Float64Array.from(kept, (i) => (cell.outcomes[r.task as Task].get(i.recommendation_id) === 1 ? 1 : 0));
    const labels = new Map(ITEMS.map((i) => [i.guideline_id, Number(i.guideline_id.slice(1))]));
    const one = clusterBootstrap(
      values,
      Int32Array.from(kept, (i) => labels.get(i.guideline_id)!),
      OPTS,
    );
    assert.deepEqual([r.cluster_ci_low, r.cluster_ci_high, r.n], [one.ciLow, one.ciHigh, values.length], `${r.model} ${r.task}`);
  }
});

test('withRosterCells: every roster pair a judge scores, with no outcome when no row names it; a real judge never a stand-in', () => {
  const ref = (name: string, simulated: boolean) => ({ name, simulated }) as never;
  const cells = withRosterCells([CELLS[0]!], {
    models: [ref('m-a', false), ref('m-c', false), ref('sim', true)],
    judges: [ref('j', false)],
  });
  assert.deepEqual(
    cells.map((c) => [c.model, c.judge, c.outcomes.adherence.size]),
    [
      ['m-a', 'j', CELLS[0]!.outcomes.adherence.size],
      ['m-c', 'j', 0],
    ],
  );
});
