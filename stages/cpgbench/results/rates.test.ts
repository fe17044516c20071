import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discreteBootstrap } from '../../stats/discrete-bootstrap.ts';
import { computeRates, groupItems, type CellOutcomes, type Item, type Outcome, type RateRow, type Task } from './rates.ts';

// A hand-made set: 3 guidelines, 4 recommendations each, in 2 regions, 2 specialties, 2 languages;
// the first two recommendations of g1 and of g3 are safety-critical.
const ITEMS: Item[] = ['g1', 'g2', 'g3'].flatMap((g, gi) =>
  [1, 2, 3, 4].map((n) => ({
    recommendation_id: `${g}#${n}`,
    guideline_id: g,
    region: gi === 1 ? 'Germany' : 'United Kingdom',
    specialty: gi === 2 ? 'Pediatrics' : 'Internal Medicine',
    language: gi === 1 ? 'de' : 'en',
    safety_critical: gi !== 1 && n <= 2,
  })),
);

const all = (v: Outcome) => new Map<string, Outcome>(ITEMS.map((i) => [i.recommendation_id, v]));
const cell = (model: string, outcomes: Record<Task, Map<string, Outcome>>): CellOutcomes => ({
  model,
  judge: 'j',
  simulated: true,
  judge_simulated: true,
  outcomes,
});
const everyOther = new Map<string, Outcome>(
  ITEMS.map((i) => [i.recommendation_id, (Number(i.recommendation_id.split('#')[1]) % 2 === 0 ? 1 : 0) as 0 | 1]),
);

const OPTS = { resamples: 2000, seed: 7 };
const find = (rows: RateRow[], model: string, task: string, grouping: string, group: string) => {
  const r = rows.find((x) => x.model === model && x.task === task && x.grouping === grouping && x.group === group);
  assert.ok(r, `${model} ${task} ${grouping}/${group}`);
  return r;
};

test('the groups: overall, each region, specialty and language, and the safety-critical subset', () => {
  assert.deepEqual(
    groupItems(ITEMS).map((g) => [g.grouping, g.group, g.items.length]),
    [
      ['overall', 'all', 12],
      ['region', 'Germany', 4],
      ['region', 'United Kingdom', 8],
      ['specialty', 'Internal Medicine', 8],
      ['specialty', 'Pediatrics', 4],
      ['language', 'de', 4],
      ['language', 'en', 8],
      ['safety', 'safety-critical', 4],
    ],
  );
});

test('known rates: an oracle 100% everywhere, a model without titles 0% titles, one adhering every other time 50% in every group', () => {
  const rows = computeRates(
    ITEMS,
    [
      cell('oracle', { content_detection: all(1), title_grounding: all(1), adherence: all(1) }),
      cell('no-titles', { content_detection: all(1), title_grounding: all(0), adherence: all(1) }),
      cell('every-other', { content_detection: all(1), title_grounding: all(1), adherence: everyOther }),
    ],
    OPTS,
  );
  assert.equal(rows.length, 3 * 4 * 8);
  for (const r of rows) {
    const expected =
      r.model === 'oracle'
        ? 1
        : r.model === 'no-titles'
          ? ({ title_grounding: 0, average: 2 / 3 }[r.task as string] ?? 1)
          : ({ adherence: 0.5, average: 2.5 / 3 }[r.task as string] ?? 1);
    assert.ok(Math.abs(r.rate - expected) < 1e-15, `${r.model} ${r.task} ${r.grouping}/${r.group}: ${r.rate}`);
    assert.deepEqual([r.answer_failures, r.server_failures, r.unscored, r.missing_cases, r.incomplete], [0, 0, 0, 0, false]);
    // Every item has the same value, or each guideline holds exactly half: no resample can move the rate.
    if (r.model !== 'every-other' || (r.task !== 'adherence' && r.task !== 'average')) {
      assert.ok(Math.abs(r.ci_low - expected) < 1e-12 && Math.abs(r.ci_high - expected) < 1e-12, `${r.model} ${r.task} ${r.group}`);
    }
    if (r.guidelines >= 2)
      assert.ok(
        Math.abs(r.cluster_ci_low! - expected) < 1e-12 && Math.abs(r.cluster_ci_high! - expected) < 1e-12,
        `${r.model} ${r.task} ${r.group} cluster`,
      );
    else assert.equal(r.cluster_ci_low, null, 'one guideline: no cluster CI');
    assert.equal(r.few_guidelines, true, 'three guidelines are fewer than 10');
  }
  const adh = find(rows, 'every-other', 'adherence', 'overall', 'all');
  assert.deepEqual([adh.n, adh.correct, adh.guidelines], [12, 6, 3]);
  // The case CI is the case bootstrap of the 0/1 values in item order; it is wide, the cluster CI is not.
  const ref = discreteBootstrap(
    Float64Array.from(
      [...ITEMS].sort((a, b) => (a.recommendation_id < b.recommendation_id ? -1 : 1)).map((i) => everyOther.get(i.recommendation_id)!),
    ),
    OPTS,
  );
  assert.deepEqual([adh.ci_low, adh.ci_high], [ref.ciLow, ref.ciHigh]);
  assert.ok(adh.ci_low < 0.5 && adh.ci_high > 0.5 && adh.ci_high - adh.ci_low > 0.3);
  const safety = find(rows, 'every-other', 'adherence', 'safety', 'safety-critical');
  assert.deepEqual([safety.n, safety.correct, safety.guidelines, safety.rate], [4, 2, 2, 0.5]);
  assert.equal(find(rows, 'no-titles', 'title_grounding', 'language', 'de').correct, 0);
});

test('failures by kind: an answer failure and a missing judgement count 0 in n; a server failure and an unscored item leave n, marked incomplete', () => {
  const content = all(1);
  content.set('g1#1', 'answer'); // the model answered nothing
  content.delete('g2#3'); // no judgement row at all
  content.set('g1#2', 'server'); // the model's call failed: no answer exists
  content.set('g3#4', 'unscored'); // the judge failed
  const rows = computeRates(ITEMS, [cell('m', { content_detection: content, title_grounding: all(0), adherence: all(1) })], OPTS);
  const r = find(rows, 'm', 'content_detection', 'overall', 'all');
  assert.deepEqual(
    [r.n, r.correct, r.answer_failures, r.missing_cases, r.server_failures, r.unscored, r.incomplete],
    [10, 8, 1, 1, 1, 1, true],
  );
  assert.equal(r.rate, 8 / 10);
  const avg = find(rows, 'm', 'average', 'overall', 'all');
  assert.deepEqual([avg.n, avg.server_failures, avg.unscored, avg.answer_failures], [10, 1, 1, 1]);
  // Over the 10 items in it: content 8 of 10 correct, titles none, adherence all.
  assert.ok(Math.abs(avg.rate - (8 / 10 + 0 + 1) / 3) < 1e-15, 'the average of the three rates over the same items');
  const de = find(rows, 'm', 'content_detection', 'region', 'Germany');
  assert.deepEqual([de.n, de.correct, de.missing_cases, de.incomplete], [4, 3, 1, false]);
  const title = find(rows, 'm', 'title_grounding', 'overall', 'all');
  assert.deepEqual([title.n, title.incomplete], [12, false], 'another task of the same items is complete');
});

test('the rows do not depend on the order items and outcomes come in', () => {
  const cells = [cell('every-other', { content_detection: all(1), title_grounding: everyOther, adherence: everyOther })];
  const a = computeRates(ITEMS, cells, OPTS);
  const b = computeRates([...ITEMS].reverse(), cells, OPTS);
  assert.deepEqual(a, b);
});
