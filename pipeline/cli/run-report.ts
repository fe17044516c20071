/**
 * What `cdp run` says at the end besides the status counts: the failure rows of every stage with
 * their most common reasons and the command that retries them, and how much each stage covered
 * (the stages that declare `covers`). Also the configuration's problems and warnings, printed
 * before a run starts.
 */
import type { DagConfig } from '../dag/define.ts';
import type { RunSummary } from '../exec/executor.ts';

export function runReport(summary: RunSummary): string {
  const lines: string[] = [];
  const covered = summary.stages.filter((s) => s.covered);
  if (covered.length)
    lines.push(
      `covered: ${covered.map((s) => `${s.stage} ${s.covered!.count}`).join(', ')} (distinct ${[...new Set(covered.map((s) => s.covered!.column))].join('/')})`,
    );
  const failing = summary.stages.filter((s) => s.rowsFailed > 0);
  if (failing.length) {
    const total = failing.reduce((n, s) => n + s.rowsFailed, 0);
    lines.push(
      `failure rows: ${total} in ${failing.length} stage${failing.length === 1 ? '' : 's'} (each is a row with its reason; nothing else was lost)`,
    );
    for (const s of failing) {
      const why = (s.failureReasons ?? []).map((r) => `${r.count}× ${r.example}`).join('; ');
      lines.push(`  ${s.stage}: ${s.rowsFailed}${why ? ` — ${why}` : ''}`);
    }
    lines.push('retry them with: cdp run --retry-failed');
  }
  return lines.length ? lines.join('\n') + '\n' : '';
}

export function configProblems(config: Pick<DagConfig, 'problems' | 'warnings'>): { problems: string; warnings: string } {
  const w = config.warnings ?? [];
  const p = config.problems ?? [];
  return {
    warnings: w.map((x) => `warning: ${x}\n`).join(''),
    problems: p.length
      ? `cdp: the configuration has ${p.length === 1 ? 'a problem' : `${p.length} problems`}; nothing was run:\n${p.map((x) => `  - ${x}\n`).join('')}`
      : '',
  };
}
