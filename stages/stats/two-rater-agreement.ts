/**
 * Agreement between PCC choices and the labels of two raters who labelled every pair (the
 * simulated raters), by counting over typed arrays: per group and overall, the numbers
 * agreement.ts gives through `agreementOfPairs` and `kappaOfPairs`, without a record per pair.
 * A statistic recomputed for every judge × metric over 10^5 pairs spent most of its time
 * building those records and maps (profiled at the paper's size).
 *
 * With two raters a pair's credit is 0, ½ or 1 and its raters agree or not, so every sum here is
 * a count or a sum of halves: exact, and the means are the same doubles as agreement.ts's.
 */
import { pccChoice, type AgreementSummary, type Choice } from './agreement.ts';

const CODES: Readonly<Record<Choice, number>> = { A: 0, B: 1, tie: 2 };

/** Pairs labelled by the same two raters, in the order the groups first appear. */
export interface TwoRaterPairs {
  /** Group names, in order of first appearance among the pairs. */
  groups: string[];
  /** Per pair, its group's index. */
  group: Int32Array;
  /** Per pair, the first rater's choice (0 A, 1 B, 2 tie); the raters in name order. */
  first: Uint8Array;
  /** Per pair, the second rater's choice. */
  second: Uint8Array;
}

export interface LabelledByTwo {
  group: string;
  first: Choice;
  second: Choice;
}

/** The pairs as arrays; a choice other than A, B or tie is an error naming the pair's position. */
export function twoRaterPairs(pairs: readonly LabelledByTwo[]): TwoRaterPairs {
  const groupIndex = new Map<string, number>();
  const out: TwoRaterPairs = {
    groups: [],
    group: new Int32Array(pairs.length),
    first: new Uint8Array(pairs.length),
    second: new Uint8Array(pairs.length),
  };
  pairs.forEach((p, i) => {
    let g = groupIndex.get(p.group);
    if (g === undefined) {
      groupIndex.set(p.group, (g = out.groups.length));
      out.groups.push(p.group);
    }
    out.group[i] = g;
    out.first[i] = code(p.first, i);
    out.second[i] = code(p.second, i);
  });
  return out;
}

function code(choice: unknown, i: number): number {
  if (typeof choice !== 'string' || !Object.hasOwn(CODES, choice))
    throw new RangeError(`preference pair ${i}: choice must be A, B or tie, got ${JSON.stringify(choice)}`);
  return CODES[choice as Choice];
}

/** The agreement of one group (or 'overall'): agreement.ts's summary, and κ over the group's pairs. */
export interface GroupAgreement extends AgreementSummary {
  /** Cohen's κ between the two raters over the group's pairs (NaN when chance agreement is 1). */
  kappa: number;
}

/** PCC values per pair (lower wins), and which pairs have them: a pair without is left out. */
export interface PairScores {
  pccA: Float64Array;
  pccB: Float64Array;
  scored: Uint8Array;
}

/** Per group with a scored pair (in order) and overall; null when no pair is scored. */
export function twoRaterAgreement(
  pairs: TwoRaterPairs,
  scores: PairScores,
  tieTolerance = 0,
): { groups: GroupAgreement[]; overall: GroupAgreement } | null {
  const counts = Array.from({ length: pairs.groups.length + 1 }, () => new Float64Array(COUNTS));
  const overall = counts[pairs.groups.length]!;
  for (let i = 0; i < pairs.group.length; i++) {
    if (!scores.scored[i]) continue;
    const machine = CODES[pccChoice(scores.pccA[i]!, scores.pccB[i]!, tieTolerance)];
    const a = pairs.first[i]!,
      b = pairs.second[i]!;
    // Raters who agree make a majority (credit 1 when PCC chose the same); raters who split give
    // the PCC's choice the share of the raters who made it.
    const credit = a === b ? (machine === a ? 1 : 0) : machine === a || machine === b ? 0.5 : 0;
    for (const c of [counts[pairs.group[i]!]!, overall]) {
      c[N]++;
      c[CREDIT] += credit;
      if (a === b) {
        c[SAME]++;
        c[MAJORITY_CREDIT] += credit;
      }
      c[FIRST + a]++;
      c[SECOND + b]++;
    }
  }
  if (overall[N] === 0) return null;
  const groups = pairs.groups.flatMap((g, k) => (counts[k]![N] ? [summary(g, counts[k]!)] : []));
  return { groups, overall: summary('overall', overall) };
}

// The counts kept per group, by offset: pairs, credit, pairs whose raters agree, their credit,
// then each rater's choices (A, B, tie).
const N = 0,
  CREDIT = 1,
  SAME = 2,
  MAJORITY_CREDIT = 3,
  FIRST = 4,
  SECOND = 7,
  COUNTS = 10;

function summary(group: string, c: Float64Array): GroupAgreement {
  const n = c[N]!,
    same = c[SAME]!;
  let expected = 0;
  // As kappaOfPairs sums it: A, B, tie in order, each share divided first.
  for (let k = 0; k < 3; k++) expected += (c[FIRST + k]! / n) * (c[SECOND + k]! / n);
  const observed = same / n;
  return {
    group,
    pairs: n,
    agreement: c[CREDIT]! / n,
    majorityPairs: same,
    agreementMajorityOnly: same ? c[MAJORITY_CREDIT]! / same : NaN,
    interAnnotator: same / n,
    kappa: expected === 1 ? NaN : (observed - expected) / (1 - expected),
  };
}
