/**
 * What both task stages read from one unit (a test CDP × a model): the model's name, whether it
 * is a simulated agent, and the case's guideline, vignette and tree from the joined inputs, which
 * every call of the unit carries as its context (unit-context.ts) for offline providers.
 *
 * Simulated or not: a model is simulated when the stage's `simulated` param lists it, or, when
 * that param is absent, when its name contains "simulated" — the roster's rule for every offline
 * stand-in, so no param is needed in the usual case.
 */
import type { Row, Unit } from '../../pipeline/stage.ts';
import type { LlmStageClient } from '../../pipeline/llm/types.ts';
import { treeOfRow, type UnitContext } from './unit-context.ts';

export interface TaskParamsBase {
  /** Roster names of the evaluated models; the stage crosses it as column `model`. */
  models: string[];
  /** Names of the simulated models among them (default: names containing "simulated"). */
  simulated?: string[];
}

export function modelOf(cross: unknown): string {
  const name = typeof cross === 'object' && cross !== null && 'name' in cross ? (cross as { name: unknown }).name : cross;
  if (typeof name !== 'string' || name === '') {
    throw new Error(`the crossed model is ${JSON.stringify(cross)}, not a roster name; list model names in the stage's "models" param`);
  }
  return name;
}

export function isSimulated(model: string, simulated: readonly string[] | undefined): boolean {
  return simulated ? simulated.includes(model) : model.includes('simulated');
}

export function stageLlm(llm: unknown, stage: string): LlmStageClient {
  if (!llm)
    throw new Error(`stage ${stage} calls models but the run has no LLM client; run it through \`cdp run\`, or pass { llm } to runDag`);
  return llm as LlmStageClient;
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
    guideline: { guideline_id: String(row.guideline_id), markdown: g.markdown },
    tree: treeOfRow(joined.trees?.[0]),
  };
  return { ok: true, value: { guideline: g, vignette: v.vignette, markdown: g.markdown, context } };
}
