/**
 * Stage `preference_agreement` (paper §4.3): how often the PCC-based choice between two
 * pathways (lower PCC preferred; LNDS-PCS negated, higher is better there) agrees with the
 * aggregated pairwise preference, per group and overall, with the raters' own agreement and
 * Cohen's κ between the two raters (stages/stats/agreement.ts).
 *
 * Sources (column `source`):
 * - 'simulated-raters' (simulated = true): the pairs and choices of input `simulated_preferences`
 *   (two noisy simulated raters over the perturbation agents' true deviation counts,
 *   simulated-preferences.stage.ts), for every judge × metric in pathway_metrics; pairs a judge
 *   did not score are left out for it.
 * - 'human': optional inputs `human_preferences` (CSV group,pair_id,annotator,choice) and
 *   `human_pair_pcc` (CSV pair_id,pcc_a,pcc_b); judge and metric are null (the CSV's PCC).
 * Undefined statistics (no pair with two raters; κ with chance agreement 1) are null.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { tableStage, z, type Row } from '../../pipeline/stage.ts';
import {
  agreementOfPairs,
  groupPreferences,
  kappaOfPairs,
  type AgreementSummary,
  type Choice,
  type LabelledPair,
  type PairPcc,
} from '../stats/agreement.ts';
import { parsePairPcc, parsePreferenceChoices } from '../stats/read-csv.ts';
import { twoRaterAgreement, twoRaterPairs, type TwoRaterPairs } from '../stats/two-rater-agreement.ts';
import { SIMULATED_RATERS } from './simulated-preferences.ts';

export interface PreferenceParams {
  tieTolerance: number;
}

const num = (x: number) => (Number.isFinite(x) ? x : null);

/** κ between the two annotators of these pairs; null unless there are exactly two who share a pair. */
function kappaOf(pairs: readonly LabelledPair[]): { kappa: number | null; kappa_n: number | null } {
  const annotators = new Set<string>();
  for (const p of pairs) for (const a of p.byAnnotator.keys()) annotators.add(a);
  if (annotators.size !== 2) return { kappa: null, kappa_n: null };
  const [first, second] = [...annotators].sort() as [string, string];
  const k = kappaOfPairs(pairs, first, second);
  return k ? { kappa: num(k.kappa), kappa_n: k.n } : { kappa: null, kappa_n: null };
}

/** A group's (or the overall) row: its summary and κ. */
function summaryRow(base: Row, s: AgreementSummary, kappa: { kappa: number | null; kappa_n: number | null }): Row {
  return {
    ...base,
    group: s.group,
    pairs: s.pairs,
    agreement: num(s.agreement),
    majority_pairs: s.majorityPairs,
    agreement_majority_only: num(s.agreementMajorityOnly),
    inter_annotator: num(s.interAnnotator),
    ...kappa,
  };
}

/**
 * One row per group and one overall. With `scoredOnly`, labelled pairs without PCC values are
 * left out (a judge that did not score both pathways); otherwise they are an error.
 */
export function agreementRows(
  base: Row,
  labelled: ReadonlyMap<string, LabelledPair>,
  pccById: ReadonlyMap<string, PairPcc>,
  tieTolerance: number,
  scoredOnly = false,
): Row[] {
  const a = agreementOfPairs(labelled, pccById, { tieTolerance, scoredOnly });
  if (a.pairs.length === 0) return [];
  const inGroup = new Map<string, LabelledPair[]>();
  for (const p of a.pairs) {
    const pair = labelled.get(p.pair_id)!;
    const list = inGroup.get(p.group);
    if (list) list.push(pair);
    else inGroup.set(p.group, [pair]);
  }
  const row = (s: AgreementSummary, pairs: readonly LabelledPair[]): Row => summaryRow(base, s, kappaOf(pairs));
  return [...a.groups.map((g) => row(g, inGroup.get(g.group)!)), row(a.overall, [...inGroup.values()].flat())];
}

const pathwayKey = (setting: unknown, model: unknown, cdpId: unknown) => `${String(setting)}\u0000${String(model)}\u0000${String(cdpId)}`;

const sourceRank = (r: Row) => (r.source === 'human' ? 1 : 0);

/**
 * The simulated raters' pairs as the agreement counts them: which two pathways each pair
 * compares (pathwayKey), and the two raters' labels as arrays (two-rater-agreement.ts).
 */
interface SimulatedRatings {
  keyA: string[];
  keyB: string[];
  labels: TwoRaterPairs;
}

/**
 * The `simulated_preferences` rows as pairs and labels, group by group (the order of the groups'
 * rows). Within a group the cases' order does not matter: with two raters a pair's credit is 0,
 * ½ or 1, so every sum over pairs is exact in any order.
 */
function simulatedRatings({ simulated_preferences }: Record<string, Row[]>): SimulatedRatings {
  const byGroup = new Map<string, Row[]>();
  for (const r of simulated_preferences!) {
    if (r.error != null) continue;
    const g = String(r.group);
    const list = byGroup.get(g);
    if (list) list.push(r);
    else byGroup.set(g, [r]);
  }
  const rows = [...byGroup.keys()].sort().flatMap((g) => byGroup.get(g)!);
  const seen = new Set<string>();
  for (const r of rows) {
    const id = String(r.pair_id);
    if (seen.has(id)) throw new RangeError(`simulated_preferences: pair ${id} appears twice; a pair is labelled once by each rater`);
    seen.add(id);
  }
  // κ takes the raters in name order.
  const [first, second] = SIMULATED_RATERS[0] < SIMULATED_RATERS[1] ? ['choice_1', 'choice_2'] : ['choice_2', 'choice_1'];
  return {
    keyA: rows.map((r) => pathwayKey(r.group, r.model_a, r.cdp_id)),
    keyB: rows.map((r) => pathwayKey(r.group, r.model_b, r.cdp_id)),
    labels: twoRaterPairs(rows.map((r) => ({ group: String(r.group), first: r[first] as Choice, second: r[second] as Choice }))),
  };
}

/** One judge's rows for each metric: the simulated pairs whose two pathways it scored, against its PCC values. */
function judgeRows(judge: string, rows: readonly Row[], ratings: SimulatedRatings, tieTolerance: number): Row[] {
  const metricsOf = new Map<string, Row>();
  for (const r of rows) if (r.judge === judge) metricsOf.set(pathwayKey(r.setting, r.model, r.cdp_id), r);
  const n = ratings.keyA.length;
  const a = ratings.keyA.map((k) => metricsOf.get(k)),
    b = ratings.keyB.map((k) => metricsOf.get(k));
  const scored = Uint8Array.from(a, (x, i) => (x && b[i] ? 1 : 0));
  const out: Row[] = [];
  for (const metric of ['dtw_pcc', 'ot_pcc', 'lnds_pcs']) {
    const sign = metric === 'lnds_pcs' ? -1 : 1;
    const pccA = new Float64Array(n),
      pccB = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      if (!scored[i]) continue;
      pccA[i] = sign * (a[i]![metric] as number);
      pccB[i] = sign * (b[i]![metric] as number);
    }
    const result = twoRaterAgreement(ratings.labels, { pccA, pccB, scored }, tieTolerance);
    if (!result) continue;
    const base = { source: 'simulated-raters', simulated: true, judge, metric };
    for (const g of [...result.groups, result.overall]) out.push(summaryRow(base, g, { kappa: num(g.kappa), kappa_n: g.pairs }));
  }
  return out;
}

export default tableStage<PreferenceParams>({
  inputs: {
    pathway_metrics: 'whole',
    simulated_preferences: 'whole',
    human_preferences: 'optional whole',
    human_pair_pcc: 'optional whole',
  },
  params: {
    tieTolerance: z.number().min(0).default(0),
  },
  // The scores and what a pathway is; not the DTW paths or the step texts.
  reads: {
    pathway_metrics: ['setting', 'model', 'cdp_id', 'judge', 'error', 'dtw_pcc', 'ot_pcc', 'lnds_pcs'],
    simulated_preferences: ['pair_id', 'group', 'cdp_id', 'model_a', 'model_b', 'choice_1', 'choice_2', 'error'],
  },
  // One partition per judge (its pathways' scores), one for the human labels; the simulated
  // raters' labels go whole to each.
  // A function of its inputs and the params: the human CSVs it reads are the files its input
  // rows name, their sha256 in the key. Partitions may run on
  // worker threads (--workers).
  pure: true,
  partition: {
    by: { pathway_metrics: (r) => `judge ${String(r.judge)}`, human_preferences: () => 'human', human_pair_pcc: () => 'human' },
    // Every judge's partition needs the same simulated pairs and choices: grouped once.
    common: simulatedRatings,
    // The simulated raters' rows by judge, then the human ones, as one call over every row writes them.
    order: (a, b) => sourceRank(a) - sourceRank(b) || (String(a.judge) < String(b.judge) ? -1 : String(a.judge) > String(b.judge) ? 1 : 0),
  },
  columns: {
    source: 'VARCHAR',
    simulated: 'BOOLEAN',
    judge: 'VARCHAR',
    metric: 'VARCHAR',
    group: 'VARCHAR',
    pairs: 'INTEGER',
    agreement: 'DOUBLE',
    majority_pairs: 'INTEGER',
    agreement_majority_only: 'DOUBLE',
    inter_annotator: 'DOUBLE',
    kappa: 'DOUBLE',
    kappa_n: 'INTEGER',
  },
  run({ pathway_metrics, simulated_preferences, human_preferences, human_pair_pcc }, ctx) {
    const tieTolerance = ctx.params.tieTolerance;
    const ratings = (ctx.common as SimulatedRatings | undefined) ?? simulatedRatings({ simulated_preferences });
    const out: Row[] = [];
    const scoredRows = pathway_metrics.filter((r) => r.error == null);
    const judges = [...new Set(scoredRows.map((r) => String(r.judge)))].sort();
    for (const judge of judges) out.push(...judgeRows(judge, scoredRows, ratings, tieTolerance));
    const read = <T>(rows: Row[], parse: (csv: string, source: string) => { rows: T[]; errors: { message: string }[] }): T[] =>
      rows.flatMap((f) => {
        const path = ctx.file(String(f.path));
        const parsed = parse(readFileSync(path, 'utf8'), basename(path));
        for (const e of parsed.errors) ctx.log(e.message);
        return parsed.rows;
      });
    const human = read(human_preferences, parsePreferenceChoices);
    if (human.length)
      out.push(
        ...agreementRows(
          { source: 'human', simulated: false, judge: null, metric: null },
          groupPreferences(human),
          new Map(read(human_pair_pcc, parsePairPcc).map((p) => [p.pair_id, p])),
          tieTolerance,
        ),
      );
    return out;
  },
});
