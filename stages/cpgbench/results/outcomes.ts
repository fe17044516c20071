/**
 * The rates' inputs from the stages' rows: the benchmark items (cpg_task_inputs rows without an
 * error, with their recommendation's region, specialty and language and the safety selection)
 * and each (model, judge) pair's outcome per task and item: the judge's 0 or 1, or the kind of
 * its failure — 'answer' (the model answered nothing: a judgement row of that kind, scored 0),
 * 'server' (the model's call failed: the runner's failure row of kind 'upstream'), 'unscored'
 * (the judge's call or answer failed). A detection judgement's failure row without a task fails
 * both detection tasks.
 *
 * Whether a model or a judge is simulated comes from the run's roster values (params `models`
 * and `judges`), else from the rows' flags, never from a name. Pairs of a real judge and a
 * simulated model are left out: real judges never score stand-ins (judge-call.ts), so such a pair
 * would hold only the runner's failure rows of failed answers.
 */
import type { Row } from '../../../pipeline/stage.ts';
import { distinctNames, evaluatedModelSchema, modelRefSchema, type EvaluatedModel, type ModelRef } from '../../roster/model-ref.ts';
import { TASKS, type CellOutcomes, type Item, type Outcome, type Task } from './rates.ts';

export interface OutcomeParams {
  /** The run's evaluated models and judges (roster values): their `simulated` flags. */
  models: EvaluatedModel[];
  judges: ModelRef[];
}

export const OUTCOME_PARAMS = {
  models: distinctNames(evaluatedModelSchema).default([]),
  judges: distinctNames(modelRefSchema).default([]),
};

export function itemsOf(inputs: Record<string, readonly Row[]>): Item[] {
  const recs = new Map((inputs.cpg_recommendations ?? []).filter((r) => r.error == null).map((r) => [String(r.recommendation_id), r]));
  const safety = new Map(
    (inputs.cpg_safety ?? []).filter((r) => r.error == null).map((r) => [String(r.recommendation_id), r.safety_critical]),
  );
  return (inputs.cpg_task_inputs ?? [])
    .filter((r) => r.error == null)
    .map((r) => {
      const id = String(r.recommendation_id);
      const rec = recs.get(id);
      const s = safety.get(id);
      return {
        recommendation_id: id,
        guideline_id: String(r.guideline_id),
        region: (rec?.region as string | null) ?? null,
        specialty: (rec?.specialty as string | null) ?? null,
        language: (r.language as string | null) ?? null,
        safety_critical: typeof s === 'boolean' ? s : null,
      };
    });
}

/** A judgement row's outcome. */
function outcomeOf(r: Row): Outcome {
  if (r.error == null) return r.failure_kind === 'answer' ? 'answer' : r.score === 1 ? 1 : 0;
  return r.failure_kind === 'upstream' ? 'server' : 'unscored';
}

export function cellsOf(inputs: Record<string, readonly Row[]>, params: OutcomeParams): CellOutcomes[] {
  const models = new Map(params.models.map((m) => [m.name, m.simulated]));
  const judges = new Map(params.judges.map((j) => [j.name, j.simulated]));
  const cells = new Map<string, CellOutcomes>();
  const put = (r: Row, task: Task) => {
    const model = String(r.model),
      judge = String(r.judge);
    const simulated = models.get(model) ?? r.simulated === true;
    const judgeSimulated = judges.get(judge) ?? r.judge_simulated === true;
    if (simulated && !judgeSimulated) return;
    const key = JSON.stringify([model, judge]);
    if (!cells.has(key))
      cells.set(key, {
        model,
        judge,
        simulated,
        judge_simulated: judgeSimulated,
        outcomes: { content_detection: new Map(), title_grounding: new Map(), adherence: new Map() },
      });
    (cells.get(key)!.outcomes[task] as Map<string, Outcome>).set(String(r.recommendation_id), outcomeOf(r));
  };
  for (const r of inputs.cpg_detection_judgements ?? []) {
    const tasks = (TASKS as readonly string[]).includes(String(r.task))
      ? [r.task as Task]
      : (['content_detection', 'title_grounding'] as Task[]);
    for (const t of tasks) put(r, t);
  }
  for (const r of inputs.cpg_adherence_judgements ?? []) put(r, 'adherence');
  return [...cells.values()].sort(cellOrder);
}

/** Cells by model, then judge. */
export const cellOrder = (a: CellOutcomes, b: CellOutcomes) =>
  a.model === b.model ? (a.judge < b.judge ? -1 : 1) : a.model < b.model ? -1 : 1;

/**
 * The cells of the rows and every pair of the run's roster a judge scores (a real judge never
 * scores a stand-in), the latter with no outcome (every item missing) when no row names it: the
 * pairs a group's rates are over, the same whichever guidelines' rows a computation is handed.
 * With no roster (params left empty), the cells of the rows.
 */
export function withRosterCells(cells: readonly CellOutcomes[], params: OutcomeParams): CellOutcomes[] {
  const out = new Map(cells.map((c) => [JSON.stringify([c.model, c.judge]), c]));
  for (const m of params.models)
    for (const j of params.judges) {
      const key = JSON.stringify([m.name, j.name]);
      if (out.has(key) || (m.simulated && !j.simulated)) continue;
      const outcomes = { content_detection: new Map(), title_grounding: new Map(), adherence: new Map() };
      out.set(key, { model: m.name, judge: j.name, simulated: m.simulated, judge_simulated: j.simulated, outcomes });
    }
  return [...out.values()].sort(cellOrder);
}
