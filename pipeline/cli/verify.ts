/**
 * `cdp verify` and `cdp status --verify`: the full check of a store. Every artifact segment a
 * current stage reuses is hashed (NDJSON and Parquet, whatever their stat says), every ledger
 * entry checked against its segments, every memo line against its checksum. `cdp verify` rebuilds
 * what does not match (a rebuilt artifact gets back the rows its key names, so nothing downstream
 * reruns) and drops bad memo lines; `cdp status --verify` only reports. A normal run only stats;
 * this is the explicit check.
 */
import type { Project } from './load.ts';
import { runDag, type RunSummary, type StageResult } from '../exec/executor.ts';
import { acquireRunLock } from '../store/run-lock.ts';
import { verifyMemos, type MemoReport } from '../store/memo-verify.ts';
import type { RunLlm } from './config-exports.ts';

export interface VerifyReport {
  /** Stages whose artifact and ledger entry match. */
  matching: string[];
  /** Stages whose artifact or ledger entry did not match, with why (rebuilt, or to rebuild). */
  mismatched: { stage: string; reasons: string[]; rebuilt: boolean; error?: string }[];
  /** Stages stale for another reason (a changed key): not verify's to run. */
  stale: { stage: string; reasons: string[] }[];
  memo: MemoReport;
  ok: boolean;
}

/** A rebuild under an unchanged key is one whose reasons are its artifact's or its ledger entry's. */
const DAMAGE = /^(artifact |ledger entry )/;

function classify(summary: RunSummary, memo: MemoReport, rebuild: boolean): VerifyReport {
  const r: VerifyReport = { matching: [], mismatched: [], stale: [], memo, ok: true };
  for (const s of summary.stages as StageResult[]) {
    const reasons = s.reasons ?? [];
    if (s.status === 'reused') r.matching.push(s.stage);
    else if (reasons.length && reasons.every((x) => DAMAGE.test(x)) && s.status !== 'not-run') {
      r.mismatched.push({ stage: s.stage, reasons, rebuilt: rebuild && s.status === 'ran', ...(s.error ? { error: s.error } : {}) });
    } else r.stale.push({ stage: s.stage, reasons: s.error ? [...reasons, s.error] : reasons });
  }
  // Repaired is as good as intact; a check alone is ok only when nothing is wrong.
  r.ok = rebuild ? r.mismatched.every((m) => m.rebuilt) : !memo.problems.length && !r.mismatched.length;
  return r;
}

/** Checks the whole store; with `rebuild`, repairs what does not match. */
export async function verifyStore(p: Project, o: { rebuild: boolean }): Promise<VerifyReport> {
  let memo: MemoReport;
  if (o.rebuild) {
    const lock = await acquireRunLock(p.ws.lock);
    try {
      memo = verifyMemos(p.ws.store, { repair: true });
    } finally {
      lock.release();
    }
  } else memo = verifyMemos(p.ws.store, { repair: false });
  const { llmClient, llmViews } = p.extensions;
  let llm: RunLlm | undefined;
  const makeLlm = llmClient ? async () => (llm ??= await llmClient(p))?.client : undefined;
  try {
    const summary = await runDag(p.dag, p.ws, {
      verify: true,
      dryRun: !o.rebuild,
      llm: makeLlm,
      extraViews: () => llm?.views() ?? llmViews?.(p) ?? {},
    });
    return classify(summary, memo, o.rebuild);
  } finally {
    await llm?.close();
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function formatVerify(r: VerifyReport, rebuild: boolean): string {
  const out: string[] = [];
  const checked = r.matching.length + r.mismatched.length;
  out.push(
    `artifacts: ${plural(checked, 'stage')} checked in full, ${r.matching.length} match` +
      (r.mismatched.length ? `, ${r.mismatched.length} ${rebuild ? 'did not (rebuilt below)' : 'do not'}` : ''),
  );
  for (const m of r.mismatched) {
    const what = rebuild ? (m.rebuilt ? 'rebuilt' : `NOT rebuilt (${m.error ?? 'see above'})`) : 'would be rebuilt by cdp verify';
    out.push(`  ${m.stage}: ${m.reasons.join('; ')}: ${what}`);
  }
  const bad = r.memo.problems;
  out.push(
    `memo: ${plural(r.memo.units, 'unit')} in ${plural(r.memo.files, 'file')} of ${plural(r.memo.stages, 'stage')}, ` +
      (bad.length
        ? `${plural(bad.length, 'problem')}${rebuild ? ' (dropped: their units are computed again when next needed)' : ''}`
        : 'every line intact'),
  );
  for (const b of bad) out.push(`  ${b.stage}/${b.file}${b.offset === null ? '' : ` byte ${b.offset}`}: ${b.problem}`);
  if (r.stale.length) {
    out.push(`not checked: ${r.stale.map((s) => s.stage).join(', ')} (stale: \`cdp run\` brings them up to date)`);
  }
  return out.join('\n') + '\n';
}
