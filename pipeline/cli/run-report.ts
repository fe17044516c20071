/**
 * What `cdp run` says at the end besides the status counts: how much each stage covered (the
 * stages that declare `covers`), the failure rows of every stage by kind with their most common
 * reasons, what a retry cleared, and — last — the outstanding failures by kind with the command
 * that retries them. The no-op fast path prints the same text, kept in its fingerprint. Also
 * the configuration's problems and warnings, printed before a run starts.
 *
 * Kinds are the stages' own `failure_kind` labels (a failure row without one counts as 'other').
 * 'upstream' rows are failures of rows made from a row that failed before (counted where it
 * failed), so they are shown but not counted again as outstanding. Rows a stage keeps as results
 * with a kind (e.g. an unreadable answer) are no failure rows: they are listed with the flag that
 * asks them again.
 */
import type { DagConfig } from '../dag/define.ts';
import type { RunSummary, StageResult } from '../exec/executor.ts';
import { UNLABELLED_KIND, UPSTREAM_KIND, addKinds, type FailureKinds } from '../store/segment-tally.ts';

/** The retry flag of each kind kept as results (a row with the kind but no error). */
export const RETRY_FLAG: Record<string, string> = { answer: '--retry-answers' };

type Facts = Pick<StageResult, 'rowsFailed' | 'failureKinds'>;

/** A stage's rows by kind, its unlabelled failure rows counted as 'other'. */
function kindsOf(s: Facts): FailureKinds {
  const kinds: FailureKinds = {};
  addKinds(kinds, s.failureKinds);
  const labelled = Object.values(kinds).reduce((n, k) => n + k.failed, 0);
  if (s.rowsFailed > labelled) (kinds[UNLABELLED_KIND] ??= { failed: 0, results: 0 }).failed += s.rowsFailed - labelled;
  return kinds;
}

/** Failure rows by kind over every stage, 'upstream' apart. */
export function outstandingKinds(stages: readonly Facts[]): { kinds: Record<string, number>; upstream: number } {
  const kinds: Record<string, number> = {};
  let upstream = 0;
  for (const s of stages) {
    for (const [k, c] of Object.entries(kindsOf(s))) {
      if (!c.failed) continue;
      if (k === UPSTREAM_KIND) upstream += c.failed;
      else kinds[k] = (kinds[k] ?? 0) + c.failed;
    }
  }
  return { kinds, upstream };
}

const list = (m: Record<string, number>) =>
  Object.entries(m)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
const total = (m: Record<string, number>) => Object.values(m).reduce((a, b) => a + b, 0);

/** The summary's last lines: the outstanding failures by kind and the command that retries them (empty when none). */
export function outstandingLines(stages: readonly Facts[]): string[] {
  const { kinds, upstream } = outstandingKinds(stages);
  if (!total(kinds) && !upstream) return [];
  const down = upstream ? ` (and ${upstream} failure row${upstream === 1 ? '' : 's'} downstream of them)` : '';
  return [`outstanding failures: ${list(kinds) || 'none of their own'}${down} — retry them with: cdp run --retry-failed`];
}

/** What a retrying run changed: failures (and retried results) before and after, by kind. */
export function retryLines(
  stages: readonly (Facts & Pick<StageResult, 'previous'>)[],
  o: { retryFailed?: boolean; retryKinds?: readonly string[] },
): string[] {
  const lines: string[] = [];
  if (o.retryFailed) {
    const before = outstandingKinds(stages.map((s) => s.previous ?? s)).kinds;
    const after = outstandingKinds(stages).kinds;
    const was = total(before),
      now = total(after);
    const of = (m: Record<string, number>, n: number) => (n ? ` (${list(m)})` : '');
    lines.push(`--retry-failed: cleared ${Math.max(0, was - now)} of ${was} failures${of(before, was)}; ${now} remain${of(after, now)}`);
  }
  for (const k of o.retryKinds ?? []) {
    const count = (ss: readonly Facts[]) => ss.reduce((n, s) => n + (kindsOf(s)[k]?.results ?? 0), 0);
    const was = count(stages.map((s) => s.previous ?? s)),
      now = count(stages);
    lines.push(`${RETRY_FLAG[k] ?? k}: asked ${was} ${k} failure${was === 1 ? '' : 's'} again; ${now} remain`);
  }
  return lines;
}

export function runReport(
  summary: Pick<RunSummary, 'stages'> & Partial<RunSummary>,
  o: { retryFailed?: boolean; retryKinds?: readonly string[] } = {},
): string {
  const lines: string[] = [];
  const covered = summary.stages.filter((s) => s.covered);
  if (covered.length)
    lines.push(
      `covered: ${covered.map((s) => `${s.stage} ${s.covered!.count}`).join(', ')} (distinct ${[...new Set(covered.map((s) => s.covered!.column))].join('/')})`,
    );
  for (const s of summary.stages) if (s.empty) lines.push(`nothing to evaluate: ${s.stage} has no rows: ${s.empty}`);
  const failing = summary.stages.filter((s) => s.rowsFailed > 0);
  if (failing.length) {
    const n = failing.reduce((t, s) => t + s.rowsFailed, 0);
    lines.push(
      `failure rows: ${n} in ${failing.length} stage${failing.length === 1 ? '' : 's'} (each is a row with its reason; nothing else was lost)`,
    );
    for (const s of failing) {
      const kinds = Object.fromEntries(Object.entries(kindsOf(s)).flatMap(([k, c]) => (c.failed ? [[k, c.failed]] : [])));
      const why = (s.failureReasons ?? []).map((r) => `${r.count}× ${r.example}`).join('; ');
      lines.push(`  ${s.stage}: ${s.rowsFailed} [${list(kinds)}]${why ? ` — ${why}` : ''}`);
    }
  }
  const kept = summary.stages.flatMap((s) =>
    Object.entries(kindsOf(s)).flatMap(([k, c]) => (c.results ? [`${s.stage} ${k} ${c.results}`] : [])),
  );
  if (kept.length) {
    const flags = [
      ...new Set(summary.stages.flatMap((s) => Object.keys(kindsOf(s)).filter((k) => kindsOf(s)[k]!.results && RETRY_FLAG[k]))),
    ];
    const how = flags.length ? ` (ask them again as fresh samples: ${flags.map((k) => `cdp run ${RETRY_FLAG[k]}`).join(', ')})` : '';
    lines.push(`failures kept as results: ${kept.join(', ')}${how}`);
  }
  lines.push(...retryLines(summary.stages, o));
  lines.push(...outstandingLines(summary.stages));
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
