/**
 * What `cdp estimate` knows and does not know. The estimate computes every stale stage without
 * sending anything: a real model's miss is answered by a stand-in, or by nothing. Every stage
 * after such a stage sees made-up answers, so its number of rows (and of requests) is an
 * assumption, not a count; a stage reused from the store, or computed from answers that are the
 * run's own (cached, or an offline model's), is a count. This says which is which, stage by stage;
 * the project turns it into sentences (what a stand-in assumed), beside the plan.
 */
import type { ResolvedDag } from '../dag/validate.ts';
import type { RunSummary, StageStatus } from '../exec/executor.ts';
import type { EstimateRow } from '../llm/types.ts';

export interface EstimateStage {
  stage: string;
  /** 'reused': read from the store, as a run would; 'ran': computed by the estimate. */
  status: StageStatus;
  rows: number;
  /** The stages, this one or upstream, whose real models' answers the estimate made up or went without. */
  standIns: string[];
}

export interface EstimateFacts {
  /** The plan: per stage × model, requests, tokens, cost, overflows. */
  rows: EstimateRow[];
  stages: EstimateStage[];
}

/** Each stage of the estimate with the stand-in stages its rows rest on (itself and its ancestors). */
export function estimateFacts(dag: ResolvedDag, summary: RunSummary, rows: readonly EstimateRow[]): EstimateFacts {
  const stoodIn = new Set(rows.filter((r) => r.stoodIn + r.unanswered > 0).map((r) => r.stage));
  const result = new Map(summary.stages.map((s) => [s.stage, s]));
  const restsOn = new Map<string, Set<string>>();
  for (const name of dag.order) {
    const s = result.get(name);
    const own = new Set<string>();
    // A reused stage is the store's: whatever made it, its rows are real.
    if (s && s.status !== 'reused') {
      if (stoodIn.has(name)) own.add(name);
      for (const p of dag.graph.predecessors(name) ?? []) for (const x of restsOn.get(p) ?? []) own.add(x);
    }
    restsOn.set(name, own);
  }
  const stages = summary.stages.map((s) => ({
    stage: s.stage,
    status: s.status,
    rows: s.rowsComputed + s.rowsReused,
    standIns: dag.order.filter((n) => restsOn.get(s.stage)?.has(n)),
  }));
  return { rows: [...rows], stages };
}

/** The generic assumption: which stages' requests rest on made-up answers, and whose. */
export function standInAssumption(f: EstimateFacts): string | null {
  const planned = new Set(f.rows.filter((r) => r.calls > 0).map((r) => r.stage));
  const resting = f.stages.filter((s) => planned.has(s.stage) && s.standIns.some((x) => x !== s.stage));
  if (!resting.length) return null;
  const sources = [...new Set(resting.flatMap((s) => s.standIns.filter((x) => x !== s.stage)))];
  return (
    `the requests of ${resting.map((s) => s.stage).join(', ')} follow from answers the estimate made up (or went without) in ` +
    `${sources.join(', ')}, where real models answer: how many there are depends on what they answer, and an estimate after those stages ran counts them`
  );
}
