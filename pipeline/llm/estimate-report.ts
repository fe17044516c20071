/**
 * The `cdp estimate` table: per stage and model, what the cache misses would cost.
 */
import type { EstimateRow } from './types.ts';

/**
 * The plan as a plain-text table, per stage × model: the requests the cache lacks, their tokens
 * and cost, and the prompts over the model's window (refused before sending); a total line.
 * Unpriced models are flagged rather than shown as free.
 */
export function formatEstimate(rows: readonly EstimateRow[]): string {
  if (!rows.length) return 'nothing to send: every call is cached';
  const head = ['stage', 'model', 'requests', 'input tokens', 'output tokens', 'cost (USD)', 'overflows'];
  const body = rows.map((r) => [
    r.stage,
    r.model,
    String(r.calls),
    String(r.inputTokens),
    String(r.outputTokens),
    r.priced ? r.costUsd.toFixed(2) : 'price not set',
    String(r.overflows),
  ]);
  const t = totals(rows);
  body.push([
    'total',
    '',
    String(t.requests),
    String(t.inputTokens),
    String(t.outputTokens),
    t.cost.toFixed(2) + (t.priced ? '' : ' + unpriced'),
    String(t.overflows),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const overflow = rows
    .filter((r) => r.overflows > 0)
    .map(
      (r) =>
        `warning: ${r.overflows} ${r.stage} prompt(s) exceed ${r.model}'s context window; they would fail before sending (raise contextWindow if the server serves more, or use a model with a larger window)`,
    );
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line), ...overflow].join('\n');
}

interface Totals {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  /** False when some model in it has no price (its cost counts as 0). */
  priced: boolean;
  overflows: number;
}

function totals(rows: readonly EstimateRow[]): Totals {
  return rows.reduce<Totals>(
    (t, r) => ({
      requests: t.requests + r.calls,
      inputTokens: t.inputTokens + r.inputTokens,
      outputTokens: t.outputTokens + r.outputTokens,
      cost: t.cost + r.costUsd,
      priced: t.priced && r.priced,
      overflows: t.overflows + r.overflows,
    }),
    { requests: 0, inputTokens: 0, outputTokens: 0, cost: 0, priced: true, overflows: 0 },
  );
}

function groupBy(rows: readonly EstimateRow[], key: 'stage' | 'model'): (Totals & Record<typeof key, string>)[] {
  const groups = new Map<string, EstimateRow[]>();
  for (const r of rows) groups.set(r[key], [...(groups.get(r[key]) ?? []), r]);
  return [...groups].map(([k, g]) => ({ [key]: k, ...totals(g) }) as Totals & Record<typeof key, string>);
}

/** `cdp estimate --json`: requests, tokens and cost per stage, per model and in total. */
export function estimateJson(rows: readonly EstimateRow[]): { stages: object[]; models: object[]; total: Totals; rows: EstimateRow[] } {
  return { stages: groupBy(rows, 'stage'), models: groupBy(rows, 'model'), total: totals(rows), rows: [...rows] };
}
