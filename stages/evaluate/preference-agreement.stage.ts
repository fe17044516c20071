/**
 * Stage `preference_agreement` (paper §4.3): how often the PCC-based choice between two
 * pathways (lower PCC preferred; LNDS-PCS negated, higher is better there) agrees with the
 * aggregated pairwise preference, per group and overall, with the raters' own agreement and
 * Cohen's κ between the two raters (stages/stats/agreement.ts).
 *
 * Sources (column `source`):
 * - 'simulated-raters' (simulated = true): pairs and choices from simulated-preferences.ts (two
 *   noisy simulated raters over the perturbation agents' true deviation counts, input
 *   `agent_plans`), for every
 *   judge × metric in pathway_metrics; pairs a judge did not score are left out for it.
 * - 'human': optional inputs `human_preferences` (CSV group,pair_id,annotator,choice) and
 *   `human_pair_pcc` (CSV pair_id,pcc_a,pcc_b); judge and metric are null (the CSV's PCC).
 * Undefined statistics (no pair with two raters; κ with chance agreement 1) are null.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { tableStage, type Row } from '../../pipeline/stage.ts';
import { cohensKappa, preferenceAgreement, type AgreementSummary, type PairPcc, type PreferenceRow } from '../stats/agreement.ts';
import { parsePairPcc, parsePreferenceChoices } from '../stats/read-csv.ts';
import { planIndex } from './agent-plans.ts';
import { simulatedChoices, simulatedPairs } from './simulated-preferences.ts';

export interface PreferenceParams {
  raterNoise: number;
  seed: number;
  tieTolerance: number;
}

const num = (x: number) => (Number.isFinite(x) ? x : null);

function kappaOf(rows: readonly PreferenceRow[]): { kappa: number | null; kappa_n: number | null } {
  const annotators = new Set(rows.map((r) => r.annotator));
  if (annotators.size !== 2) return { kappa: null, kappa_n: null };
  try {
    const k = cohensKappa(rows);
    return { kappa: num(k.kappa), kappa_n: k.n };
  } catch {
    return { kappa: null, kappa_n: null }; // the two annotators share no pair
  }
}

export function agreementRows(base: Row, choices: readonly PreferenceRow[], pcc: readonly PairPcc[], tieTolerance: number): Row[] {
  if (choices.length === 0) return [];
  const a = preferenceAgreement(choices, pcc, { tieTolerance });
  const row = (s: AgreementSummary, rows: readonly PreferenceRow[]): Row => ({
    ...base,
    group: s.group,
    pairs: s.pairs,
    agreement: num(s.agreement),
    majority_pairs: s.majorityPairs,
    agreement_majority_only: num(s.agreementMajorityOnly),
    inter_annotator: num(s.interAnnotator),
    ...kappaOf(rows),
  });
  return [
    ...a.groups.map((g) =>
      row(
        g,
        choices.filter((c) => c.group === g.group),
      ),
    ),
    row(a.overall, choices),
  ];
}

export default tableStage<PreferenceParams>({
  params: { raterNoise: 0.1, seed: 42, tieTolerance: 0 },
  // The scores and what a pathway is; not the DTW paths or the step texts.
  reads: {
    pathway_metrics: ['setting', 'model', 'cdp_id', 'judge', 'error', 'dtw_pcc', 'ot_pcc', 'lnds_pcs'],
    predicted_pathways: ['setting', 'model', 'cdp_id', 'usable', 'candidate'],
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
  run({ pathway_metrics = [], predicted_pathways = [], agent_plans = [], human_preferences = [], human_pair_pcc = [] }, ctx) {
    const tieTolerance = ctx.params.tieTolerance;
    const pairs = simulatedPairs(predicted_pathways, planIndex(agent_plans));
    const choices = simulatedChoices(pairs, ctx.params.raterNoise, ctx.params.seed);
    const out: Row[] = [];
    const judges = [...new Set(pathway_metrics.filter((r) => r.error == null).map((r) => String(r.judge)))].sort();
    for (const judge of judges) {
      const metricsOf = new Map(
        pathway_metrics.filter((r) => r.error == null && r.judge === judge).map((r) => [JSON.stringify([r.setting, r.model, r.cdp_id]), r]),
      );
      for (const metric of ['dtw_pcc', 'ot_pcc', 'lnds_pcs']) {
        const sign = metric === 'lnds_pcs' ? -1 : 1;
        const pcc: PairPcc[] = [];
        for (const p of pairs) {
          const a = metricsOf.get(JSON.stringify([p.group, p.modelA, p.cdp_id])),
            b = metricsOf.get(JSON.stringify([p.group, p.modelB, p.cdp_id]));
          if (a && b) pcc.push({ pair_id: p.pair_id, pccA: sign * (a[metric] as number), pccB: sign * (b[metric] as number) });
        }
        const scored = new Set(pcc.map((p) => p.pair_id));
        out.push(
          ...agreementRows(
            { source: 'simulated-raters', simulated: true, judge, metric },
            choices.filter((c) => scored.has(c.pair_id)),
            pcc,
            tieTolerance,
          ),
        );
      }
    }
    const read = <T>(rows: Row[], parse: (csv: string, source: string) => { rows: T[]; errors: { message: string }[] }): T[] =>
      rows.flatMap((f) => {
        const path = resolve(ctx.root, String(f.path));
        const parsed = parse(readFileSync(path, 'utf8'), basename(path));
        for (const e of parsed.errors) ctx.log(e.message);
        return parsed.rows;
      });
    const human = read(human_preferences, parsePreferenceChoices);
    if (human.length)
      out.push(
        ...agreementRows(
          { source: 'human', simulated: false, judge: null, metric: null },
          human,
          read(human_pair_pcc, parsePairPcc),
          tieTolerance,
        ),
      );
    return out;
  },
});
