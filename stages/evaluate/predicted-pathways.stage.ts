/**
 * Stage `predicted_pathways`: both task settings as one table of (reference, candidate) pathway
 * pairs, the unit every evaluation stage works on; one row per (setting, model, cdp_id). The
 * failure kinds it names and how model_summary counts them: docs/evaluation-and-statistics.md
 * ("Failures by kind"); imported predictions: docs/reports-and-notebooks.md ("Export and import").
 *
 * - single: the reference is the first m narrative statements (m decision steps): the last one
 *   restates the conclusion, which the paper judges apart (Prompt 9).
 * - An unreadable answer is usable with the candidate read so far (C is m×0 when nothing was
 *   read, and every metric gives its worst value); a server or patient failure is unusable and
 *   never judged, since no answer of the model exists to judge.
 * - A dialogue that hit the turn cap is no failure: it is scored on the questions it asked, and
 *   `success` keeps the fact for the success rate.
 * - A case with no usable reference is unusable with failure null; test_cases leaves such cases
 *   out, so it does not happen to a test case.
 */
import { readFileSync } from 'node:fs';
import { tableStage, type Row } from '../../pipeline/stage.ts';
import { heldToTestSet } from './imported-rows.ts';

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
  // Only on failure rows: an imported line that is no prediction of a test case ('import').
  failure_kind: 'VARCHAR',
  error: 'VARCHAR',
} as const;

const MISSING_REASON = 'the imported predictions of this model have no prediction for this test case; scored as an empty pathway';

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
  if (p.missing === true) return { ...base, reference, candidate: [], usable: true, failure: 'missing', reason: MISSING_REASON };
  if (p.error != null) {
    return { ...base, reference, candidate: [], usable: false, failure: 'server', reason: `prediction failed: ${String(p.error)}` };
  }
  if (p.parse_ok !== true) {
    const why = `answer did not parse${p.parse_error ? `: ${String(p.parse_error)}` : ''}; scored as an empty pathway`;
    return { ...base, reference, candidate: [], usable: true, failure: 'answer', reason: why };
  }
  return { ...base, reference, candidate: strings(p.steps), usable: true, reason: null };
}

/** Whether a dialogue ended through the patient: not the evaluated model's failure. */
export function isPatientFailure(d: Row): boolean {
  return (
    d.failure_kind === 'patient' ||
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
  if (d.missing === true)
    return {
      ...base,
      success: false,
      success_strict: false,
      reference,
      candidate: [],
      usable: true,
      failure: 'missing',
      reason: MISSING_REASON,
    };
  if (isPatientFailure(d)) {
    const why = d.error != null ? String(d.error) : String(d.end_reason ?? 'patient_failed');
    const reason = `patient failure, not the doctor's: ${why}`;
    return { ...base, success: null, success_strict: null, reference, candidate, usable: false, failure: 'patient', reason };
  }
  if (d.error != null) {
    return { ...base, reference, candidate, usable: false, failure: 'server', reason: `dialogue failed: ${String(d.error)}` };
  }
  if (success) return { ...base, reference, candidate, usable: true, reason: null };
  const end = String(d.end_reason ?? 'no end reason');
  const reason = `dialogue ended without success (${end}); scored on the ${candidate.length} questions asked`;
  return { ...base, reference, candidate, usable: true, failure: end === 'turn-cap' ? null : 'answer', reason };
}

export default tableStage({
  // Imported predictions are bound only when `cdp import predictions` copied some (dag.config.ts).
  inputs: {
    predictions_single: 'whole',
    dialogues_multi: 'whole',
    cdps: 'whole',
    narratives: 'whole',
    // The run's test cases: imported predictions are held to them (imported-rows.ts).
    test_cases: 'whole',
    imported_predictions: 'optional whole',
  },
  params: {},
  // Of the test cases only which they are.
  reads: { test_cases: ['cdp_id'] },
  columns: PREDICTED_PATHWAY_COLUMNS,
  run({ predictions_single, dialogues_multi, cdps, narratives, test_cases, imported_predictions }, ctx) {
    const cdpById = new Map(cdps.filter((c) => c.error == null).map((c) => [c.cdp_id as string, c]));
    const narrativeById = new Map(narratives.map((n) => [n.cdp_id as string, n]));
    const files = imported_predictions.filter((x) => String(x.path).endsWith('.jsonl'));
    const imported = files.length
      ? heldToTestSet(
          files.map((f) => ({ file: String(f.path), text: readFileSync(ctx.file(String(f.path)), 'utf8') })),
          {
            cases: cdpById,
            testCases: new Set(test_cases.map((c) => String(c.cdp_id))),
            own: { single: predictions_single, multi: dialogues_multi },
          },
          ctx.log,
        )
      : { single: [], multi: [], failures: [] };
    const out: Row[] = [];
    const single = (p: Row) => out.push(singleTurnPathway(p, cdpById.get(p.cdp_id as string), narrativeById.get(p.cdp_id as string)));
    const multi = (d: Row) => out.push(multiTurnPathway(d, cdpById.get(d.cdp_id as string)));
    predictions_single.forEach(single);
    imported.single.forEach(single);
    dialogues_multi.forEach(multi);
    imported.multi.forEach(multi);
    return [...out, ...imported.failures];
  },
});
