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
 * Conventions (`reason` says which applied; null when none did):
 * - answer did not parse (single, parse_ok false): candidate = [], usable. C is then m×0 and
 *   every metric gives its worst value: an unreadable answer follows no pathway.
 * - dialogue ended without success (multi, success false): candidate = the questions asked so
 *   far, usable; `success` keeps the fact for the success rate.
 * - the model call or dialogue itself failed (upstream `error` set), or the case has no usable
 *   reference (no narrative, wrong number of statements, no reference questions): usable =
 *   false. Step and outcome judging turn such rows into failure rows, so they are left out of
 *   the metrics rather than scored as the model's fault; rerun the upstream stage instead.
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
  simulated: 'BOOLEAN',
  usable: 'BOOLEAN',
  reason: 'VARCHAR',
} as const;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function singleTurnPathway(p: Row, cdp: Row | undefined, narrative: Row | undefined): Row {
  const base = {
    setting: 'single', model: p.model, cdp_id: p.cdp_id, guideline_id: p.guideline_id, language: p.language,
    reference_conclusion: cdp?.conclusion ?? null, candidate_outcome: typeof p.outcome === 'string' ? p.outcome : '',
    success: null, simulated: p.simulated === true,
  };
  if (!cdp) return { ...base, reference: [], candidate: [], usable: false, reason: `case ${String(p.cdp_id)} is not in cdps` };
  const m = (cdp.steps as unknown[]).length;
  const statements = strings(narrative?.steps);
  if (!narrative || narrative.error != null || statements.length < m) {
    const why = !narrative ? 'no narrative' : narrative.error != null ? `narrative failed: ${String(narrative.error)}` : `narrative has ${statements.length} statements for ${m} decision steps`;
    return { ...base, reference: [], candidate: [], usable: false, reason: `no reference pathway: ${why}` };
  }
  const reference = statements.slice(0, m);
  if (p.error != null) return { ...base, reference, candidate: [], usable: false, reason: `prediction failed: ${String(p.error)}` };
  if (p.parse_ok !== true) {
    return { ...base, reference, candidate: [], usable: true, reason: `answer did not parse${p.parse_error ? `: ${String(p.parse_error)}` : ''}; scored as an empty pathway` };
  }
  return { ...base, reference, candidate: strings(p.steps), usable: true, reason: null };
}

export function multiTurnPathway(d: Row, cdp: Row | undefined): Row {
  const base = {
    setting: 'multi', model: d.model, cdp_id: d.cdp_id, guideline_id: d.guideline_id, language: d.language,
    reference_conclusion: cdp?.conclusion ?? null, candidate_outcome: typeof d.outcome === 'string' ? d.outcome : '',
    success: d.success === true, simulated: d.simulated === true,
  };
  const reference = strings(cdp?.reference_questions);
  if (!cdp || reference.length === 0) {
    return { ...base, reference, candidate: [], usable: false, reason: cdp ? 'no reference pathway: the case has no reference questions' : `case ${String(d.cdp_id)} is not in cdps` };
  }
  if (d.error != null) return { ...base, reference, candidate: strings(d.questions), usable: false, reason: `dialogue failed: ${String(d.error)}` };
  const candidate = strings(d.questions);
  if (d.success !== true) return { ...base, reference, candidate, usable: true, reason: `dialogue ended without success (${String(d.end_reason ?? 'no end reason')}); scored on the ${candidate.length} questions asked` };
  return { ...base, reference, candidate, usable: true, reason: null };
}

export default tableStage({
  columns: PREDICTED_PATHWAY_COLUMNS,
  run({ predictions_single = [], dialogues_multi = [], cdps, narratives = [], imported_predictions = [] }, ctx) {
    const cdpById = new Map(cdps!.filter((c) => c.error == null).map((c) => [c.cdp_id as string, c]));
    const narrativeById = new Map(narratives.map((n) => [n.cdp_id as string, n]));
    const single = [...predictions_single], multi = [...dialogues_multi];
    const own = new Set([...single.map((p) => `single\0${p.model}\0${p.cdp_id}`), ...multi.map((d) => `multi\0${d.model}\0${d.cdp_id}`)]);
    for (const f of imported_predictions.filter((x) => String(x.path).endsWith('.jsonl'))) {
      const file = String(f.path);
      const r = parseImportedPredictions(file, readFileSync(resolve(ctx.root, file), 'utf8'), cdpById);
      for (const p of r.problems) ctx.log(`imported predictions: ${problemText(p)}`);
      for (const [setting, rows, into] of [['single', r.single, single], ['multi', r.multi, multi]] as const) {
        for (const row of rows) {
          const key = `${setting}\0${row.model}\0${row.cdp_id}`;
          if (own.has(key)) {
            ctx.log(`imported predictions: ${file}: ${setting}-turn ${String(row.cdp_id)} of model "${String(row.model)}" is already predicted; rename the imported model`);
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
