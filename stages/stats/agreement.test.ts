import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  agreementOfPairs,
  aggregateChoice,
  cohensKappa,
  groupPreferences,
  kappaOfPairs,
  pccChoice,
  preferenceAgreement,
} from './agreement.ts';
import type { PreferenceRow, PairPcc } from './agreement.ts';

const close = (a: number, b: number) => Math.abs(a - b) < 1e-12;

const prefs: PreferenceRow[] = (
  [
    ['g1', 'p1', 'a1', 'A'],
    ['g1', 'p1', 'a2', 'A'],
    ['g1', 'p2', 'a1', 'B'],
    ['g1', 'p2', 'a2', 'B'],
    ['g1', 'p3', 'a1', 'A'],
    ['g1', 'p3', 'a2', 'B'],
    ['g1', 'p4', 'a1', 'tie'],
    ['g1', 'p4', 'a2', 'tie'],
    ['g2', 'p5', 'a1', 'B'],
    ['g2', 'p5', 'a2', 'tie'],
    ['g2', 'p6', 'a1', 'A'],
  ] as const
).map(([group, pair_id, annotator, choice]) => ({ group, pair_id, annotator, choice }));

const pcc: PairPcc[] = [
  { pair_id: 'p1', pccA: 0.2, pccB: 0.5 }, // PCC → A
  { pair_id: 'p2', pccA: 0.1, pccB: 0.3 }, // → A
  { pair_id: 'p3', pccA: 0.4, pccB: 0.2 }, // → B
  { pair_id: 'p4', pccA: 0.3, pccB: 0.3 }, // → tie
  { pair_id: 'p5', pccA: 0.5, pccB: 0.1 }, // → B
  { pair_id: 'p6', pccA: 0.1, pccB: 0.2 }, // → A
  { pair_id: 'unused', pccA: 0, pccB: 1 },
];

test('PCC choice: lower wins; ties within tolerance', () => {
  assert.equal(pccChoice(0.2, 0.3), 'A');
  assert.equal(pccChoice(0.3, 0.2), 'B');
  assert.equal(pccChoice(0.3, 0.3), 'tie');
  assert.equal(pccChoice(0.3, 0.305, 0.01), 'tie');
  assert.equal(aggregateChoice({ A: 2, B: 1, tie: 0 }), 'A');
  assert.equal(aggregateChoice({ A: 1, B: 0, tie: 1 }), 'split');
});

test('agreement by hand, per group and overall', () => {
  const r = preferenceAgreement(prefs, pcc);
  // Credits: p1 A=A → 1; p2 B≠A → 0; p3 split A/B, PCC B → 1/2; p4 tie=tie → 1;
  //          p5 split B/tie, PCC B → 1/2; p6 single vote A, PCC A → 1.
  assert.deepEqual(
    r.pairs.map((p) => [p.pair_id, p.human, p.pcc, p.credit]),
    [
      ['p1', 'A', 'A', 1],
      ['p2', 'B', 'A', 0],
      ['p3', 'split', 'B', 0.5],
      ['p4', 'tie', 'tie', 1],
      ['p5', 'split', 'B', 0.5],
      ['p6', 'A', 'A', 1],
    ],
  );
  const [g1, g2] = r.groups;
  // g1: (1 + 0 + 0.5 + 1)/4 = 0.625; majority pairs p1, p2, p4 → 2/3; annotators agree on 3 of 4.
  assert.equal(g1!.group, 'g1');
  assert.ok(close(g1!.agreement, 0.625));
  assert.equal(g1!.majorityPairs, 3);
  assert.ok(close(g1!.agreementMajorityOnly, 2 / 3));
  assert.ok(close(g1!.interAnnotator, 0.75));
  // g2: (0.5 + 1)/2; majority only p6 → 1; only p5 has two annotators, who disagree → 0.
  assert.ok(close(g2!.agreement, 0.75));
  assert.ok(close(g2!.agreementMajorityOnly, 1));
  assert.equal(g2!.interAnnotator, 0);
  // Overall: 4/6; majority pairs p1, p2, p4, p6 → 3/4; annotators agree on 3 of the 5 shared pairs.
  assert.ok(close(r.overall.agreement, 4 / 6));
  assert.ok(close(r.overall.agreementMajorityOnly, 3 / 4));
  assert.ok(close(r.overall.interAnnotator, 3 / 5));
  assert.equal(r.overall.pairs, 6);
});

test('three annotators: majority and pairwise inter-annotator agreement', () => {
  const rows: PreferenceRow[] = ['A', 'A', 'B'].map((choice, i) => ({
    group: 'g',
    pair_id: 'p',
    annotator: `a${i}`,
    choice: choice as 'A' | 'B',
  }));
  const r = preferenceAgreement(rows, [{ pair_id: 'p', pccA: 0.9, pccB: 0.1 }]);
  assert.equal(r.pairs[0]!.human, 'A');
  assert.equal(r.pairs[0]!.credit, 0); // PCC says B, the majority A
  assert.ok(close(r.overall.interAnnotator, 1 / 3)); // 1 agreeing annotator pair of 3
});

test("Cohen's κ by hand", () => {
  // Shared pairs p1..p5. a1: A, B, A, tie, B; a2: A, B, B, tie, tie.
  // p_o = 3/5. Marginals a1: A 2, B 2, tie 1; a2: A 1, B 2, tie 2.
  // p_e = (2·1 + 2·2 + 1·2)/25 = 8/25. κ = (0.6 − 0.32)/(1 − 0.32) = 0.28/0.68 = 7/17.
  const k = cohensKappa(prefs);
  assert.equal(k.n, 5);
  assert.ok(close(k.observed, 0.6) && close(k.expected, 0.32) && close(k.kappa, 7 / 17), `κ = ${k.kappa}`);
  assert.deepEqual(cohensKappa(prefs, 'a1', 'a2'), k);
});

test('inconsistent input is rejected with the pair named', () => {
  assert.throws(
    () =>
      preferenceAgreement(
        prefs,
        pcc.filter((p) => p.pair_id !== 'p3'),
      ),
    /no PCC values for pair p3/,
  );
  assert.throws(
    () => preferenceAgreement([...prefs, { group: 'g1', pair_id: 'p1', annotator: 'a1', choice: 'B' }], pcc),
    /annotator a1 labelled pair p1 twice/,
  );
  assert.throws(
    () => preferenceAgreement([...prefs, { group: 'g2', pair_id: 'p1', annotator: 'a3', choice: 'B' }], pcc),
    /pair p1 is in group g2 here but in g1/,
  );
  assert.throws(() => cohensKappa([...prefs, { group: 'g1', pair_id: 'p1', annotator: 'a3', choice: 'A' }]), /found 3 annotators/);
});

test('labels grouped once: agreement with scoredOnly leaves out an unscored pair, as if it were not labelled', () => {
  const labelled = groupPreferences(prefs);
  const withoutP3 = new Map(pcc.filter((p) => p.pair_id !== 'p3').map((p) => [p.pair_id, p]));
  const r = agreementOfPairs(labelled, withoutP3, { scoredOnly: true });
  const reference = preferenceAgreement(
    prefs.filter((p) => p.pair_id !== 'p3'),
    [...withoutP3.values()],
  );
  assert.deepEqual(r, reference);
  // g1 without p3: credits 1, 0, 1 → 2/3.
  assert.ok(close(r.groups[0]!.agreement, 2 / 3));
  assert.throws(() => agreementOfPairs(labelled, withoutP3), /no PCC values for pair p3/);
  // κ over the grouped pairs is cohensKappa's; two annotators sharing no pair give null.
  assert.deepEqual(kappaOfPairs(labelled.values(), 'a1', 'a2'), cohensKappa(prefs));
  assert.equal(kappaOfPairs(groupPreferences(prefs.filter((p) => p.pair_id === 'p6')).values(), 'a1', 'a2'), null);
});
