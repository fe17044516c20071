/**
 * Stage `predicted_pathways`: both task settings as one table of (reference, candidate) pathway
 * pairs, the unit every evaluation stage works on. One row per (setting, model, cdp_id).
 *
 * - single: reference = the case's narrative statements, the first m of them (m = number of
 *   decision steps). The narrative's last statement restates the conclusion; the paper's
 *   reference CDP has m steps and the conclusion is judged separately (Prompt 9), so it is
 *   left out of the step-level reference. candidate = the parsed predicted steps.
 * - multi: reference = the case's reference questions (one per decision step); candidate = the
 *   doctor's questions, in the order asked.
 *
 * Conventions (`reason` says which applied; null when none did). `failure` names the kind of
 * failure of the case, for model_summary's failure policy (failure-policy.ts); null when none:
 * - answer did not parse (single, parse_ok false): candidate = [], usable, failure 'unreadable'.
 *   C is then m×0 and every metric gives its worst value: an unreadable answer follows no pathway.
 * - a doctor turn broke the format (multi: the dialogue ended for any reason other than a
 *   conclusion, the turn cap or the patient): candidate = the questions asked so far, usable,
 *   failure 'unreadable'.
 * - dialogue ended without success at the turn cap: candidate = the questions asked so far,
 *   usable, no failure; `success` keeps the fact for the success rate.
 * - the model call or dialogue itself failed (upstream `error` set): usable = false, failure
 *   'failed-call'. Step and outcome judging turn such rows into failure rows; the failure policy
 *   decides how they enter the means (`cdp run --retry-failed` asks again).
 * - the patient failed (dialogues_multi patient_failed, an end_reason 'patient-…', or a failed
 *   call of the patient, whose error dialogues_multi begins with "patient "): usable = false,
 *   success = null, failure 'patient' — not the evaluated model's failure, so it is never judged
 *   and never counted against it.
 * - the case has no usable reference (no narrative, wrong number of statements, no reference
 *   questions): usable = false, failure null — no model can be scored on it.
 * `success_strict` (multi) is dialogues_multi's strict success (every doctor turn in the exact
 * required format) when that column is there, else the lenient `success`.
 *
 * Optional input `imported_predictions` (a files source of JSONL, imported-predictions.ts): predictions made
 * elsewhere enter here beside the project's own, under their model names; bad lines are logged and skipped.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { tableStage, type Row } from '../../pipeline/stage.ts';
import { parseImportedPredictions, problemText } from './imported-predictions.ts';

export const PREDICTED_PATHWAY_COLUMNS = {
  setting: 'VARCHAR',
  model: 'VARCHAR',
  cdp_id: 'VARCHAR',
  guideline_id: 'VARCHAR',
  language: 'VARCHAR',
  reference: 'VARCHAR[]',
  candidate: 'VARCHAR[]',
  reference_conclusion: 'VARCHAR',
  candidate_outcome: 'VARCHAR',
  success: 'BOOLEAN',
  success_strict: 'BOOLEAN',
  simulated: 'BOOLEAN',
  usable: 'BOOLEAN',
  reason: 'VARCHAR',
  failure: 'VARCHAR',
} as const;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function singleTurnPathway(p: Row, cdp: Row | undefined, narrative: Row | undefined): Row {
  const base = {
    setting: 'single',
    model: p.model,
    cdp_id: p.cdp_id,
    guideline_id: p.guideline_id,
    language: p.language,
    reference_conclusion: cdp?.conclusion ?? null,
    candidate_outcome: typeof p.outcome === 'string' ? p.outcome : '',
    success: null,
    success_strict: null,
    simulated: p.simulated === true,
    failure: null,
  };
  if (!cdp) return { ...base, reference: [], candidate: [], usable: false, reason: `case ${String(p.cdp_id)} is not in cdps` };
  const m = (cdp.steps as unknown[]).length;
  const statements = strings(narrative?.steps);
  if (!narrative || narrative.error != null || statements.length < m) {
    const why = !narrative
      ? 'no narrative'
      : narrative.error != null
        ? `narrative failed: ${String(narrative.error)}`
        : `narrative has ${statements.length} statements for ${m} decision steps`;
    return { ...base, reference: [], candidate: [], usable: false, reason: `no reference pathway: ${why}` };
  }
  const reference = statements.slice(0, m);
  if (p.error != null) {
    return { ...base, reference, candidate: [], usable: false, failure: 'failed-call', reason: `prediction failed: ${String(p.error)}` };
  }
  if (p.parse_ok !== true) {
    const why = `answer did not parse${p.parse_error ? `: ${String(p.parse_error)}` : ''}; scored as an empty pathway`;
    return { ...base, reference, candidate: [], usable: true, failure: 'unreadable', reason: why };
  }
  return { ...base, reference, candidate: strings(p.steps), usable: true, reason: null };
}

/** Whether a dialogue ended through the patient: not the evaluated model's failure. */
export function isPatientFailure(d: Row): boolean {
  return (
    d.patient_failed === true ||
    (typeof d.end_reason === 'string' && d.end_reason.startsWith('patient-')) ||
    (d.error != null && String(d.error).startsWith('patient '))
  );
}

export function multiTurnPathway(d: Row, cdp: Row | undefined): Row {
  const success = d.success === true;
  const base = {
    setting: 'multi',
    model: d.model,
    cdp_id: d.cdp_id,
    guideline_id: d.guideline_id,
    language: d.language,
    reference_conclusion: cdp?.conclusion ?? null,
    candidate_outcome: typeof d.outcome === 'string' ? d.outcome : '',
    success,
    success_strict: typeof d.success_strict === 'boolean' ? d.success_strict : success,
    simulated: d.simulated === true,
    failure: null,
  };
  const reference = strings(cdp?.reference_questions);
  const candidate = strings(d.questions);
  if (!cdp || reference.length === 0) {
    return {
      ...base,
      reference,
      candidate: [],
      usable: false,
      reason: cdp ? 'no reference pathway: the case has no reference questions' : `case ${String(d.cdp_id)} is not in cdps`,
    };
  }
  if (isPatientFailure(d)) {
    const why = d.error != null ? String(d.error) : String(d.end_reason ?? 'patient_failed');
    const reason = `patient failure, not the doctor's: ${why}`;
    return { ...base, success: null, success_strict: null, reference, candidate, usable: false, failure: 'patient', reason };
  }
  if (d.error != null) {
    return { ...base, reference, candidate, usable: false, failure: 'failed-call', reason: `dialogue failed: ${String(d.error)}` };
  }
  if (success) return { ...base, reference, candidate, usable: true, reason: null };
  const end = String(d.end_reason ?? 'no end reason');
  const reason = `dialogue ended without success (${end}); scored on the ${candidate.length} questions asked`;
  return { ...base, reference, candidate, usable: true, failure: end === 'turn-cap' ? null : 'unreadable', reason };
}

export default tableStage({
  // Imported predictions are bound only when `cdp import predictions` copied some (dag.config.ts).
  inputs: {
    predictions_single: 'whole',
    dialogues_multi: 'whole',
    cdps: 'whole',
    narratives: 'whole',
    imported_predictions: 'optional whole',
  },
  params: {},
  columns: PREDICTED_PATHWAY_COLUMNS,
  run({ predictions_single, dialogues_multi, cdps, narratives, imported_predictions }, ctx) {
    const cdpById = new Map(cdps.filter((c) => c.error == null).map((c) => [c.cdp_id as string, c]));
    const narrativeById = new Map(narratives.map((n) => [n.cdp_id as string, n]));
    const single = [...predictions_single],
      multi = [...dialogues_multi];
    const own = new Set([...single.map((p) => `single\0${p.model}\0${p.cdp_id}`), ...multi.map((d) => `multi\0${d.model}\0${d.cdp_id}`)]);
    for (const f of imported_predictions.filter((x) => String(x.path).endsWith('.jsonl'))) {
      const file = String(f.path);
      const r = parseImportedPredictions(file, readFileSync(resolve(ctx.root, file), 'utf8'), cdpById);
      for (const p of r.problems) ctx.log(`imported predictions: ${problemText(p)}`);
      for (const [setting, rows, into] of [
        ['single', r.single, single],
        ['multi', r.multi, multi],
      ] as const) {
        for (const row of rows) {
          const key = `${setting}\0${row.model}\0${row.cdp_id}`;
          if (own.has(key)) {
            ctx.log(
              `imported predictions: ${file}: ${setting}-turn ${String(row.cdp_id)} of model "${String(row.model)}" is already predicted; rename the imported model`,
            );
            continue;
          }
          own.add(key);
          into.push(row);
        }
      }
    }
    const out: Row[] = [];
    for (const p of single) out.push(singleTurnPathway(p, cdpById.get(p.cdp_id as string), narrativeById.get(p.cdp_id as string)));
    for (const d of multi) out.push(multiTurnPathway(d, cdpById.get(d.cdp_id as string)));
    return out;
  },
});
