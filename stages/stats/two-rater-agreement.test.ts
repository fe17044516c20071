// Counting over arrays gives agreement.ts's numbers exactly: a hand-computed case, and random
// pairs (ties, splits, unscored pairs, a tie tolerance) against agreementOfPairs + kappaOfPairs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agreementOfPairs, groupPreferences, kappaOfPairs, type Choice, type PairPcc } from './agreement.ts';
import { createRng } from './rng.ts';
import { twoRaterAgreement, twoRaterPairs, type LabelledByTwo } from './two-rater-agreement.ts';

test('four pairs by hand: majority, split and tie credit, κ', () => {
  const pairs: LabelledByTwo[] = [
    { group: 'g1', first: 'A', second: 'A' }, // PCC A: credit 1
    { group: 'g1', first: 'A', second: 'B' }, // split, PCC B: credit ½
    { group: 'g2', first: 'B', second: 'B' }, // PCC tie: credit 0
    { group: 'g2', first: 'tie', second: 'A' }, // split, PCC B: credit 0
  ];
  const r = twoRaterAgreement(
    twoRaterPairs(pairs),
    { pccA: Float64Array.of(0.1, 0.9, 0.5, 0.8), pccB: Float64Array.of(0.2, 0.3, 0.5, 0.1), scored: Uint8Array.of(1, 1, 1, 1) },
    0,
  )!;
  assert.deepEqual(
    r.groups.map((g) => [g.group, g.pairs, g.agreement, g.majorityPairs, g.agreementMajorityOnly, g.interAnnotator]),
    [
      ['g1', 2, 0.75, 1, 1, 0.5],
      ['g2', 2, 0, 1, 0, 0.5],
    ],
  );
  assert.equal(r.overall.agreement, 1.5 / 4);
  // Overall: rater 1 A, A, B, tie; rater 2 A, B, B, A. p_o = 2/4; p_e = (2/4)(2/4) + (1/4)(2/4) + (1/4)(0) = 3/8.
  assert.equal(r.overall.kappa, (0.5 - 0.375) / (1 - 0.375));
});

test('no scored pair: no rows; a group without a scored pair: no row for it', () => {
  const labels = twoRaterPairs([
    { group: 'g1', first: 'A', second: 'A' },
    { group: 'g2', first: 'B', second: 'A' },
  ]);
  const scores = (s: number[]) => ({ pccA: new Float64Array(2), pccB: Float64Array.of(1, 1), scored: Uint8Array.from(s) });
  assert.equal(twoRaterAgreement(labels, scores([0, 0])), null);
  assert.deepEqual(
    twoRaterAgreement(labels, scores([0, 1]))!.groups.map((g) => g.group),
    ['g2'],
  );
});

test('a choice other than A, B or tie is an error naming the pair', () => {
  assert.throws(() => twoRaterPairs([{ group: 'g', first: 'A', second: 'C' as Choice }]), /pair 0: choice must be A, B or tie, got "C"/);
  assert.throws(() => twoRaterPairs([{ group: 'g', first: null as never, second: 'A' }]), /got null/);
});

test('random pairs: the same doubles as agreementOfPairs and kappaOfPairs', () => {
  const rng = createRng(7);
  const rand = () => rng.nextFloat();
  const choices: Choice[] = ['A', 'B', 'tie'];
  for (let round = 0; round < 40; round++) {
    const n = 1 + Math.floor(rand() * 400);
    const tol = round % 3 === 0 ? 0 : rand() * 0.2;
    const pairs = Array.from({ length: n }, (_, i) => ({
      id: `p${i}`,
      group: `g${Math.floor(rand() * 4)}`,
      first: choices[Math.floor(rand() * 3)]!,
      second: choices[Math.floor(rand() * 3)]!,
      // A coarse grid makes exact ties common.
      pccA: Math.round(rand() * 8) / 8,
      pccB: Math.round(rand() * 8) / 8,
      scored: rand() < 0.85,
    }));
    pairs.sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
    const got = twoRaterAgreement(
      twoRaterPairs(pairs),
      {
        pccA: Float64Array.from(pairs, (p) => p.pccA),
        pccB: Float64Array.from(pairs, (p) => p.pccB),
        scored: Uint8Array.from(pairs, (p) => (p.scored ? 1 : 0)),
      },
      tol,
    );
    const labelled = groupPreferences(
      pairs.flatMap((p) => [
        { group: p.group, pair_id: p.id, annotator: 'r1', choice: p.first },
        { group: p.group, pair_id: p.id, annotator: 'r2', choice: p.second },
      ]),
    );
    const pcc = new Map<string, PairPcc>(pairs.filter((p) => p.scored).map((p) => [p.id, { pair_id: p.id, pccA: p.pccA, pccB: p.pccB }]));
    const want = agreementOfPairs(labelled, pcc, { tieTolerance: tol, scoredOnly: true });
    if (want.pairs.length === 0) {
      assert.equal(got, null);
      continue;
    }
    const scoredIn = (g: string | null) =>
      [...labelled].filter(([id, p]) => pcc.has(id) && (g === null || p.group === g)).map(([, p]) => p);
    const expect = [...want.groups, want.overall].map((s) => ({
      group: s.group,
      pairs: s.pairs,
      agreement: s.agreement,
      majorityPairs: s.majorityPairs,
      agreementMajorityOnly: s.agreementMajorityOnly,
      interAnnotator: s.interAnnotator,
      kappa: kappaOfPairs(scoredIn(s.group === 'overall' ? null : s.group), 'r1', 'r2')!.kappa,
    }));
    assert.deepEqual([...got!.groups, got!.overall], expect, `round ${round}`);
  }
});
