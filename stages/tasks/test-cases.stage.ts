/**
 * Stage `test_cases`: the CDPs the task settings evaluate — the test split, or, for a smoke run
 * (`cdp run --limit N`), N of them spread over guidelines and languages (case-selection.ts).
 * Rows are the `cdps` rows unchanged, so a task unit's key is the same whether its case came in
 * through a smoke run or a full run: the full run reuses every unit the smoke run computed.
 * Failure rows of `cdps` pass through, so a failed guideline is still reported downstream.
 */
import { tableStage } from '../../pipeline/stage.ts';
import cdpsStage from '../construct/cdps.stage.ts';
import { selectCases, type CaseRef } from './case-selection.ts';

export interface TestCasesParams {
  /** At most this many test cases (null: all). */
  limit: number | null;
}

export const defaults: TestCasesParams = { limit: null };

export default tableStage<TestCasesParams>({
  params: defaults,
  columns: cdpsStage.columns,
  run({ cdps }, ctx) {
    const limit = ctx.params.limit;
    if (limit !== null && (!Number.isInteger(limit) || limit < 1)) throw new Error(`test_cases: limit must be a positive integer or null, got ${JSON.stringify(limit)}`);
    const test = cdps.filter((r) => r.error == null && r.split === 'test') as unknown as CaseRef[];
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
