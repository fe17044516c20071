/**
 * The runner's one reuse-or-run decision, for stages and sources alike, with the reasons it shows
 * (`cdp run`, `--dry-run`, the stage-start event): deciding and explaining in one function means
 * the reasons can never disagree with what was done.
 *
 * In order of precedence: an input that will change (dry run) → run; `--force` → run; the same
 * key with `--retry-failed` and failed rows, or with a retried failure kind (`--retry-answers`)
 * and rows of that kind → run; the same key but an artifact that fails its
 * check → rebuild (`rebuildOnly`: the key, and so every descendant's, stays as it is); the same
 * key → reuse; otherwise run, with what changed since the last run.
 */
import type { ArtifactCheck } from '../store/artifacts.ts';
import type { FailureKinds } from '../store/segment-tally.ts';

export interface ReuseFacts {
  /** The key now equals the recorded one. */
  sameKey: boolean;
  /** The recorded artifact's check (only meaningful when `sameKey`). */
  check: ArtifactCheck;
  /** Inputs that a dry run would recompute first: their hashes are not known yet. */
  pendingInputs?: ReadonlyArray<{ local: string; from: string }>;
  forced?: boolean;
  retryFailed?: boolean;
  /** Failed rows of the recorded artifact. */
  failedRows?: number;
  /** Failure kinds this run asks again (`failure_kind` values), and the recorded artifact's rows by kind. */
  retryKinds?: readonly string[];
  kinds?: FailureKinds;
  /** Why a changed key is stale (evaluated only when it is). */
  staleness: () => string[];
}

export type ReuseDecision = { run: false } | { run: true; reasons: string[]; rebuildOnly: boolean };

export function decideReuse(f: ReuseFacts): ReuseDecision {
  const pending = f.pendingInputs ?? [];
  if (pending.length) return { run: true, reasons: pending.map((p) => `input '${p.local}' (${p.from}) will change`), rebuildOnly: false };
  if (f.forced) return { run: true, reasons: ['--force'], rebuildOnly: false };
  if (f.sameKey && f.retryFailed && (f.failedRows ?? 0) > 0) {
    return { run: true, reasons: [`--retry-failed: ${f.failedRows} failed rows`], rebuildOnly: false };
  }
  const retried = (f.retryKinds ?? []).filter((k) => (f.kinds?.[k]?.results ?? 0) + (f.kinds?.[k]?.failed ?? 0) > 0);
  if (f.sameKey && retried.length) {
    const n = retried.reduce((t, k) => t + f.kinds![k]!.results + f.kinds![k]!.failed, 0);
    return { run: true, reasons: [`retrying ${retried.join(', ')}: ${n} rows`], rebuildOnly: false };
  }
  if (f.sameKey && !f.check.ok) return { run: true, reasons: [f.check.reason], rebuildOnly: true };
  if (f.sameKey) return { run: false };
  return { run: true, reasons: f.staleness(), rebuildOnly: false };
}
