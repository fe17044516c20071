/**
 * Stage `excluded_cases`: the test cases the task settings leave out or QC flagged, each with who
 * (`construction`: no usable vignette or narrative; `checks`: the deterministic QC checks;
 * `inspection`: the LLM inspection) and why, and whether the task settings left it out — the
 * record of the decision `test_cases` makes with the same rules (stages/construct/
 * construction-failures.ts, qc-exclusion.ts) and the same `excludeFlagged` (dag.config.ts passes
 * both stages one value): a construction failure is always left out, a flagged case when
 * `excludeFlagged`. `cdp export` carries these verdicts with every case; `qc_summary` counts them.
 */
import { tableStage, z } from '../../pipeline/stage.ts';
import { CONSTRUCTION_READS, constructionFailures } from '../construct/construction-failures.ts';
import { qcFlags } from '../construct/qc-exclusion.ts';

export default tableStage<{ excludeFlagged: boolean }>({
  inputs: { cdps: 'whole', qc: 'whole', qc_inspection: 'whole', vignettes: 'whole', narratives: 'whole' },
  params: { excludeFlagged: z.boolean().default(true) },
  reads: { cdps: ['cdp_id', 'guideline_id', 'split', 'length'], ...CONSTRUCTION_READS },
  columns: {
    cdp_id: 'VARCHAR',
    guideline_id: 'VARCHAR',
    flagged_by: 'VARCHAR[]',
    reasons: 'VARCHAR[]',
    excluded: 'BOOLEAN',
  },
  run({ cdps, qc, qc_inspection, vignettes, narratives }, ctx) {
    const test = cdps.filter((c) => c.error == null && c.split === 'test');
    const broken = constructionFailures(test, vignettes, narratives);
    const flags = qcFlags(qc, qc_inspection);
    return test.flatMap((c) => {
      const id = String(c.cdp_id);
      const f = flags.get(id);
      const why = broken.get(id);
      if (!f && why === undefined) return [];
      return [
        {
          cdp_id: c.cdp_id,
          guideline_id: c.guideline_id,
          flagged_by: [...(why === undefined ? [] : ['construction']), ...(f?.sources ?? [])],
          reasons: [...(why === undefined ? [] : [why]), ...(f?.reasons ?? [])],
          excluded: why !== undefined || ctx.params.excludeFlagged,
        },
      ];
    });
  },
});
