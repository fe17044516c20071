/**
 * Stage `excluded_cases`: the test cases QC flagged, each with who flagged it (the deterministic
 * checks, the LLM inspection) and why, and whether the task settings left it out — the record of
 * the decision `test_cases` makes with the same rule (stages/construct/qc-exclusion.ts) and the
 * same `excludeFlagged` (dag.config.ts passes both stages one value). `cdp export` carries these
 * verdicts with every case; `qc_summary` counts them.
 */
import { tableStage, z } from '../../pipeline/stage.ts';
import { qcFlags } from '../construct/qc-exclusion.ts';

export default tableStage<{ excludeFlagged: boolean }>({
  inputs: { cdps: 'whole', qc: 'whole', qc_inspection: 'whole' },
  params: { excludeFlagged: z.boolean().default(true) },
  reads: { cdps: ['cdp_id', 'guideline_id', 'split'] },
  columns: {
    cdp_id: 'VARCHAR',
    guideline_id: 'VARCHAR',
    flagged_by: 'VARCHAR[]',
    reasons: 'VARCHAR[]',
    excluded: 'BOOLEAN',
  },
  run({ cdps, qc, qc_inspection }, ctx) {
    const exclude = ctx.params.excludeFlagged;
    const flags = qcFlags(qc, qc_inspection);
    return cdps
      .filter((c) => c.split === 'test' && flags.has(String(c.cdp_id)))
      .map((c) => {
        const f = flags.get(String(c.cdp_id))!;
        return { cdp_id: c.cdp_id, guideline_id: c.guideline_id, flagged_by: f.sources, reasons: f.reasons, excluded: exclude };
      });
  },
});
