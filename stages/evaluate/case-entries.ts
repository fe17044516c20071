/**
 * Every test case's entry in every cell (setting, judge, metric, model) before the failure
 * policy (failure-policy.ts): its value as judged, or null, and its kind of failure from
 * predicted_pathways. model_summary computes its means from these, and the leaderboard and the
 * compare notebook their paired differences, so both always stand on the same cases and values.
 *
 * A predicted_pathways row with an `error` (an imported line that names no test case) is not a
 * test case: it and the judging rows made from it enter no cell.
 */
import type { Row } from '../../pipeline/stage.ts';
import { CASE_FAILURES, type CaseFailure, type CellEntries, type PolicyMetric } from './failure-policy.ts';

/**
 * One value of a key: a string as it is, anything else (or a string a NUL or a leading U+0001
 * could make ambiguous) as marked JSON (undefined as null, as JSON.stringify of a tuple has it),
 * so two different tuples never share a key. Joined by NUL: about half the cost of
 * JSON.stringify of the tuple, which was made for every row of every cell.
 */
const part = (v: unknown) =>
  typeof v === 'string' && v.charCodeAt(0) !== 1 && !v.includes('\u0000') ? v : `\u0001${JSON.stringify(v ?? null)}`;

export const caseKey = (r: Row) => `${part(r.setting)}\u0000${part(r.model)}\u0000${part(r.cdp_id)}`;

/** The columns of each input the entries need. */
export const CASE_COLUMNS = ['setting', 'model', 'cdp_id', 'guideline_id', 'simulated'];
export const ENTRY_READS = {
  pathway_metrics: [...CASE_COLUMNS, 'judge', 'judge_simulated', 'error', 'dtw_pcc', 'ot_pcc', 'lnds_pcs'],
  outcome_scores: [...CASE_COLUMNS, 'judge', 'judge_simulated', 'error', 'correct'],
  predicted_pathways: [...CASE_COLUMNS, 'error', 'failure', 'usable', 'success', 'success_strict'],
};

function failureOf(p: Row | undefined): CaseFailure | null {
  const f = p?.failure;
  if (f == null) return null;
  if (!CASE_FAILURES.includes(f as CaseFailure)) {
    const which = `predicted_pathways row ${String(p!.cdp_id)} (${String(p!.model)})`;
    throw new RangeError(
      `${which} has failure ${JSON.stringify(f)}; expected one of ${CASE_FAILURES.join(', ')} or null; rerun predicted_pathways`,
    );
  }
  return f as CaseFailure;
}

export function cellEntries({
  pathway_metrics = [],
  outcome_scores = [],
  predicted_pathways = [],
}: Record<string, readonly Row[]>): CellEntries[] {
  const pathways = new Map(predicted_pathways.map((p) => [caseKey(p), p]));
  const cells = new Map<string, CellEntries>();
  // Rows come in runs of one setting, judge and model: the last run's cells are looked up first.
  let last: { setting: unknown; judge: string | null; model: unknown; byMetric: Map<PolicyMetric, CellEntries> } | null = null;
  const cellOf = (r: Row, judge: string | null, metric: PolicyMetric): CellEntries => {
    if (!last || last.setting !== r.setting || last.judge !== judge || last.model !== r.model)
      last = { setting: r.setting, judge, model: r.model, byMetric: new Map() };
    let c = last.byMetric.get(metric);
    if (c) return c;
    const key = `${part(r.setting)}\u0000${part(judge)}\u0000${metric}\u0000${part(r.model)}`;
    c = cells.get(key);
    if (!c) {
      const judge_simulated = judge === null ? null : r.judge_simulated === true;
      c = {
        setting: String(r.setting),
        judge,
        metric,
        model: String(r.model),
        simulated: r.simulated === true,
        judge_simulated,
        entries: [],
      };
      cells.set(key, c);
    }
    last.byMetric.set(metric, c);
    return c;
  };
  const add = (r: Row, judge: string | null, metric: PolicyMetric, value: number | null, failure: CaseFailure | null) => {
    cellOf(r, judge, metric).entries.push({ caseId: String(r.cdp_id), guideline: String(r.guideline_id), value, failure });
  };
  for (const r of pathway_metrics) {
    const pathway = pathways.get(caseKey(r));
    if (pathway?.error != null) continue;
    const failure = failureOf(pathway);
    for (const metric of ['dtw_pcc', 'ot_pcc', 'lnds_pcs'] as const) {
      add(r, String(r.judge), metric, r.error == null ? (r[metric] as number) : null, failure);
    }
  }
  for (const r of outcome_scores) {
    const pathway = pathways.get(caseKey(r));
    if (pathway?.error != null) continue;
    add(r, String(r.judge), 'acc', r.error == null ? (r.correct === true ? 1 : 0) : null, failureOf(pathway));
  }
  for (const p of predicted_pathways) {
    if (p.setting !== 'multi' || p.error != null) continue;
    const scored = p.usable === true;
    const strict = typeof p.success_strict === 'boolean' ? p.success_strict : p.success === true;
    add(p, null, 'sr', scored ? (p.success === true ? 1 : 0) : null, failureOf(p));
    add(p, null, 'sr_strict', scored ? (strict ? 1 : 0) : null, failureOf(p));
  }
  return [...cells.values()];
}
