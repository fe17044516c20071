/**
 * Stage `test_cases`: the CDPs the task settings evaluate — the test split, without the cases QC
 * flagged (paper §3.1 excludes problematic cases), or, for a smoke run (`cdp run --limit N`), N of
 * them spread over guidelines and languages (case-selection.ts).
 * Rows are the `cdps` rows unchanged, so a task unit's key is the same whether its case came in
 * through a smoke run or a full run: the full run reuses every unit the smoke run computed.
 * Failure rows of `cdps` pass through, so a failed guideline is still reported downstream.
 *
 * Construction failures (stages/construct/construction-failures.ts): a test case without a
 * usable vignette or narrative (inputs `vignettes`, `narratives`) is no test case, whatever
 * `excludeFlagged` says: it is left out with a log line naming it and why, and qc_summary counts it,
 * so it is never charged to an evaluated model.
 *
 * QC exclusion (`excludeFlagged`, default true): a test case flagged by the deterministic checks
 * (input `qc`) or, when a builder model inspected it, by the LLM inspection (input
 * `qc_inspection`) is left out before `--limit` chooses (stages/construct/qc-exclusion.ts); the
 * log names every excluded case and why, and `qc_summary` reports the counts. false keeps
 * them, for a run that wants to see how the flagged cases fare.
 */
import { tableStage, z } from '../../pipeline/stage.ts';
import cdpsStage from '../construct/cdps.stage.ts';
import { exclusionCounts, qcFlags } from '../construct/qc-exclusion.ts';
import { CONSTRUCTION_READS, constructionFailures } from '../construct/construction-failures.ts';
import { selectCases, type CaseRef } from './case-selection.ts';

export interface TestCasesParams {
  /** At most this many test cases (null: all). */
  limit: number | null;
  /** Leave out the test cases QC flagged (default true). */
  excludeFlagged: boolean;
}

export default tableStage<TestCasesParams>({
  inputs: { cdps: 'whole', qc: 'whole', qc_inspection: 'whole', vignettes: 'whole', narratives: 'whole' },
  params: { limit: z.int().min(1).nullable().default(null), excludeFlagged: z.boolean().default(true) },
  reads: CONSTRUCTION_READS,
  columns: cdpsStage.columns,
  run({ cdps, qc, qc_inspection, vignettes, narratives }, ctx) {
    const limit = ctx.params.limit;
    if (limit !== null && (!Number.isInteger(limit) || limit < 1))
      throw new Error(`test_cases: limit must be a positive integer or null, got ${JSON.stringify(limit)}`);
    const exclude = ctx.params.excludeFlagged;
    if (typeof exclude !== 'boolean') throw new Error(`test_cases: excludeFlagged must be true or false, got ${JSON.stringify(exclude)}`);
    const built = cdps.filter((r) => r.error == null && r.split === 'test');
    const broken = constructionFailures(built, vignettes, narratives);
    if (broken.size) {
      const which = [...broken].map(([id, why]) => `${id} (${why})`).join('; ');
      ctx.log(`construction failed for ${broken.size} of ${built.length} test cases, left out of the test set: ${which}`);
    }
    const allTest = built.filter((r) => !broken.has(String(r.cdp_id))) as unknown as CaseRef[];
    let test = allTest;
    if (exclude) {
      const flags = qcFlags(qc, qc_inspection);
      const c = exclusionCounts(
        allTest.map((t) => t.cdp_id),
        flags,
      );
      test = allTest.filter((t) => !flags.has(t.cdp_id));
      if (c.flagged > 0) {
        const which = allTest.filter((t) => flags.has(t.cdp_id)).map((t) => `${t.cdp_id} (${flags.get(t.cdp_id)!.reasons.join(', ')})`);
        const by = `${c.byChecks} by the checks, ${c.byInspection} by the inspection`;
        ctx.log(`QC: left out ${c.flagged} of ${allTest.length} test cases (${by}): ${which.join('; ')}`);
      }
    }
    const chosen = selectCases(test, limit);
    if (limit !== null) {
      const rows = test.filter((c) => chosen.has(c.cdp_id));
      const guidelines = new Set(rows.map((c) => c.guideline_id)).size;
      const languages = new Set(rows.map((c) => c.language)).size;
      ctx.log(`--limit ${limit}: ${chosen.size} of ${test.length} test cases, from ${guidelines} guidelines in ${languages} languages`);
    }
    return cdps.filter((r) => r.error != null || chosen.has(String(r.cdp_id)));
  },
});
