/**
 * What both task stages read from one unit (a test CDP × a model): the evaluated model (its
 * name, whether it is a simulated agent, and the settings that key its units; see
 * stages/roster/model-ref.ts), and the case's guideline, vignette and tree from the joined
 * inputs, which every call of the unit carries as its context (unit-context.ts) for offline
 * providers.
 */
import type { Row, Unit } from '../../pipeline/stage.ts';
import { modelRefOf, type EvaluatedModel } from '../roster/model-ref.ts';
import { treeOfRow, type UnitContext } from './unit-context.ts';

export interface TaskParamsBase {
  /** The evaluated models (the wiring's roster values); the stage crosses it as column `model`. */
  models: EvaluatedModel[];
}

/** The unit's evaluated model. */
export function modelOf(cross: unknown): EvaluatedModel {
  return modelRefOf(cross, "the crossed model (param 'models')") as EvaluatedModel;
}

export interface CaseInputs {
  guideline: Row;
  vignette: string;
  markdown: string;
  /** What the unit's calls carry for offline providers. */
  context: UnitContext;
}

/** The case's guideline and vignette, or why the unit cannot run. */
export function caseInputs(unit: Unit): { ok: true; value: CaseInputs } | { ok: false; error: string } {
  const { row, joined } = unit;
  const id = String(row.cdp_id);
  const g = joined.guidelines?.[0];
  const v = joined.vignettes?.[0];
  if (!g) return { ok: false, error: `no guideline ${String(row.guideline_id)} for ${id}; join the guidelines table on guideline_id` };
  if (g.error != null) return { ok: false, error: `guideline ${String(row.guideline_id)} failed upstream: ${String(g.error)}` };
  if (!v) return { ok: false, error: `no vignette for ${id}; join the vignettes table on cdp_id` };
  if (v.error != null || typeof v.vignette !== 'string' || v.vignette.trim() === '') {
    return { ok: false, error: `no usable vignette for ${id}${v.error != null ? `: ${String(v.error)}` : ' (empty)'}` };
  }
  if (typeof g.markdown !== 'string' || g.markdown.trim() === '')
    return { ok: false, error: `guideline ${String(row.guideline_id)} has no Markdown text` };
  const context: UnitContext = {
    cdp: row as unknown as UnitContext['cdp'],
    vignette: v.vignette,
    guideline: { guideline_id: String(row.guideline_id) },
    tree: treeOfRow(joined.trees?.[0]),
  };
  return { ok: true, value: { guideline: g, vignette: v.vignette, markdown: g.markdown, context } };
}
