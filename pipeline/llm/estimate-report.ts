/**
 * The `cdp estimate` table: per stage and model, what the cache misses would cost.
 */
import type { EstimateRow } from './types.ts';

/** A plain-text table with a total line; unpriced models are flagged rather than shown as free. */
export function formatEstimate(rows: readonly EstimateRow[]): string {
  if (!rows.length) return 'nothing to send: every call is cached';
  const head = ['stage', 'model', 'calls', 'input tokens', 'output tokens', 'cost (USD)'];
  const body = rows.map((r) => [r.stage, r.model, String(r.calls), String(r.inputTokens), String(r.outputTokens), r.priced ? r.costUsd.toFixed(2) : 'price not set']);
  const t = rows.reduce((a, r) => ({ calls: a.calls + r.calls, i: a.i + r.inputTokens, o: a.o + r.outputTokens, c: a.c + r.costUsd }), { calls: 0, i: 0, o: 0, c: 0 });
  const unpriced = rows.some((r) => !r.priced);
  body.push(['total', '', String(t.calls), String(t.i), String(t.o), t.c.toFixed(2) + (unpriced ? ' + unpriced' : '')]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
