/**
 * Agreement between PCC and human pairwise preferences (paper §4.3). For each pair, annotators
 * saw a reference pathway and two model pathways, A and B, and chose the one more consistent
 * with the reference (or 'tie'). PCC prefers the pathway with the LOWER PCC (lower = better).
 *
 * Documented choices:
 * - Aggregated human choice: the choice with strictly the most votes; when the top count is
 *   shared (e.g. one annotator says A, the other B), the pair is 'split'.
 * - Agreement credit of a pair: 1 if the PCC choice equals a majority choice, else 0; for a
 *   split pair, the share of annotators who made the PCC's choice (0.5 when two annotators
 *   split A/B and PCC sides with one). With two annotators this equals the mean of the
 *   per-annotator agreement rates, and it explains the paper's half-percent rates (88.5 % of
 *   100 pairs). The majority-only rate, over non-split pairs, is reported too.
 * - PCC choice: 'tie' when |PCC_A − PCC_B| ≤ tieTolerance (default 0: exact equality).
 * - Inter-annotator raw agreement: per pair, the share of annotator pairs that chose the same;
 *   averaged over pairs with at least two annotators.
 * - Cohen's κ over the three categories A, B, tie; NaN when chance agreement is 1.
 */

export type Choice = 'A' | 'B' | 'tie';
const CHOICES: readonly Choice[] = ['A', 'B', 'tie'];

export interface PreferenceRow {
  group: string;
  pair_id: string;
  annotator: string;
  choice: Choice;
}

export interface PairPcc {
  pair_id: string;
  pccA: number;
  pccB: number;
}

export interface AggregatedPair {
  group: string;
  pair_id: string;
  votes: Record<Choice, number>;
  human: Choice | 'split';
  pcc: Choice;
  credit: number;
}

export interface AgreementSummary {
  /** The group name, or 'overall'. */
  group: string;
  pairs: number;
  /** Mean credit over all pairs. */
  agreement: number;
  /** Pairs with a strict majority. */
  majorityPairs: number;
  /** Agreement over majority pairs only (NaN if none). */
  agreementMajorityOnly: number;
  /** Inter-annotator raw agreement (NaN if no pair has two annotators). */
  interAnnotator: number;
}

export interface AgreementResult {
  pairs: AggregatedPair[];
  groups: AgreementSummary[];
  overall: AgreementSummary;
}

export interface AgreementOptions {
  /** |PCC_A − PCC_B| at or below this is a PCC tie; default 0. */
  tieTolerance?: number;
}

/** Lower PCC wins. */
export function pccChoice(pccA: number, pccB: number, tieTolerance = 0): Choice {
  if (!Number.isFinite(pccA) || !Number.isFinite(pccB))
    throw new RangeError(`pccChoice: PCC values must be finite, got A = ${pccA}, B = ${pccB}`);
  if (Math.abs(pccA - pccB) <= tieTolerance) return 'tie';
  return pccA < pccB ? 'A' : 'B';
}

/** Strict plurality of the votes, or 'split'. */
export function aggregateChoice(votes: Record<Choice, number>): Choice | 'split' {
  const top = Math.max(votes.A, votes.B, votes.tie);
  const leaders = CHOICES.filter((c) => votes[c] === top);
  return top > 0 && leaders.length === 1 ? leaders[0]! : 'split';
}

/** Share of annotator pairs that agree, for one pair's votes (NaN with fewer than 2 votes). */
function pairwiseAgreement(votes: Record<Choice, number>): number {
  const total = votes.A + votes.B + votes.tie;
  if (total < 2) return NaN;
  const same = CHOICES.reduce((s, c) => s + (votes[c] * (votes[c] - 1)) / 2, 0);
  return same / ((total * (total - 1)) / 2);
}

/** One labelled pair: its group and each annotator's choice. */
export interface LabelledPair {
  group: string;
  byAnnotator: Map<string, Choice>;
}

/**
 * The labels grouped by pair, checked once: agreement under many PCC sets (one per judge and
 * metric) reads the same grouping instead of regrouping every label for each.
 */
export function groupPreferences(rows: readonly PreferenceRow[]): Map<string, LabelledPair> {
  const pairs = new Map<string, LabelledPair>();
  rows.forEach((r, i) => {
    if (!CHOICES.includes(r.choice))
      throw new RangeError(`preference row ${i}: choice must be A, B or tie, got ${JSON.stringify(r.choice)}`);
    let p = pairs.get(r.pair_id);
    if (!p) pairs.set(r.pair_id, (p = { group: r.group, byAnnotator: new Map() }));
    if (p.group !== r.group)
      throw new RangeError(
        `preference row ${i}: pair ${r.pair_id} is in group ${r.group} here but in ${p.group} before; a pair belongs to one group`,
      );
    if (p.byAnnotator.has(r.annotator))
      throw new RangeError(`preference row ${i}: annotator ${r.annotator} labelled pair ${r.pair_id} twice; keep one label`);
    p.byAnnotator.set(r.annotator, r.choice);
  });
  return pairs;
}

function summarise(group: string, pairs: readonly AggregatedPair[]): AgreementSummary {
  const majority = pairs.filter((p) => p.human !== 'split');
  const withTwo = pairs.map((p) => pairwiseAgreement(p.votes)).filter((a) => !Number.isNaN(a));
  const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);
  return {
    group,
    pairs: pairs.length,
    agreement: mean(pairs.map((p) => p.credit)),
    majorityPairs: majority.length,
    agreementMajorityOnly: mean(majority.map((p) => p.credit)),
    interAnnotator: mean(withTwo),
  };
}

export function preferenceAgreement(rows: readonly PreferenceRow[], pcc: readonly PairPcc[], opts: AgreementOptions = {}): AgreementResult {
  return agreementOfPairs(groupPreferences(rows), new Map(pcc.map((p) => [p.pair_id, p])), opts);
}

/**
 * preferenceAgreement over labels already grouped. With `scoredOnly`, a labelled pair without
 * PCC values is left out (as if it had not been labelled) instead of being an error.
 */
export function agreementOfPairs(
  labelled: ReadonlyMap<string, LabelledPair>,
  pccById: ReadonlyMap<string, PairPcc>,
  opts: AgreementOptions & { scoredOnly?: boolean } = {},
): AgreementResult {
  const tieTolerance = opts.tieTolerance ?? 0;
  const aggregated: AggregatedPair[] = [];
  for (const [pair_id, { group, byAnnotator }] of labelled) {
    const values = pccById.get(pair_id);
    if (!values) {
      if (opts.scoredOnly) continue;
      throw new RangeError(`preference agreement: no PCC values for pair ${pair_id}; score both pathways of every labelled pair`);
    }
    const votes: Record<Choice, number> = { A: 0, B: 0, tie: 0 };
    for (const c of byAnnotator.values()) votes[c]++;
    const human = aggregateChoice(votes);
    const machine = pccChoice(values.pccA, values.pccB, tieTolerance);
    const credit = human === 'split' ? votes[machine] / byAnnotator.size : human === machine ? 1 : 0;
    aggregated.push({ group, pair_id, votes, human, pcc: machine, credit });
  }
  const byGroup = new Map<string, AggregatedPair[]>();
  for (const p of aggregated) {
    const list = byGroup.get(p.group);
    if (list) list.push(p);
    else byGroup.set(p.group, [p]);
  }
  return {
    pairs: aggregated,
    groups: [...byGroup].map(([g, pairs]) => summarise(g, pairs)),
    overall: summarise('overall', aggregated),
  };
}

export interface Kappa {
  kappa: number;
  /** Observed agreement p_o. */
  observed: number;
  /** Chance agreement p_e = Σ_c p1(c)·p2(c). */
  expected: number;
  /** Pairs labelled by both annotators. */
  n: number;
}

/**
 * Cohen's κ = (p_o − p_e) / (1 − p_e) between two annotators over the pairs both labelled.
 * Without names, the data must have exactly two annotators.
 */
export function cohensKappa(rows: readonly PreferenceRow[], first?: string, second?: string): Kappa {
  if (first === undefined || second === undefined) {
    const names = [...new Set(rows.map((r) => r.annotator))].sort();
    if (names.length !== 2)
      throw new RangeError(`cohensKappa: found ${names.length} annotators (${names.join(', ')}); name the two to compare`);
    [first, second] = names as [string, string];
  }
  const k = kappaOfPairs(groupPreferences(rows).values(), first, second);
  if (!k) throw new RangeError(`cohensKappa: annotators ${first} and ${second} labelled no pair in common`);
  return k;
}

/** Cohen's κ between two named annotators over grouped pairs; null when they share no pair. */
export function kappaOfPairs(pairs: Iterable<LabelledPair>, first: string, second: string): Kappa | null {
  const p1: Record<Choice, number> = { A: 0, B: 0, tie: 0 },
    p2: Record<Choice, number> = { A: 0, B: 0, tie: 0 };
  let n = 0,
    same = 0;
  for (const { byAnnotator } of pairs) {
    const a = byAnnotator.get(first),
      b = byAnnotator.get(second);
    if (a === undefined || b === undefined) continue;
    n++;
    p1[a]++;
    p2[b]++;
    if (a === b) same++;
  }
  if (n === 0) return null;
  const observed = same / n;
  const expected = CHOICES.reduce((s, c) => s + (p1[c] / n) * (p2[c] / n), 0);
  return { kappa: expected === 1 ? NaN : (observed - expected) / (1 - expected), observed, expected, n };
}
