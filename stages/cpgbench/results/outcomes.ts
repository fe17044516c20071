/**
 * The rates' inputs from the stages' rows: the benchmark items (cpg_task_inputs rows without an
 * error, with their recommendation's region, specialty and language and the safety selection)
 * and each (model, judge) pair's outcome per task and item (1, 0, or null for a failed answer or
 * judgement). A detection judgement's failure row without a task (its answer failed upstream)
 * fails both detection tasks. Pairs of a real judge and a simulated model are left out: real
 * judges never score stand-ins (judge-call.ts), so such a pair holds only the runner's failure
 * rows of failed answers.
 */
import type { Row } from '../../../pipeline/stage.ts';
import { isSimulated } from '../../tasks/task-unit.ts';
import { TASKS, type CellOutcomes, type Item, type Task } from './rates.ts';

export interface OutcomeOptions {
  realJudges: readonly string[];
  /** Names of the simulated models (default: names containing "simulated"). */
  simulated?: readonly string[];
}

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

export function cellsOf(inputs: Record<string, readonly Row[]>, opts: OutcomeOptions): CellOutcomes[] {
  const cells = new Map<string, CellOutcomes>();
  const put = (r: Row, task: Task, value: 0 | 1 | null) => {
    const model = String(r.model),
      judge = String(r.judge);
    const simulated = isSimulated(model, opts.simulated);
    if (simulated && opts.realJudges.includes(judge)) return;
    const key = JSON.stringify([model, judge]);
    if (!cells.has(key))
      cells.set(key, {
        model,
        judge,
        simulated,
        outcomes: { content_detection: new Map(), title_grounding: new Map(), adherence: new Map() },
      });
    (cells.get(key)!.outcomes[task] as Map<string, 0 | 1 | null>).set(String(r.recommendation_id), value);
  };
  const value = (r: Row): 0 | 1 | null => (r.error == null && (r.score === 0 || r.score === 1) ? r.score : null);
  for (const r of inputs.cpg_detection_judgements ?? []) {
    const tasks = (TASKS as readonly string[]).includes(String(r.task))
      ? [r.task as Task]
      : (['content_detection', 'title_grounding'] as Task[]);
    for (const t of tasks) put(r, t, value(r));
  }
  for (const r of inputs.cpg_adherence_judgements ?? []) put(r, 'adherence', value(r));
  return [...cells.values()].sort((a, b) => (a.model === b.model ? (a.judge < b.judge ? -1 : 1) : a.model < b.model ? -1 : 1));
}
