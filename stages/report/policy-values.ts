/**
 * The per-case values behind model_summary's means, recomputed by the same code
 * (stages/evaluate/case-entries.ts, failure-policy.ts) under the policy the summary rows record,
 * so that a paired difference printed beside two means uses exactly their cases and values
 * (issue 20 item 5): the leaderboard's Δ and the compare notebook's B − A.
 */
import type { Row } from '../../pipeline/stage.ts';
import { cellEntries } from '../evaluate/case-entries.ts';
import { applyFailurePolicy, parsePolicyLabel, type PolicyCell, type PolicyOptions } from '../evaluate/failure-policy.ts';
import { cellKey } from './summary-rows.ts';

export interface PolicyValues {
  /** cellKey(setting, judge, metric, model) → the cell after the policy. */
  cells: Map<string, PolicyCell>;
  /** A case's guideline (for the guideline count and the cluster bootstrap). */
  guidelineOf: (caseId: string) => string;
  options: PolicyOptions;
}

/** The one policy the rows were computed under; 'worst' (the default) for rows that do not say. */
export function summaryPolicy(rows: readonly { policy: string | null }[]): PolicyOptions {
  const labels = [...new Set(rows.map((r) => r.policy).filter((p): p is string => p !== null))];
  if (labels.length > 1) {
    throw new Error(`model_summary holds rows of several failure policies (${labels.join(', ')}); rerun model_summary`);
  }
  return parsePolicyLabel(labels[0] ?? 'worst');
}

/** Each cell's per-case values under `options`; with `judge`, only that judge's cells (and SR's). */
export function policyValues(
  inputs: Record<string, readonly Row[] | undefined>,
  options: PolicyOptions,
  judge?: string | null,
): PolicyValues {
  const mine = (rows: readonly Row[] | undefined) => (rows ?? []).filter((r) => judge === undefined || r.judge === judge);
  const entries = cellEntries({
    pathway_metrics: mine(inputs.pathway_metrics),
    outcome_scores: mine(inputs.outcome_scores),
    predicted_pathways: inputs.predicted_pathways ?? [],
  });
  const guideline = new Map<string, string>();
  for (const c of entries) for (const e of c.entries) guideline.set(e.caseId, e.guideline);
  const cells = new Map(applyFailurePolicy(entries, options).map((c) => [cellKey(c.setting, c.judge, c.metric, c.model), c]));
  return { cells, guidelineOf: (id) => guideline.get(id) ?? '', options };
}

/** A cell's values by case: what pairedDifference pairs on. */
export function valuesByCase(cell: PolicyCell | undefined): Map<string, number> | undefined {
  return cell ? new Map(cell.caseIds.map((id, i) => [id, cell.values[i]!])) : undefined;
}
