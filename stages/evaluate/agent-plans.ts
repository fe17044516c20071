/**
 * Ground truth of the simulated perturbation agents, read as data: the rows of the `agent_plans`
 * table (model, cdp_id, steps, questions, mapping, m, conclusion, wrong_outcome and the four
 * deviation counts), indexed by model and case. Real models have no such rows, so `planOf` is
 * null for them, as it is for a case the table does not hold.
 *
 * A plan is only a label for a pathway that is the plan: `planMismatch` checks the candidate
 * has the plan's length (single-turn: one parsed step per planned step) and, in the multi-turn
 * setting, asks exactly the plan's questions (a doctor that could not place the case asks none).
 */
import type { Row } from '../../pipeline/stage.ts';

export interface AgentPlan {
  model: string;
  cdp_id: string;
  steps: string[];
  questions: string[];
  /** Per predicted step, the reference step it is (null: redundant). */
  mapping: (number | null)[];
  /** Number of reference steps. */
  m: number;
  conclusion: string;
  wrongOutcome: boolean;
  deviations: { omission: number; redundancy: number; skipping: number; reversal: number };
}

export type PlanIndex = Map<string, AgentPlan>;

const keyOf = (model: string, cdpId: string) => JSON.stringify([model, cdpId]);
const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v ?? 0));

/** Indexes `agent_plans` rows; a row lacking what a plan needs is an error naming the row. */
export function planIndex(rows: readonly Row[]): PlanIndex {
  const index: PlanIndex = new Map();
  for (const r of rows) {
    if (r.error != null) continue;
    if (typeof r.model !== 'string' || typeof r.cdp_id !== 'string' || !Array.isArray(r.steps) || !Array.isArray(r.mapping)) {
      const id = JSON.stringify([r.model, r.cdp_id]);
      throw new Error(`agent_plans row ${id} lacks model, cdp_id, steps or mapping; feed the agent_plans stage's table`);
    }
    index.set(keyOf(r.model, r.cdp_id), {
      model: r.model,
      cdp_id: r.cdp_id,
      steps: r.steps as string[],
      questions: Array.isArray(r.questions) ? (r.questions as string[]) : [],
      mapping: (r.mapping as (number | null)[]).map((k) => (k === null || k === undefined ? null : Number(k))),
      m: count(r.m),
      conclusion: String(r.conclusion ?? ''),
      wrongOutcome: r.wrong_outcome === true,
      deviations: {
        omission: count(r.omission),
        redundancy: count(r.redundancy),
        skipping: count(r.skipping),
        reversal: count(r.reversal),
      },
    });
  }
  return index;
}

export function planOf(index: PlanIndex, model: string, cdpId: string): AgentPlan | null {
  return index.get(keyOf(model, cdpId)) ?? null;
}

export function totalDeviations(plan: AgentPlan): number {
  const d = plan.deviations;
  return d.omission + d.redundancy + d.skipping + d.reversal;
}

/** Why the pathway is not the plan, or null when it is. */
export function planMismatch(plan: AgentPlan, setting: string, candidate: readonly string[]): string | null {
  if (candidate.length !== plan.steps.length) return `the pathway has ${candidate.length} steps, the plan ${plan.steps.length}`;
  if (setting === 'multi') {
    const k = plan.questions.findIndex((q, j) => q !== candidate[j]);
    if (k >= 0) return `question ${k + 1} differs from the plan's`;
  }
  return null;
}
