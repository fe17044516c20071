import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { specialtyTests } from './specialty-test.ts';
import { judgeAgreement, parseHumanLabels, type JudgeScores } from './human-labels.ts';
import type { CellOutcomes, Item, Outcome, Task } from './rates.ts';

const ref = JSON.parse(readFileSync(new URL('../../stats/fixtures/chi2-kappa-reference.json', import.meta.url), 'utf8')) as {
  chi2: { table: number[][]; statistic: number; df: number; p: number }[];
  kappa: { first: string[]; second: string[]; kappa: number }[];
};

test('the χ² across specialties of each model × task equals SciPy on the reference 24-specialty tables', () => {
  // Items and outcomes that reproduce reference tables 0–2 (24 specialties × correct / not correct).
  const items: Item[] = [];
  const cells: CellOutcomes[] = [];
  const outcomes: Record<Task, Map<string, Outcome>> = {
    content_detection: new Map(),
    title_grounding: new Map(),
    adherence: new Map(),
  };
  const tasks: Task[] = ['content_detection', 'title_grounding', 'adherence'];
  for (let s = 0; s < 24; s++) {
    const size = Math.max(...tasks.map((_, k) => ref.chi2[k]!.table[s]![0]! + ref.chi2[k]!.table[s]![1]!));
    for (let i = 0; i < size; i++) {
      const id = `s${s}#${i}`;
      items.push({
        recommendation_id: id,
        guideline_id: `g${s}`,
        region: null,
        specialty: `specialty ${s}`,
        language: 'en',
        safety_critical: false,
      });
    }
  }
  // Tables of one reference case have equal row totals only within a case; give each task its own items.
  tasks.forEach((t, k) => {
    const table = ref.chi2[k]!.table;
    for (let s = 0; s < 24; s++) {
      const [yes, no] = table[s]!;
      for (let i = 0; i < yes! + no!; i++) outcomes[t].set(`s${s}#${i}`, i < yes! ? 1 : 0);
    }
  });
  cells.push({ model: 'm', judge: 'j', simulated: false, judge_simulated: false, outcomes });
  // Each task sees only the items its table has: restrict the items per task.
  for (const [k, t] of tasks.entries()) {
    const mine = items.filter((i) => outcomes[t].has(i.recommendation_id));
    const row = specialtyTests(mine, cells).find((r) => r.task === t)!;
    const want = ref.chi2[k]!;
    assert.ok(Math.abs(row.statistic! - want.statistic) <= 1e-10 * want.statistic, `${t}: ${row.statistic} vs ${want.statistic}`);
    assert.equal(row.df, want.df);
    assert.ok(Math.abs(row.p! - want.p) <= 1e-8 * want.p, `${t}: p ${row.p} vs ${want.p}`);
    assert.equal(row.specialties, 24);
  }
});

test('a task every item passes has no χ² test, and says why', () => {
  const items: Item[] = ['a', 'b'].flatMap((s) =>
    [1, 2].map((n) => ({
      recommendation_id: `${s}${n}`,
      guideline_id: s,
      region: null,
      specialty: s,
      language: 'en',
      safety_critical: false,
    })),
  );
  const one = new Map<string, Outcome>(items.map((i) => [i.recommendation_id, 1 as const]));
  const [row] = specialtyTests(items, [
    {
      model: 'oracle',
      judge: 'j',
      simulated: true,
      judge_simulated: true,
      outcomes: { content_detection: one, title_grounding: one, adherence: one },
    },
  ]);
  assert.equal(row!.p, null);
  assert.match(row!.reason!, /same outcome/);
});

test('human labels from a CSV: κ with the judge over 0/1 items, the 0.5 items apart, κ between annotators on three levels', () => {
  // The paper's content-detection proportions ×100 (judge, human): (0,0) 9, (0,1) 1, (1,0) 2, (1,1) 47;
  // human 0.5: judge 0 on 8, judge 1 on 33.
  const rows: string[] = ['task,recommendation_id,model,annotator,human'];
  const judged = new Map<string, 0 | 1>();
  let n = 0;
  const add = (judge: 0 | 1, human: string, count: number) => {
    for (let i = 0; i < count; i++) {
      const id = `r${n++}`;
      judged.set(`gpt-4o\u0000${id}`, judge);
      rows.push(`content_detection,${id},gpt-4o,clinicians,${human}`);
    }
  };
  add(0, '0', 9);
  add(0, '1', 1);
  add(1, '0', 2);
  add(1, '1', 47);
  add(0, '0.5', 8);
  add(1, '0.5', 33);
  rows.push('content_detection,r-unjudged,gpt-4o,clinicians,1', 'adherence,r0,gpt-4o,clinicians,maybe', 'detection,r0,gpt-4o,clinicians,1');
  const parsed = parseHumanLabels(rows.join('\n') + '\n', 'labels.csv');
  assert.deepEqual(
    parsed.errors.map((e) => e.message),
    [
      'labels.csv line 103: column "human" must be 0, 0.5 or 1, got "maybe"',
      'labels.csv line 104: column "task" must be one of content_detection, title_grounding, adherence, got "detection"',
    ],
  );
  const scores: JudgeScores = new Map([['judge-llm', new Map([['content_detection', judged]])]]);
  const [k] = judgeAgreement(parsed.rows, scores);
  const po = 56 / 59,
    pe = (10 * 11 + 49 * 48) / 59 ** 2;
  assert.equal(k!.kind, 'judge-human');
  assert.equal(k!.n, 59);
  assert.ok(Math.abs(k!.kappa! - (po - pe) / (1 - pe)) < 1e-14);
  assert.equal(k!.half, 41);
  assert.ok(Math.abs(k!.half_judged_1! - 33 / 41) < 1e-15, 'the paper: 80.5% of human 0.5 judged 1');
  assert.equal(k!.unmatched, 1);

  // Two annotators: κ over their common items equals the NumPy reference on three levels.
  const c = ref.kappa.find((x) => x.first.includes('0.5') && x.first.length === 75)!;
  const two = ['task,recommendation_id,model,annotator,human'];
  c.first.forEach((h, i) => two.push(`adherence,r${i},m,group-a,${h}`, `adherence,r${i},m,group-b,${c.second[i]}`));
  const inter = judgeAgreement(parseHumanLabels(two.join('\n')).rows, new Map()).filter((r) => r.kind === 'human-human');
  assert.equal(inter.length, 1);
  assert.deepEqual([inter[0]!.first, inter[0]!.second, inter[0]!.n], ['group-a', 'group-b', 75]);
  assert.ok(Math.abs(inter[0]!.kappa! - c.kappa) < 1e-12);
  assert.throws(() => parseHumanLabels('task,model,human\n'), /missing columns "recommendation_id", "annotator"/);
});
