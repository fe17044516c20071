/**
 * Stage `qc`: deterministic consistency checks between tree, CDP, vignette and narrative for
 * every CDP, and the seeded sample chosen for LLM-based inspection.
 */
import { rowStage, z } from '../../pipeline/stage.ts';
import { checkInstance } from './qc-checks.ts';
import { isSelectedForInspection } from './qc-sampler.ts';
import type { Cdp, TreeNodeRow } from './types.ts';

export default rowStage<{ inspectFraction: number; seed: number }>({
  inputs: { cdps: 'drives', vignettes: 'joined', narratives: 'joined', tree_nodes: 'joined' },
  // A function of the unit and the params: its units may run on worker threads (--workers).
  pure: true,
  params: { inspectFraction: z.number().min(0).max(1).default(0.05), seed: z.int().default(42) },
  columns: {
    cdp_id: 'VARCHAR',
    guideline_id: 'VARCHAR',
    cdp_ok: 'BOOLEAN',
    vignette_ok: 'BOOLEAN',
    narrative_ok: 'BOOLEAN',
    problems: 'STRUCT(kind VARCHAR, scope VARCHAR, step INTEGER, message VARCHAR)[]',
    inspect: 'BOOLEAN',
    // 'upstream' on the failure row of a case without a vignette: the vignette's failure is counted where it happened.
    failure_kind: 'VARCHAR',
  },
  run({ row, joined }, ctx) {
    const cdp = row as unknown as Cdp;
    const v = joined.vignettes[0];
    const base = {
      cdp_id: cdp.cdp_id,
      guideline_id: cdp.guideline_id,
      inspect: isSelectedForInspection(cdp.cdp_id, ctx.params.inspectFraction, ctx.params.seed),
    };
    if (!v || v.error != null) return { ...base, failure_kind: 'upstream', error: `no vignette to check${v ? `: ${v.error}` : ''}` };
    const n = joined.narratives[0];
    const report = checkInstance({
      cdp,
      vignette: v.vignette as string,
      narrative: n && n.error == null ? (n.steps as string[]) : undefined,
      treeNodes: joined.tree_nodes as unknown as TreeNodeRow[],
    });
    return { ...base, cdp_ok: report.cdpOk, vignette_ok: report.vignetteOk, narrative_ok: report.narrativeOk, problems: report.problems };
  },
});
